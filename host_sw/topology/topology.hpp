// Network topologies: the graph every plan is built on.
//
// Vertices [0, nodes) are end nodes (accelerators, each with an NI); vertices
// [nodes, nodes + switches) are switches of indirect networks. Links are directed; a physical
// link is two directed links, and a link k times wider is k parallel directed links (paper
// §VII-B). Each vertex lists its outgoing links in neighbour order, which Algorithm 1 follows
// when it looks for a child: on a 2D torus/mesh y-1, y+1, x-1, x+1 (DESIGN.md).
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mt {

enum class TopologyKind { kTorus, kMesh, kRing, kFatTree, kBiGraph, kFile };

struct Link {
  uint32_t src;  // vertex id
  uint32_t dst;  // vertex id
};

// How large a network is: what the tools' up-front size checks need. Known from a spec string
// before anything is built (topology_size), or from a built Topology (Topology::size()).
struct TopologySize {
  uint64_t nodes = 0;
  uint64_t switches = 0;
  uint64_t links = 0;            // directed
  uint32_t width = 0;            // grid shape: torus/mesh W x H, ring N x 1; 0 x 0 off grids
  uint32_t height = 0;
  uint32_t min_node_degree = 0;  // links out of the node with the fewest
  TopologyKind kind = TopologyKind::kFile;
};

// A run of link ids (a vertex's outgoing links), for range-for and size().
struct LinkIds {
  const uint32_t* first;
  const uint32_t* last;
  const uint32_t* begin() const { return first; }
  const uint32_t* end() const { return last; }
  size_t size() const { return static_cast<size_t>(last - first); }
};

class Topology {
 public:
  // Builds from a vertex count and directed links, in neighbour order per source vertex.
  // Checks that ids are in range and that every node reaches every other node.
  Topology(TopologyKind kind, std::string spec, uint32_t nodes, uint32_t switches,
           std::vector<Link> links);

  TopologyKind kind() const { return kind_; }
  const std::string& spec() const { return spec_; }
  uint32_t nodes() const { return nodes_; }
  uint32_t switches() const { return switches_; }
  uint32_t vertices() const { return nodes_ + switches_; }
  bool is_switch(uint32_t v) const { return v >= nodes_; }
  bool direct() const { return switches_ == 0; }
  // Whether traffic passes through v: every router of a direct network does; in a switch
  // network only switches do (nodes are end points on a NIC).
  bool forwards(uint32_t v) const { return direct() || is_switch(v); }

  // Grid shape: torus/mesh W x H; ring N x 1; 0 x 0 for other kinds.
  uint32_t width() const { return width_; }
  uint32_t height() const { return height_; }
  bool wraps() const { return kind_ == TopologyKind::kTorus || kind_ == TopologyKind::kRing; }
  TopologySize size() const;

  // Links marked failed (a spec's failed= option, a file's "failed" field) as vertex pairs,
  // the smaller id first, ascending: the network has no link between the two, so no route,
  // plan or router uses one (README.md here).
  using VertexPair = std::pair<uint32_t, uint32_t>;
  const std::vector<VertexPair>& failed_links() const { return failed_; }
  void set_failed_links(std::vector<VertexPair> failed) { failed_ = std::move(failed); }
  // A torus, mesh or ring with every link of its grid: dimension-order routes, the grid's
  // closed forms and its symmetries hold. A grid with failed links keeps its shape (width(),
  // height(), the planners that follow rows and columns) but is routed and measured as any
  // direct network.
  bool whole_grid() const {
    return failed_.empty() && (kind_ == TopologyKind::kTorus || kind_ == TopologyKind::kMesh ||
                               kind_ == TopologyKind::kRing);
  }

  const std::vector<Link>& links() const { return links_; }
  // Link l's latency in cycles, set by a file's "latency" field (both directions of a link, and
  // its parallel links, alike); 0 where none is set: the simulator's link latency.
  uint32_t link_latency(uint32_t l) const { return latency_.empty() ? 0 : latency_[l]; }
  bool has_link_latencies() const { return !latency_.empty(); }
  // One latency per link id (0: the simulator's); all zero leaves none set.
  void set_link_latencies(std::vector<uint32_t> latency);
  // Outgoing link ids of vertex v, in neighbour order (parallel links are adjacent).
  LinkIds out_links(uint32_t v) const {
    return {out_ids_.data() + out_start_[v], out_ids_.data() + out_start_[v + 1]};
  }
  // Number of outgoing links of node n (its injection bandwidth in link units).
  uint32_t degree(uint32_t n) const { return out_start_[n + 1] - out_start_[n]; }
  uint32_t max_node_degree() const;
  uint32_t min_node_degree() const;
  // Number of parallel directed links from a to b (0 when not adjacent).
  uint32_t multiplicity(uint32_t a, uint32_t b) const;
  // The first link from a to b in a's neighbour order; kNoLink when they are not adjacent.
  static constexpr uint32_t kNoLink = 0xffffffffu;
  uint32_t first_link(uint32_t a, uint32_t b) const;
  bool adjacent(uint32_t a, uint32_t b) const { return multiplicity(a, b) > 0; }

  // Hop distance between nodes counted in node-to-node hops through switches: the number
  // of links on a shortest path. Diameter is the largest such distance between two nodes:
  // a closed form for the regular kinds; for files, an exact search that bounds most nodes
  // instead of searching from each (diameter.cpp).
  std::vector<uint32_t> distances_from(uint32_t v) const;
  // The same into `dist`, reusing its storage and `queue`'s (for searches from many vertices).
  void distances_from(uint32_t v, std::vector<uint32_t>& dist, std::vector<uint32_t>& queue) const;
  uint32_t diameter() const;

  // Grid coordinates of a node of a torus/mesh/ring (id = y*W + x).
  uint32_t x_of(uint32_t n) const { return n % width_; }
  uint32_t y_of(uint32_t n) const { return n / width_; }

  void set_grid(uint32_t w, uint32_t h) { width_ = w; height_ = h; }
  // Fat-tree shape (make_fattree): arity m and levels L; 0 x 0 for other kinds.
  uint32_t fattree_arity() const { return arity_; }
  uint32_t fattree_levels() const { return levels_; }
  void set_fattree(uint32_t m, uint32_t levels) { arity_ = m; levels_ = levels; }
  // Builders of switch networks whose diameter has a closed form give it here, so that
  // diameter() does not search from every node (fattree:16x4 has 2^16 nodes).
  void set_known_diameter(uint32_t d) { known_diameter_ = d; }

 private:
  // Every node reaches every other node the way traffic moves (only forwarding vertices
  // relay), and every switch reaches some node; InputError naming the first pair that fails.
  void check_connected() const;

  TopologyKind kind_;
  std::string spec_;
  uint32_t nodes_;
  uint32_t switches_;
  uint32_t width_ = 0;
  uint32_t height_ = 0;
  uint32_t known_diameter_ = 0;  // 0: not known, search
  uint32_t arity_ = 0;
  uint32_t levels_ = 0;
  std::vector<Link> links_;
  std::vector<uint32_t> latency_;  // per link id; empty: none set
  std::vector<VertexPair> failed_;
  // Outgoing links by vertex, in one array (a fattree:64x4 has 1.8e7 vertices): vertex v's
  // are out_ids_[out_start_[v] .. out_start_[v + 1]), in link id order.
  std::vector<uint32_t> out_start_;
  std::vector<uint32_t> out_ids_;
};

// Builders. Each throws InputError naming the problem for sizes that make no network.
// The *_size functions check the same and give the size the builder would make, at once.
TopologySize grid_size(TopologyKind kind, uint32_t w, uint32_t h);  // torus, mesh, ring (h 1)
// The spec a W x H torus, mesh or ring (h unused) is built from: "torus:4x4", "ring:8".
std::string grid_spec(TopologyKind kind, uint32_t w, uint32_t h);
TopologySize fattree_size(uint32_t m, uint32_t levels);
TopologySize bigraph_size(uint32_t half, uint32_t per_switch);
// Node n's neighbours on a W x H torus, mesh or ring (h 1), in neighbour order (y-1, y+1,
// x-1, x+1, wrapping on a torus or ring), each once: a dimension of size 2 has one link.
struct GridNeighbours {
  uint32_t id[4];
  uint32_t count = 0;
  bool has(uint32_t m) const { return std::find(id, id + count, m) != id + count; }
};
GridNeighbours grid_neighbours(TopologyKind kind, uint32_t w, uint32_t h, uint32_t n);
Topology make_torus(uint32_t w, uint32_t h);
Topology make_mesh(uint32_t w, uint32_t h);
Topology make_ring(uint32_t n);
// m-ary n-level fat-tree (m-ary n-tree): m^n nodes, n levels of m^(n-1) switches; nodes hang
// m to a leaf switch.
Topology make_fattree(uint32_t m, uint32_t levels);
// EFLOPS BiGraph: two halves of `half` switches each, every upper switch linked to every
// lower switch, `per_switch` nodes on every switch.
Topology make_bigraph(uint32_t half, uint32_t per_switch);
// A hierarchy of machines: machine m's learners[m] nodes on its switch, each by `ratio`
// parallel links (the intra/inter bandwidth ratio), and one link from each machine's switch
// to a root switch. Nodes are numbered machine by machine; switch m is machine m's, the last
// switch the root.
constexpr uint32_t kHierDefaultRatio = 4;
TopologySize hier_size(const std::vector<uint32_t>& learners, uint32_t ratio);
Topology make_hier(const std::vector<uint32_t>& learners, uint32_t ratio = kHierDefaultRatio);
// JSON topology file (format in host_sw/topology/README.md).
Topology load_topology_file(const std::string& path);
Topology parse_topology_json(const std::string& text, const std::string& spec);

// Failed links (README.md here). `list` is a spec's failed= value, vertex pairs "a-b"
// joined by '+' ("0-1+9-10"): the pairs, the smaller id first, ascending; InputError naming
// what is wrong with the text (not a pair, a vertex paired with itself, a pair twice).
std::vector<Topology::VertexPair> parse_failed_links(const std::string& list,
                                                     const std::string& spec);
// The value parse_failed_links reads, from its pairs.
std::string failed_links_text(const std::vector<Topology::VertexPair>& failed);
// The size of a W x H torus, mesh or ring without the links of `failed`, from their
// coordinates alone; InputError naming a node out of range or a pair that is not linked.
TopologySize failed_grid_size(TopologySize grid, const std::vector<Topology::VertexPair>& failed,
                              const std::string& spec);
// Network `t` without the links between each pair of `failed` (as parse_failed_links gives
// them), named `spec`: the same kind, shape, neighbour order and link latencies less those
// links, and the pairs in failed_links(). InputError naming a vertex out of range, a pair
// that is not linked, or the network the rest leaves disconnected.
Topology without_links(const Topology& t, const std::vector<Topology::VertexPair>& failed,
                       const std::string& spec);

// The diameter of a network without a closed form (files), exactly, by a search that on most
// networks visits far fewer vertices and links than a search from every node (diameter.cpp).
// InputError when it is not found within `max_visits` visits; Topology::diameter() allows 2e9.
uint32_t search_diameter(const Topology& t, double max_visits);

// Spec strings: torus:WxH, mesh:WxH, ring:N (each [,failed=A-B+C-D+...]), fattree:MxL,
// bigraph:SxK, hier:A+B+...[,ratio=R], file:PATH.
Topology parse_topology(const std::string& spec);
// The size parse_topology(spec) would build, without building it (a fattree:64x4 takes
// seconds and gigabytes), so a tool can refuse a size up front; the same InputError for a
// bad spec. Nothing for file: specs, whose size is what the file holds.
std::optional<TopologySize> topology_size(const std::string& spec);

}  // namespace mt
