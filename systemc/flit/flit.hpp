// Flits: the 128-bit unit that crosses a link in one cycle (DESIGN.md, paper §IV-B, Table II,
// Fig. 8). The model keeps the fields unpacked; pack()/unpack() give the wire format.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "ni_formats.hpp"

namespace mt::noc {

// Table II type codes (3 bits), from format/ni_formats.json.
enum class FlitType : uint8_t {
  kHead = format::flit_type::kHead,          // normal packet
  kBody = format::flit_type::kBody,
  kTail = format::flit_type::kTail,
  kHeadTail = format::flit_type::kHeadTail,
  kSubHead = format::flit_type::kSubHead,    // all-reduce message: its only head flit
  kSubBody = format::flit_type::kSubBody,
  kSubTail = format::flit_type::kSubTail,    // ends a sub-packet (not the message)
  kSubMessageTail = format::flit_type::kSubMessageTail,  // ends the last sub-packet and the
                                                         // message (Table II "Tail")
};

constexpr bool is_head(FlitType t) {
  return t == FlitType::kHead || t == FlitType::kHeadTail || t == FlitType::kSubHead;
}
// The flit that releases the VC: end of a packet or of a whole all-reduce message.
constexpr bool is_tail(FlitType t) {
  return t == FlitType::kTail || t == FlitType::kHeadTail || t == FlitType::kSubMessageTail;
}
constexpr bool is_subpacket(FlitType t) { return (static_cast<uint8_t>(t) & 0b100) != 0; }
const char* flit_type_name(FlitType t);

// Router port codes of a 2D network (the 3-bit Next/Eject fields). A router has NI ports
// (injection/ejection pairs) 0..ni_ports-1 (NocConfig) and a direction port per neighbour.
// Local port 0 keeps code 0 and local ports 1..3 take the spare codes 5..7, so a network with
// one NI port per router uses only codes 0..4.
enum Port : uint8_t { kPortLocal = format::port::kLocal, kPortYMinus = format::port::kYMinus,
                      kPortYPlus = format::port::kYPlus, kPortXMinus = format::port::kXMinus,
                      kPortXPlus = format::port::kXPlus,
                      kPorts = 5 };  // codes of local port 0 and the directions (1..kPorts-1)
static_assert(format::port::kLocal1 == kPorts && format::port::kLocal3 == kPorts + 2,
              "local ports 1..3 take the codes after the directions");
constexpr uint8_t kMaxPorts = 8;     // every code: size of arrays indexed by port
constexpr uint32_t kMaxLocalPorts = 4;
// The code of local port i (0..3).
constexpr uint8_t local_port(uint32_t i) {
  return static_cast<uint8_t>(i == 0 ? 0u : 4u + i);
}
constexpr bool is_local_port(uint8_t p) {
  return p == kPortLocal || (p >= kPorts && p < kMaxPorts);
}
// Which local port code p is (p must be one).
constexpr uint32_t local_index(uint8_t p) { return p == kPortLocal ? 0u : p - 4u; }
// "local", "y-", "y+", "x-", "x+", "local1", "local2", "local3"; "?" for other codes.
const char* port_name(uint8_t p);

[[noreturn]] void throw_head_field_too_wide(const format::BitField& f, uint64_t v);
// A head field's value in the width the wire gives it (format/ni_formats.json). Throws
// std::invalid_argument naming the field when the value does not fit: the NI cannot send it.
template <typename T>
T head_field(uint64_t v, const format::BitField& f);

// The model keeps a flit's fields unpacked, each in the smallest C++ type that holds its wire
// width, so that a flit is one 64-byte cache line: every buffer of the network holds flits,
// and their bytes are what the simulator moves (a flit passes some six FIFOs).
struct Flit {
  FlitType type = FlitType::kHeadTail;
  uint8_t vc = 0;          // virtual channel on the link it travels (2 bits on the wire)
  // Head flits, all-reduce messages: Route Info = Next, Eject (source routing; the source
  // router swaps them after route computation) and Tree Info = Tree ID. Port codes are 3 bits
  // (bit-fields: zeroed by the constructor).
  uint8_t next : format::flit::kPortBits;
  uint8_t eject : format::flit::kPortBits;
  uint8_t op = 0;          // mt::Op of the message (0: not all-reduce data); see below
  uint16_t tree = 0;
  // Head flits, normal packets: Route Info = Dest, Src (dimension-order routing).
  uint16_t dest = 0;
  uint16_t src = 0;
  // Head flits of both kinds, all-reduce data (this model's use of the spare Packet Info
  // bits, systemc/ni/README.md): which operation (op), a packet's own payload bytes (0 for a
  // message; 14 bits on the wire, which pack() checks), the byte address of the payload that
  // follows (a message's or a packet's) and the bytes of the whole gradient message it
  // belongs to. addr and message_bytes are 32 bits on the wire, but the model runs an image's
  // wider fields too (IMAGE_FORMAT.md addr_bits and size_bits), so it keeps 64.
  uint16_t packet_bytes = 0;
  // Head flits, all-reduce messages on a switch network: the source route (the output port
  // at each router still ahead, flit/source_route.hpp) in place of Next and Eject, and Src.
  uint32_t route = 0;
  uint64_t addr = 0;
  uint64_t message_bytes = 0;
  // Body/tail payload: 16 bytes on the wire minus the 8 header bits; the model carries the
  // data words the NI puts in.
  std::array<uint32_t, 4> data{};
  // Bookkeeping, not on the wire: for statistics, scoreboards and traces (the cycle a packet
  // was offered is its PacketLog record's, not carried by every flit).
  uint64_t packet = 0;     // unique id of the packet or message
  uint32_t index = 0;      // flit number within it
  uint32_t length = 0;     // flits in the packet (0: unknown, e.g. an open-ended message)

