#include "traffic/packet.hpp"

#include "stats/packet_log.hpp"

namespace mt::noc {

std::vector<Flit> make_packet(uint64_t id, uint32_t src, uint32_t dest, uint32_t length) {
  const uint16_t src16 = head_field<uint16_t>(src, format::flit::kHeadSrc);
  const uint16_t dest16 = head_field<uint16_t>(dest, format::flit::kHeadDest);
  std::vector<Flit> flits(length);
  for (uint32_t i = 0; i < length; ++i) {
    Flit& f = flits[i];
    f.type = length == 1       ? FlitType::kHeadTail
             : i == 0          ? FlitType::kHead
             : i + 1 == length ? FlitType::kTail
                               : FlitType::kBody;
    f.src = src16;
    f.dest = dest16;
    f.packet = id;
    f.index = i;
    f.length = length;
    f.data = PacketLog::payload(id, i);
  }
  return flits;
}

}  // namespace mt::noc
