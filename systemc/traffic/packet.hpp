// The flits of one normal (dimension-order routed) packet, as a traffic source sends them.
#pragma once

#include <cstdint>
#include <vector>

#include "flit/flit.hpp"

namespace mt::noc {

// kHeadTail alone, else kHead, kBody..., kTail. Every flit carries src, dest, the packet id,
// its index, the length and PacketLog::payload(id, index) as data, which the destination
// checks (the offered cycle is in the packet's PacketLog record).
std::vector<Flit> make_packet(uint64_t id, uint32_t src, uint32_t dest, uint32_t length);

}  // namespace mt::noc
