// Network parameters (defaults: paper Table III and DESIGN.md).
#pragma once

#include <cstdint>
#include <string>

namespace mt::noc {

struct NocConfig {
  uint32_t vcs = 4;               // virtual channels per port
  uint32_t vc_depth = 318;        // flits per VC buffer
  bool wormhole = false;          // false: virtual cut-through
  // Router pipeline, cycles per stage; a head flit spends rc+va+sa+st cycles in a router.
  uint32_t rc_delay = 1;          // route computation
  uint32_t va_delay = 1;          // VC allocation
  uint32_t sa_delay = 1;          // switch allocation
  uint32_t st_delay = 1;          // switch traversal
  uint32_t link_latency = 150;    // router-to-router links, cycles
  uint32_t credit_latency = 150;  // credits back over a router-to-router link
  uint32_t local_latency = 1;     // NI <-> router injection and ejection links
  uint32_t subpacket_flits = 16;  // VCT reservation unit of all-reduce messages
  uint32_t ni_ports = 1;          // NI injection/ejection port pairs per router (K)
  uint64_t clock_ps = 1000;       // 1 GHz

  // Checks ranges; throws mt::InputError naming the bad parameter.
  void validate() const;
  std::string str() const;
};

}  // namespace mt::noc
