// The network as MTREE's undirected graph G (the seed's §III: workers and their connections,
// each with an available capacity b_j and a latency).
#include <fmt/format.h>

#include "algorithms/mtree.hpp"
#include "common/error.hpp"

namespace mt {

MtreeGraph mtree_graph(const Topology& topo) {
  if (!topo.direct()) {
    throw InputError(fmt::format(
        "mtree: topology {} has switches; mtree builds spanning trees over links that join "
        "nodes, so it plans on direct networks only (torus, mesh, ring, or a file without "
        "switches)", topo.spec()));
  }
  MtreeGraph g;
  g.n = topo.nodes();
  for (uint32_t a = 0; a < g.n; ++a) {
    for (uint32_t l : topo.out_links(a)) {
      const uint32_t b = topo.links()[l].dst;
      // One edge per pair: taken from its lower end, at the first of its parallel links.
      if (b <= a || topo.first_link(a, b) != l) continue;
      const uint32_t latency = topo.link_latency(l);
      g.edges.push_back({a, b, static_cast<double>(topo.multiplicity(a, b)),
                         latency == 0 ? kMtreeDefaultLatency : latency});
    }
  }
  return g;
}

double MtreeTrees::total() const {
  double sum = 0;
  for (double r : rates) sum += r;
  return sum;
}

}  // namespace mt
