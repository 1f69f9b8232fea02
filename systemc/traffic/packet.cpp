#include "traffic/packet.hpp"

#include "stats/packet_log.hpp"

namespace mt::noc {

std::vector<Flit> make_packet(uint64_t id, uint32_t src, uint32_t dest, uint32_t length,
                              uint64_t offered) {
  std::vector<Flit> flits(length);
  for (uint32_t i = 0; i < length; ++i) {
    Flit& f = flits[i];
    f.type = length == 1       ? FlitType::kHeadTail
             : i == 0          ? FlitType::kHead
             : i + 1 == length ? FlitType::kTail
                               : FlitType::kBody;
    f.src = src;
    f.dest = dest;
    f.packet = id;
    f.index = i;
    f.length = length;
    f.injected = offered;
    f.data = PacketLog::payload(id, i);
  }
  return flits;
}

}  // namespace mt::noc
