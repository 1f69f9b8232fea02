#include "flit/flit.hpp"

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
         eject == o.eject && tree == o.tree && op == o.op && addr == o.addr &&
         message_bytes == o.message_bytes && offset == o.offset && data == o.data && packet == o.packet &&
         index == o.index && length == o.length && injected == o.injected;
}

std::string Flit::str() const {
  return fmt::format("{} vc {} packet {} flit {}/{} src {} dest {} next {} eject {} tree {}",
                     flit_type_name(type), vc, packet, index, length, src, dest, port_name(next),
                     port_name(eject), tree);
}

}  // namespace mt::noc
