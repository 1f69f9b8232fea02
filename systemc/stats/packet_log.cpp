#include "stats/packet_log.hpp"

#include <stdexcept>

#include <fmt/format.h>

namespace mt::noc {

PacketLog::PacketLog(uint32_t nodes, uint64_t window_begin, uint64_t window_end)
    : nodes_(nodes),
      begin_(window_begin),
      end_(window_end),
      by_src_(nodes),
      created_to_(nodes),
      ejected_at_(nodes),
      window_to_(nodes),
      window_at_(nodes),
      window_from_(nodes) {}

uint64_t PacketLog::create(uint32_t src, uint32_t dest, uint32_t length, uint64_t cycle) {
  std::vector<PacketRecord>& v = by_src_.at(src);
  const uint64_t id = static_cast<uint64_t>(v.size()) * nodes_ + src;
  PacketRecord r;
  r.src = src;
  r.dest = dest;
  r.length = length;
  r.created = cycle;
  v.push_back(r);
  ++created_;
  flits_created_ += length;
  created_to_.at(dest) += length;
  if (in_window(cycle)) {
    ++measured_created_;
    flits_created_in_window_ += length;
    window_to_[dest] += length;
  }
  return id;
}

bool PacketLog::known(uint64_t id) const {
  const uint64_t src = id % nodes_, seq = id / nodes_;
  return seq < by_src_[src].size();
}

const PacketRecord& PacketLog::record(uint64_t id) const {
  if (!known(id)) throw std::out_of_range(fmt::format("no packet {}", id));
  return by_src_[id % nodes_][id / nodes_];
}

PacketRecord* PacketLog::find(uint64_t id) {
  return known(id) ? &by_src_[id % nodes_][id / nodes_] : nullptr;
}

std::vector<uint64_t> PacketLog::flits_in_system_by_dest() const {
  std::vector<uint64_t> v(nodes_);
  for (uint32_t d = 0; d < nodes_; ++d) v[d] = created_to_[d] - ejected_at_[d];
  return v;
}

void PacketLog::head_sent(uint64_t id, uint64_t cycle) {
  PacketRecord* r = find(id);
  if (r == nullptr || r->head_sent != PacketRecord::kNever) {
    error(fmt::format("packet {}: head sent twice or unknown", id));
    return;
  }
  r->head_sent = cycle;
  ++heads_sent_;
}

std::array<uint32_t, 4> PacketLog::payload(uint64_t id, uint32_t index) {
  return {static_cast<uint32_t>(id), static_cast<uint32_t>(id >> 32), index,
          static_cast<uint32_t>(id * 0x9e3779b9u) ^ index};
}

void PacketLog::arrive(const Flit& flit, uint32_t node, uint64_t cycle) {
  if (in_window(cycle)) {
    ++flits_ejected_in_window_;
    ++window_at_.at(node);
    if (flit.src < nodes_) ++window_from_[flit.src];
  }
  ++flits_ejected_;
  ++ejected_at_.at(node);
  PacketRecord* r = find(flit.packet);
  if (r == nullptr) {
    error(fmt::format("node {} cycle {}: flit of unknown packet: {}", node, cycle, flit.str()));
    return;
  }
  if (r->dest != node || flit.dest != node) {
    error(fmt::format("node {} cycle {}: packet {} for node {} arrived here", node, cycle,
                      flit.packet, r->dest));
  }
  if (flit.index != r->flits_arrived || r->arrived != PacketRecord::kNever) {
    error(fmt::format("node {} cycle {}: packet {} flit {} arrived after {} of its flits", node,
                      cycle, flit.packet, flit.index, r->flits_arrived));
  }
  if (flit.data != payload(flit.packet, flit.index) || flit.src != r->src ||
      flit.length != r->length) {
    error(fmt::format("node {} cycle {}: corrupted flit {}", node, cycle, flit.str()));
  }
  if (r->head_sent == PacketRecord::kNever || cycle <= r->head_sent) {
    error(fmt::format("node {} cycle {}: packet {} arrived before its head was sent", node, cycle,
                      flit.packet));
  }
  ++r->flits_arrived;
  if (r->flits_arrived < r->length) {
    if (is_tail(flit.type)) {
      error(fmt::format("node {} cycle {}: packet {} ended after {} of {} flits", node, cycle,
                        flit.packet, r->flits_arrived, r->length));
    }
    return;
  }
  if (!is_tail(flit.type)) {
    error(fmt::format("node {} cycle {}: packet {} flit {} should be a tail", node, cycle,
                      flit.packet, flit.index));
  }
  if (r->arrived != PacketRecord::kNever) return;
  r->arrived = cycle;
  if (in_window(r->created)) {
    ++measured_arrived_;
    if (drained() && on_drained_) on_drained_();
  }
}

void PacketLog::for_each(const std::function<void(uint64_t, const PacketRecord&)>& f) const {
  for (uint32_t src = 0; src < nodes_; ++src) {
    for (uint64_t seq = 0; seq < by_src_[src].size(); ++seq) f(seq * nodes_ + src, by_src_[src][seq]);
  }
}

void PacketLog::close_window(std::function<void()> on_drained) {
  closed_ = true;
  on_drained_ = std::move(on_drained);
  if (drained() && on_drained_) on_drained_();
}

void PacketLog::error(std::string what) {
  ++error_count_;
  if (errors_.size() < 20) errors_.push_back(std::move(what));
}

}  // namespace mt::noc
