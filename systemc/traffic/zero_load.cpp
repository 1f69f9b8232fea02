#include "traffic/zero_load.hpp"

namespace mt::noc {

uint64_t zero_load_network_latency(const NocConfig& cfg, uint32_t hops, uint32_t flits) {
  const uint64_t r = uint64_t{cfg.rc_delay} + cfg.va_delay + cfg.sa_delay + cfg.st_delay;
  return 2ull * cfg.local_latency + (hops + 1ull) * r + static_cast<uint64_t>(hops) * cfg.link_latency +
         (flits - 1ull);
}

ZeroLoad mean_zero_load(const Topology& topo, const NocConfig& cfg, const Pattern& pattern,
                        uint32_t flits) {
  ZeroLoad z;
  const uint32_t n = topo.nodes();
  const auto [width, height] = pattern_shape(topo);
  for (uint32_t src = 0; src < n; ++src) {
    const std::vector<uint32_t> dist = topo.distances_from(src);
    for (const auto& [dest, p] : destination_distribution(pattern, src, width, height)) {
      z.hops += p * dist[dest];
      z.network += p * static_cast<double>(zero_load_network_latency(cfg, dist[dest], flits));
    }
  }
  z.hops /= n;
  z.network /= n;
  z.total = z.network + kSourceDelay;
  return z;
}

}  // namespace mt::noc
