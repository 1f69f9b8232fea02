#include "topology/topology.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

#include "common/error.hpp"

namespace mt {

Topology::Topology(TopologyKind kind, std::string spec, uint32_t nodes, uint32_t switches,
                   std::vector<Link> links)
    : kind_(kind), spec_(std::move(spec)), nodes_(nodes), switches_(switches),
      links_(std::move(links)) {
  if (nodes_ < 2) {
    throw InputError(fmt::format("topology {}: needs at least 2 nodes, has {}", spec_, nodes_));
  }
  const uint32_t v = vertices();
  if (links_.size() >= std::numeric_limits<uint32_t>::max()) {
    throw InputError(fmt::format("topology {}: {} links, more than 2^32 - 1", spec_, links_.size()));
  }
  out_start_.assign(static_cast<size_t>(v) + 1, 0);
  for (uint32_t i = 0; i < links_.size(); ++i) {
    const Link& l = links_[i];
    if (l.src >= v || l.dst >= v) {
      throw InputError(fmt::format("topology {}: link {} -> {} names a vertex that does not exist "
                                   "(vertices 0..{})", spec_, l.src, l.dst, v - 1));
    }
    if (l.src == l.dst) {
      throw InputError(fmt::format("topology {}: link from vertex {} to itself", spec_, l.src));
    }
    ++out_start_[l.src + 1];
  }
  for (uint32_t u = 0; u < v; ++u) out_start_[u + 1] += out_start_[u];
  out_ids_.resize(links_.size());
  {
    std::vector<uint32_t> next(out_start_.begin(), out_start_.end() - 1);
    for (uint32_t i = 0; i < links_.size(); ++i) out_ids_[next[links_[i].src]++] = i;
  }
  check_connected();
}

void Topology::set_link_latencies(std::vector<uint32_t> latency) {
  if (latency.size() != links_.size()) {
    throw std::logic_error(fmt::format("topology {}: {} link latencies for {} links", spec_,
                                       latency.size(), links_.size()));
  }
  const bool any = std::any_of(latency.begin(), latency.end(), [](uint32_t c) { return c != 0; });
  latency_ = any ? std::move(latency) : std::vector<uint32_t>{};
}

TopologySize Topology::size() const {
  return {nodes_, switches_, links_.size(), width_, height_, min_node_degree(), kind_};
}

uint32_t Topology::max_node_degree() const {
  uint32_t m = 0;
  for (uint32_t n = 0; n < nodes_; ++n) m = std::max(m, degree(n));
  return m;
}

uint32_t Topology::min_node_degree() const {
  uint32_t m = degree(0);
  for (uint32_t n = 1; n < nodes_; ++n) m = std::min(m, degree(n));
  return m;
}

uint32_t Topology::first_link(uint32_t a, uint32_t b) const {
  for (uint32_t l : out_links(a)) {
    if (links_[l].dst == b) return l;
  }
  return kNoLink;
}

uint32_t Topology::multiplicity(uint32_t a, uint32_t b) const {
  uint32_t k = 0;
  for (uint32_t l : out_links(a)) k += links_[l].dst == b ? 1u : 0u;
  return k;
}

std::vector<uint32_t> Topology::distances_from(uint32_t v) const {
  std::vector<uint32_t> dist, queue;
  distances_from(v, dist, queue);
  return dist;
}

void Topology::distances_from(uint32_t v, std::vector<uint32_t>& dist,
                              std::vector<uint32_t>& queue) const {
  constexpr uint32_t kInf = std::numeric_limits<uint32_t>::max();
  dist.assign(vertices(), kInf);
  queue.assign(1, v);
  dist[v] = 0;
  for (size_t head = 0; head < queue.size(); ++head) {
    const uint32_t u = queue[head];
    if (u != v && !forwards(u)) continue;
    for (uint32_t l : out_links(u)) {
      const uint32_t w = links_[l].dst;
      if (dist[w] == kInf) {
        dist[w] = dist[u] + 1;
        queue.push_back(w);
      }
    }
  }
}

}  // namespace mt
