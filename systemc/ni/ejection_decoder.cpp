#include "ni/ejection_decoder.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "router/router.hpp"

namespace mt::noc {

uint8_t opposite_port(uint8_t p) {
  switch (p) {
    case kPortYMinus: return kPortYPlus;
    case kPortYPlus: return kPortYMinus;
    case kPortXMinus: return kPortXPlus;
    case kPortXPlus: return kPortXMinus;
    default: return p;
  }
}

EjectionDecoder::EjectionDecoder(sc_core::sc_module_name name, uint32_t node,
                                 const std::array<uint32_t, kPorts>& neighbour,
                                 const NocConfig& noc, uint32_t packet_messages,
                                 bool sender_in_head)
    : sc_module(name),
      node_(node),
      neighbour_(neighbour),
      sender_in_head_(sender_in_head),
      vcs_(noc.vcs),
      contexts_(static_cast<size_t>(noc.ni_ports) * noc.vcs),
      port_packet_messages_(noc.ni_ports, 0),
      packet_messages_bound_(packet_messages) {}

size_t EjectionDecoder::open_messages() const { return open_messages_; }

void EjectionDecoder::fail(const Flit& f, uint32_t port_index, const char* what) const {
  throw std::runtime_error(fmt::format("NI {}: ejection port {}: {}: {}", node_, port_index,
                                       what, f.str()));
}

bool EjectionDecoder::consume(const Flit& f, uint32_t port_index, ReceivedBlock& block,
                              const TakeSlot& take_slot) {
  if (f.vc >= vcs_ || static_cast<size_t>(port_index) * vcs_ + f.vc >= contexts_.size()) {
    fail(f, port_index, "no such ejection port or VC");
  }
  Context& c = contexts_[static_cast<size_t>(port_index) * vcs_ + f.vc];
  if (is_head(f.type)) {
    if (c.open) fail(f, port_index, "a head flit inside an open message or packet");
    if (f.op != static_cast<uint8_t>(Op::kReduce) && !writes(static_cast<Op>(f.op))) {
      fail(f, port_index, "a head flit that carries no all-reduce operation");
    }
    // Who sent it, checked before the context changes.
    uint32_t sender = f.src;
    if (is_subpacket(f.type) && sender_in_head_) {
      if (f.src == node_) fail(f, port_index, "a message from this node to itself");
    } else if (is_subpacket(f.type)) {
      const uint8_t from = opposite_port(f.eject);
      if (from == kPortLocal || from >= kPorts || neighbour_[from] == Router::kNoNeighbour) {
        fail(f, port_index, "its Eject field names no link into this router");
      }
      sender = neighbour_[from];
    } else if (f.packet_bytes > f.message_bytes) {
      fail(f, port_index, "a packet larger than its message");
    }
    if (f.addr % kFlitPayloadBytes != 0) {
      fail(f, port_index, "a head whose address is not a multiple of a flit's payload");
    }
    c.open = true;
    c.message = is_subpacket(f.type);
    c.op = static_cast<Op>(f.op);
    c.flow = f.tree;
    c.addr = f.addr;
    c.message_bytes = f.message_bytes;
    c.sender = sender;
    c.data.clear();
    if (c.message) {
      c.left = f.message_bytes;
      ++open_messages_;
    } else {
      c.left = f.packet_bytes;
      const auto [it, fresh] =
          packet_messages_.try_emplace(key(c.op, c.flow, c.sender), PacketMessage{0, port_index});
      if (fresh) {
        ++open_messages_;
        const size_t open = ++port_packet_messages_[port_index];
        peak_packet_messages_ = std::max(peak_packet_messages_, open);
        if (open > packet_messages_bound_) {
          throw NiRunError(fmt::format(
              "NI {}: ejection port {}: {} packet-mode messages open at once, more than the "
              "RTL's {} (NiConfig::packet_messages): {}", node_, port_index, open,
              packet_messages_bound_, f.str()));
        }
      }
    }
    return false;
  }
  if (!c.open) fail(f, port_index, "a body or tail flit with no open message or packet");
  if (is_subpacket(f.type) != c.message) fail(f, port_index, "a flit of the wrong kind");
  if (!c.has_slot) {  // the block's first payload flit
    c.slot = take_slot ? take_slot(port_index, c.op, c.flow, c.sender) : 0;
    c.has_slot = true;
  }
  const uint64_t n = std::min<uint64_t>(kFlitPayloadBytes, c.left);
  const auto* bytes = reinterpret_cast<const uint8_t*>(f.data.data());
  c.data.insert(c.data.end(), bytes, bytes + n);
  c.left -= n;
  const bool tail = is_tail(f.type);
  // Only the tail carries a message's or a packet's last byte (so every other flit is full).
  if (!tail && c.left == 0) {
    fail(f, port_index,
         c.message ? "a message longer than its size" : "a packet longer than its size");
  }
  // A block ends at the message's or packet's end and at every line's end.
  if (!tail && (c.addr + c.data.size()) % format::flit::kLineBytes != 0) return false;
  block.op = c.op;
  block.flow = c.flow;
  block.sender = c.sender;
  block.addr = c.addr;
  block.slot = c.slot;
  c.has_slot = false;
  block.data.swap(c.data);
  c.data.clear();
  c.addr += block.data.size();
  if (c.message) {
    if (tail && c.left != 0) fail(f, port_index, "a message tail before the message's last byte");
    block.message_done = tail;
    if (tail) --open_messages_;
  } else {
    if (tail && c.left != 0) fail(f, port_index, "a packet shorter than its payload");
    const auto it = packet_messages_.find(key(c.op, c.flow, c.sender));
    it->second.bytes += block.data.size();
    block.message_done = it->second.bytes >= c.message_bytes;
    if (block.message_done) {
      --port_packet_messages_[it->second.port];
      packet_messages_.erase(it);
      --open_messages_;
    }
  }
  if (tail) c.open = false;
  return true;
}

}  // namespace mt::noc