  Flit() : next(0), eject(0) {}
  // Next and Eject from a port code (throws if it needs more than their 3 bits).
  void set_next(uint32_t port) { next = head_field<uint8_t>(port, format::flit::kHeadNext) & 0x7u; }
  void set_eject(uint32_t port) {
    eject = head_field<uint8_t>(port, format::flit::kHeadEject) & 0x7u;
  }

  // tlm_utils::simple_target_socket always compiles its b_transport -> nb_transport adapter,
  // which calls the generic payload's memory-manager API. Flits never take that path (no
  // blocking transport; receivers copy them), so these only make the sockets compile.
  bool has_mm() const { return false; }
  void set_mm(void*) {}
  template <typename Extension>
  Extension* set_auto_extension(Extension*) { return nullptr; }
  void acquire() {}
  void release() {}
  int get_ref_count() const { return 0; }

  bool operator==(const Flit& o) const;
  std::string str() const;
};
// Every buffer of the network holds flits, so their size is the simulator's memory traffic:
// 64 bytes, one cache line (was 88: 32-bit tree, dest and src, 64-bit packet_bytes, a 64-bit
// offered cycle).
static_assert(sizeof(Flit) == 64, "Flit has padding or grew: keep its fields packed");
static_assert(format::flit::kHeadTree.bits <= 16 && format::flit::kHeadDest.bits <= 16 &&
                  format::flit::kHeadSrc.bits <= 16 && format::flit::kHeadPacketBytes.bits <= 16 &&
                  format::flit::kHeadOp.bits <= 8 &&
                  format::flit::kHeadNext.bits == format::flit::kPortBits &&
                  format::flit::kHeadEject.bits == format::flit::kPortBits &&
                  format::flit::kHeadRouteLo.bits + format::flit::kHeadRouteHi.bits <= 32,
              "Flit's field types hold the wire widths of format/ni_formats.json");

template <typename T>
T head_field(uint64_t v, const format::BitField& f) {
  if (f.bits < 64 && (v >> f.bits) != 0) throw_head_field_too_wide(f, v);
  return static_cast<T>(v);
}

// The wire form of a flit (format/ni_formats.json): 128 data bits as four 32-bit words, word 0
// holding bits 31..0, with the VC and Type beside them. A head flit's data bits are its
// Packet Info fields (normal heads: op, tree, dest, src, addr, message_bytes, packet_bytes;
// sub-heads: op, tree, next, eject, addr, message_bytes); a body or tail flit's are its
// payload. The RTL NI's flit ports carry exactly these bits.
using FlitData = std::array<uint32_t, 4>;
struct WireFlit {
  FlitType type = FlitType::kHeadTail;
  uint8_t vc = 0;
  FlitData data{};
  bool operator==(const WireFlit& o) const {
    return type == o.type && vc == o.vc && data == o.data;
  }
};
// A sub-head's layout: Next and Eject on a grid; Route and Src on a switch network
// (format/README.md). The wire does not tell them apart; the network does.
enum class SubHeadLayout : uint8_t { kGrid, kRouted };
// Throws std::invalid_argument naming the field when a head field does not fit its width.
WireFlit pack(const Flit& f, SubHeadLayout layout = SubHeadLayout::kGrid);
// The wire fields of a flit; bookkeeping (packet, index, length, injected) stays zero.
Flit unpack(const WireFlit& w, SubHeadLayout layout = SubHeadLayout::kGrid);

}  // namespace mt::noc
