#include "flit/flit.hpp"

#include <stdexcept>

#include <fmt/format.h>

namespace mt::noc {

const char* flit_type_name(FlitType t) {
  switch (t) {
    case FlitType::kHead: return "head";
    case FlitType::kBody: return "body";
    case FlitType::kTail: return "tail";
    case FlitType::kHeadTail: return "head&tail";
    case FlitType::kSubHead: return "sub-head";
    case FlitType::kSubBody: return "sub-body";
    case FlitType::kSubTail: return "sub-tail";
    case FlitType::kSubMessageTail: return "tail";
  }
  return "?";
}

const char* port_name(uint8_t p) {
  static const char* names[] = {"local", "y-", "y+", "x-", "x+", "local1", "local2", "local3"};
  return p < kMaxPorts ? names[p] : "?";
}

bool Flit::operator==(const Flit& o) const {
  return type == o.type && vc == o.vc && dest == o.dest && src == o.src && next == o.next &&
         eject == o.eject && route == o.route && tree == o.tree && op == o.op && addr == o.addr &&
         message_bytes == o.message_bytes && packet_bytes == o.packet_bytes && data == o.data && packet == o.packet &&
         index == o.index && length == o.length;
}

std::string Flit::str() const {
  std::string s = fmt::format("{} vc {} packet {} flit {}/{} src {} dest {} next {} eject {} tree {}",
                     flit_type_name(type), vc, packet, index, length, src, dest, port_name(next),
                     port_name(eject), tree);
  if (route != 0) s += fmt::format(" route {:#x}", route);
  return s;
}

void throw_head_field_too_wide(const format::BitField& f, uint64_t v) {
  throw std::invalid_argument(fmt::format("flit head field {} = {} does not fit its {} bits",
                                          f.name, v, f.bits));
}

namespace {

namespace ff = format::flit;

void put(FlitData& d, const format::BitField& f, uint64_t v) {
  if (f.bits < 64 && (v >> f.bits) != 0) throw_head_field_too_wide(f, v);
  for (uint32_t i = 0; i < f.bits; ++i) {
    const uint32_t b = f.lsb + i;
    if ((v >> i) & 1u) d[b / 32] |= 1u << (b % 32);
  }
}

uint64_t get(const FlitData& d, const format::BitField& f) {
  uint64_t v = 0;
  for (uint32_t i = 0; i < f.bits; ++i) {
    const uint32_t b = f.lsb + i;
    v |= uint64_t{(d[b / 32] >> (b % 32)) & 1u} << i;
  }
  return v;
}

static_assert(ff::kDataBits == 32 * std::tuple_size<FlitData>::value, "four words of data");
static_assert(ff::kRouteBits == ff::kHeadRouteLo.bits + ff::kHeadRouteHi.bits,
              "a source route fills its two head fields");
static_assert(ff::kPayloadBytes == sizeof(FlitData), "a payload fills the data bits");

}  // namespace

WireFlit pack(const Flit& f, SubHeadLayout layout) {
  WireFlit w;
  w.type = f.type;
  w.vc = f.vc;
  if (!is_head(f.type)) {
    w.data = f.data;
    return w;
  }
  put(w.data, ff::kHeadOp, f.op);
  put(w.data, ff::kHeadTree, f.tree);
  if (is_subpacket(f.type) && layout == SubHeadLayout::kRouted) {
    put(w.data, ff::kHeadRouteLo, f.route & ((1u << ff::kHeadRouteLo.bits) - 1));
    put(w.data, ff::kHeadRouteHi, f.route >> ff::kHeadRouteLo.bits);
    put(w.data, ff::kHeadSrc, f.src);
  } else if (is_subpacket(f.type)) {
    put(w.data, ff::kHeadNext, f.next);
    put(w.data, ff::kHeadEject, f.eject);
  } else {
    put(w.data, ff::kHeadDest, f.dest);
    put(w.data, ff::kHeadSrc, f.src);
    put(w.data, ff::kHeadPacketBytes, f.packet_bytes);
  }
  put(w.data, ff::kHeadAddr, f.addr);
  put(w.data, ff::kHeadMessageBytes, f.message_bytes);
  return w;
}

Flit unpack(const WireFlit& w, SubHeadLayout layout) {
  Flit f;
  f.type = w.type;
  f.vc = w.vc;
  if (!is_head(w.type)) {
    f.data = w.data;
    return f;
  }
  f.op = static_cast<uint8_t>(get(w.data, ff::kHeadOp));
  f.tree = static_cast<uint16_t>(get(w.data, ff::kHeadTree));
  if (is_subpacket(w.type) && layout == SubHeadLayout::kRouted) {
    f.route = static_cast<uint32_t>(get(w.data, ff::kHeadRouteLo) |
                                    get(w.data, ff::kHeadRouteHi) << ff::kHeadRouteLo.bits);
    f.src = static_cast<uint16_t>(get(w.data, ff::kHeadSrc));
  } else if (is_subpacket(w.type)) {
    f.set_next(static_cast<uint32_t>(get(w.data, ff::kHeadNext)));
    f.set_eject(static_cast<uint32_t>(get(w.data, ff::kHeadEject)));
  } else {
    f.dest = static_cast<uint16_t>(get(w.data, ff::kHeadDest));
    f.src = static_cast<uint16_t>(get(w.data, ff::kHeadSrc));
    f.packet_bytes = static_cast<uint16_t>(get(w.data, ff::kHeadPacketBytes));
  }
  f.addr = get(w.data, ff::kHeadAddr);
  f.message_bytes = get(w.data, ff::kHeadMessageBytes);
  return f;
}

}  // namespace mt::noc
