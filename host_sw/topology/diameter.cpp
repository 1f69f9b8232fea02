// The diameter: the largest node-to-node distance. Closed forms for the builders' networks;
// for any other network (files) an exact search that bounds every node's eccentricity (its
// largest distance to a node) from the searches of a few vertices, so that most nodes are
// never searched: BoundingDiameters (Takes and Kosters, "Determining the diameter of small
// world networks", CIKM 2011), over nodes only, with switches as the vertices that forward.
#include <algorithm>
#include <limits>
#include <utility>

#include <fmt/format.h>

#include "common/error.hpp"
#include "topology/topology.hpp"

namespace mt {
namespace {

constexpr uint32_t kInf = std::numeric_limits<uint32_t>::max();

// Vertices and links visited by all searches together, and the time a visit takes on this
// 2-core machine: a search from every node of a 128x128 torus given as a file (every node
// equally far from the others, so the bounds never spare one) visits 1.3e9, in 3.5 s. A
// network whose diameter takes more than 2e9 is refused.
constexpr double kMaxVisits = 2e9;
constexpr double kSecondsPerVisit = 2.5e-9;

// Whether every link has one in the other direction: then a path reversed is a path (its
// inner vertices forward either way), so distances are symmetric. Topology files always are.
bool symmetric(const Topology& t) {
  std::vector<std::pair<uint32_t, uint32_t>> links, back;
  links.reserve(t.links().size());
  back.reserve(t.links().size());
  for (const Link& l : t.links()) {
    links.emplace_back(l.src, l.dst);
    back.emplace_back(l.dst, l.src);
  }
  std::sort(links.begin(), links.end());
  std::sort(back.begin(), back.end());
  return links == back;
}

// The largest distance from a search to a node (kInf when one is unreachable).
uint32_t node_eccentricity(const Topology& t, const std::vector<uint32_t>& d) {
  return *std::max_element(d.begin(), d.begin() + t.nodes());
}

uint32_t search_every_node(const Topology& t) {
  uint32_t diameter = 0;
  std::vector<uint32_t> d, queue;
  for (uint32_t n = 0; n < t.nodes(); ++n) {
    t.distances_from(n, d, queue);
    diameter = std::max(diameter, node_eccentricity(t, d));
  }
  return diameter;
}

// Bounds on every vertex's eccentricity (a node's is exact once it has been searched), and
// the next vertices to search (node 0 first).
struct Bounds {
  explicit Bounds(uint32_t vertices)
      : upper(vertices, kInf), lower(vertices, 0), searched(vertices) {}
  std::vector<uint32_t> upper, lower;
  std::vector<bool> searched;
  uint32_t diameter = 0;   // the largest node eccentricity found
  uint32_t farthest = 0;   // unsearched node with the largest upper bound above it, or kInf
  uint32_t central = 0;    // unsearched forwarding vertex with the smallest lower bound, or kInf
};

// What a search from x (distances d, eccentricity e) tells: through a vertex x that forwards,
// v is at most d + e from every node; a vertex v that forwards is at least e - d from one, and
// at least d from x when x is a node. Then picks the next candidates.
void tighten(const Topology& t, uint32_t x, const std::vector<uint32_t>& d, uint32_t e, Bounds& b) {
  b.searched[x] = true;
  if (!t.is_switch(x)) b.diameter = std::max(b.diameter, e);
  for (uint32_t v = 0; v < t.vertices(); ++v) {
    if (d[v] == kInf) continue;
    if (t.forwards(x) && e != kInf) b.upper[v] = std::min(b.upper[v], d[v] + e);
    if (!t.forwards(v)) continue;
    if (!t.is_switch(x)) b.lower[v] = std::max(b.lower[v], d[v]);
    if (e != kInf && e > d[v]) b.lower[v] = std::max(b.lower[v], e - d[v]);
  }
  if (!t.is_switch(x)) b.upper[x] = e;
  b.farthest = b.central = kInf;
  for (uint32_t v = 0; v < t.vertices(); ++v) {
    if (b.searched[v]) continue;
    if (!t.is_switch(v) && b.upper[v] > b.diameter &&
        (b.farthest == kInf || b.upper[v] > b.upper[b.farthest])) {
      b.farthest = v;
    }
    if (t.forwards(v) && (b.central == kInf || b.lower[v] < b.lower[b.central])) b.central = v;
  }
}

// Searches, in turn, the farthest candidate and the central one, whose search bounds every
// vertex from above; done when no unsearched node can exceed the largest eccentricity found.
// Exact: every node's eccentricity is at most its upper bound.
uint32_t bounded_search(const Topology& t, double max_visits) {
  Bounds b(t.vertices());
  std::vector<uint32_t> d, queue;
  const double visits = static_cast<double>(t.vertices()) + static_cast<double>(t.links().size());
  uint32_t searches = 0;
  for (bool central = false; b.farthest != kInf; central = !central, ++searches) {
    if (visits * (searches + 1) > max_visits) {
      throw InputError(fmt::format(
          "topology {}: its diameter (the largest distance between two nodes) is still not "
          "known after {} searches, {:.1g} vertex and link visits (about {:.0f} s here); a "
          "search from each of its {} nodes would take about {:.0f} s", t.spec(), searches,
          visits * searches, visits * searches * kSecondsPerVisit, t.nodes(),
          visits * t.nodes() * kSecondsPerVisit));
    }
    const uint32_t next = central && b.central != kInf ? b.central : b.farthest;
    t.distances_from(next, d, queue);
    tighten(t, next, d, node_eccentricity(t, d), b);
  }
  return b.diameter;
}

}  // namespace

uint32_t search_diameter(const Topology& t, double max_visits) {
  return symmetric(t) ? bounded_search(t, max_visits) : search_every_node(t);
}

uint32_t Topology::diameter() const {
  if (whole_grid() && kind_ == TopologyKind::kMesh) return (width_ - 1) + (height_ - 1);
  if (whole_grid()) return width_ / 2 + height_ / 2;
  if (known_diameter_ != 0) return known_diameter_;
  return search_diameter(*this, kMaxVisits);
}

}  // namespace mt
