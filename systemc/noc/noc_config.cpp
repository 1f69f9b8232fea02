#include "noc/noc_config.hpp"

#include <fmt/format.h>

#include "common/error.hpp"
#include "flit/flit.hpp"

namespace mt::noc {

void NocConfig::validate() const {
  auto need = [](bool ok, const std::string& what) {
    if (!ok) throw InputError("network configuration: " + what);
  };
  need(vcs >= 2 && vcs <= 4 && vcs % 2 == 0,
       fmt::format("vcs = {}: must be 2 or 4 (two dateline classes; the VC field is 2 bits)", vcs));
  need(vc_depth >= 1, "vc_depth must be at least 1 flit");
  need(rc_delay >= 1 && va_delay >= 1 && sa_delay >= 1 && st_delay >= 1,
       "every router pipeline stage takes at least 1 cycle");
  need(link_latency >= 1 && credit_latency >= 1 && local_latency >= 1,
       "link, credit and local latencies must be at least 1 cycle");
  need(subpacket_flits >= 1 && subpacket_flits <= vc_depth,
       fmt::format("subpacket_flits = {} must be 1..vc_depth ({})", subpacket_flits, vc_depth));
  need(clock_ps >= 1, "clock period must be at least 1 ps");
  need(ni_ports >= 1 && ni_ports <= kMaxLocalPorts,
       fmt::format("ni_ports = {}: must be 1..{} (NI port pairs per router)", ni_ports,
                   kMaxLocalPorts));
  // The router keeps bit masks over its input VCs, indexed port code * vcs + vc.
  need(vcs * (kPorts - 1 + ni_ports) <= 64,
       fmt::format("vcs = {} with ni_ports = {}: more than 64 input VCs per router", vcs,
                   ni_ports));
}

std::string NocConfig::str() const {
  return fmt::format(
      "{} VCs x {} flits, {}, router stages rc {} va {} sa {} st {}, link {} cycles, credit {} "
      "cycles, local {} cycles, sub-packet {} flits, {} NI port pair(s), clock {} ps",
      vcs, vc_depth, wormhole ? "wormhole" : "virtual cut-through", rc_delay, va_delay, sa_delay,
      st_delay, link_latency, credit_latency, local_latency, subpacket_flits, ni_ports,
      clock_ps);
}

}  // namespace mt::noc
