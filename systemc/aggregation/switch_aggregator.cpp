#include "aggregation/switch_aggregator.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "common/error.hpp"

namespace mt::noc {

SwitchAggregator::SwitchAggregator(uint32_t vertex, std::vector<AggregationEntry> entries,
                                   const AggregationConfig& cfg, OutputSharing sharing,
                                   uint32_t lanes, uint32_t vcs, uint32_t vc_depth,
                                   uint32_t subpacket_flits, const RouteHopCode& hops)
    : vertex_(vertex), cfg_(cfg), sharing_(sharing), vcs_(vcs),
      subpacket_flits_(subpacket_flits), hops_(&hops) {
  cfg.validate();
  validate_aggregation_table(vertex, entries, vcs, sharing);
  if (lanes == 0 || lanes > vcs) {
    throw InputError(
        fmt::format("switch {}: {} aggregation lanes with {} VCs", vertex, lanes, vcs));
  }
  for (const AggregationEntry& e : entries) {
    for (uint8_t p : e.child_ports) out_ports_.push_back(p);
    if (e.parent_port != kNoAggregationParent) out_ports_.push_back(e.parent_port);
  }
  std::sort(out_ports_.begin(), out_ports_.end());
  out_ports_.erase(std::unique(out_ports_.begin(), out_ports_.end()), out_ports_.end());
  for (uint8_t p : out_ports_) {
    if (hops.link_of(p) == RouteHopCode::kNoLink) {
      throw InputError(fmt::format("switch {}: aggregation port {} is not one of its links",
                                   vertex, p));
    }
  }
  for (AggregationEntry& e : entries) {
    const uint32_t children = static_cast<uint32_t>(e.child_ports.size());
    FlowState s(e, AggregationWindow(children, cfg.window, cfg.dtype));
    s.index = static_cast<uint32_t>(flows_.size());
    s.vc = sharing == OutputSharing::kFlowOrder ? s.index % lanes : s.index;
    s.due.assign(cfg.window, 0);
    s.taken.assign(children, 0);
    s.child_open.assign(children, false);
    add_streams(s);
    flow_index_[e.flow] = s.index;
    flows_.push_back(std::move(s));
  }
  room_.assign(out_ports_.size() * vcs, vc_depth);
  if (sharing_ == OutputSharing::kFlowOrder) order_streams();
}

void SwitchAggregator::add_streams(FlowState& s) {
  const AggregationEntry& e = s.entry;
  const uint32_t children = static_cast<uint32_t>(e.child_ports.size());
  if (e.parent_port == kNoAggregationParent) {
    for (uint32_t c = 0; c < children; ++c) {
      s.results.push_back({vport_of(e.child_ports[c]), e.child_labels[c], Op::kGather, 0, Flit{}});
    }
    return;
  }
  s.results.push_back({vport_of(e.parent_port), vertex_, Op::kReduce, 0, Flit{}});
  for (uint32_t c = 0; c < children; ++c) {
    s.copies.push_back({vport_of(e.child_ports[c]), e.child_labels[c], Op::kGather, 0, Flit{}});
  }
}

void SwitchAggregator::order_streams() {
  order_.assign(out_ports_.size() * vcs_, {});
  turn_.assign(order_.size(), 0);
  for (const FlowState& s : flows_) {
    for (const OutStream& o : s.results) order_[o.vport * vcs_ + s.vc].push_back(s.index);
    for (const OutStream& o : s.copies) order_[o.vport * vcs_ + s.vc].push_back(s.index);
  }
  for (std::vector<uint32_t>& order : order_) {
    std::sort(order.begin(), order.end(), [this](uint32_t a, uint32_t b) {
      return flows_[a].entry.flow < flows_[b].entry.flow;
    });
  }
}

unsigned SwitchAggregator::vport_of(uint8_t port) const {
  const auto it = std::lower_bound(out_ports_.begin(), out_ports_.end(), port);
  return static_cast<unsigned>(it - out_ports_.begin());
}

void SwitchAggregator::fail(const std::string& what) const {
  throw std::runtime_error(fmt::format("switch {} aggregation: {}", vertex_, what));
}

bool SwitchAggregator::take(unsigned port, unsigned vc, const Flit& flit, uint64_t now) {
  const size_t i = size_t{port} * vcs_ + vc;
  if (i >= inputs_.size()) inputs_.resize(i + 1);
  InputContext& c = inputs_[i];
  if (is_head(flit.type)) return take_head(c, port, flit);
  if (!c.open) fail(fmt::format("a {} flit with no open message: {}", flit_type_name(flit.type),
                                flit.str()));
  FlowState& s = flows_[c.flow];
  const bool taken = c.child == kFromParent ? take_parent_data(s, flit)
                                            : take_child_data(s, c, flit, now);
  if (taken && is_tail(flit.type)) c.open = false;
  return taken;
}

bool SwitchAggregator::take_head(InputContext& c, unsigned port, const Flit& flit) {
  if (c.open) fail("a head flit inside an open message: " + flit.str());
  const uint32_t f = flow_index_.at(flit.tree);
  FlowState& s = flows_[f];
  const AggregationEntry& e = s.entry;
  const Op op = static_cast<Op>(flit.op);
  const auto child = std::find(e.child_ports.begin(), e.child_ports.end(), port);
  if (op == Op::kGather && port == e.parent_port) {
    if (s.down_open) fail(fmt::format("a second Gather of flow {} from the parent", e.flow));
    c.child = kFromParent;
    s.down_open = true;
  } else if (op == Op::kReduce && child != e.child_ports.end()) {
    c.child = static_cast<uint32_t>(child - e.child_ports.begin());
    if (s.child_open[c.child]) fail(fmt::format("a second Reduce of flow {} on port {}", e.flow, port));
    s.child_open[c.child] = true;
  } else {
    fail(fmt::format("a {} of flow {} arrived on port {}, which is neither one of its "
                     "children's nor, for a Gather, its parent's: {}", op_name(op), e.flow, port,
                     flit.str()));
  }
  if (!s.known) {
    s.known = true;
    s.addr = flit.addr;
    s.bytes = flit.message_bytes;
    s.payload = std::max<uint64_t>(1, (s.bytes + format::flit::kPayloadBytes - 1) / format::flit::kPayloadBytes);
  } else if (s.addr != flit.addr || s.bytes != flit.message_bytes) {
    fail(fmt::format("flow {}: messages of bytes [{}, +{}) and [{}, +{}) meet", e.flow, s.addr,
                     s.bytes, flit.addr, flit.message_bytes));
  }
  c.flow = f;
  c.open = true;
  return true;
}

bool SwitchAggregator::take_child_data(FlowState& s, InputContext& c, const Flit& flit,
                                       uint64_t now) {
  const uint64_t seq = s.taken[c.child];
  if (seq >= s.payload) fail(fmt::format("flow {}: a message longer than its {} bytes",
                                         s.entry.flow, s.bytes));
  if (!s.window.can_accept(c.child, seq)) return false;  // the window is full: back-pressure
  const bool add = s.window.arrivals(seq) != 0;
  if (add) {
    if (adds_cycle_ != now) {
      adds_cycle_ = now;
      adds_left_ = cfg_.elements_per_cycle / 4;
    }
    if (adds_left_ == 0) return false;
    --adds_left_;
  }
  s.window.accept(c.child, seq, flit.data);
  ++s.taken[c.child];
  if (s.window.complete(seq)) s.due[seq % s.due.size()] = now + cfg_.latency;
  return true;
}

bool SwitchAggregator::take_parent_data(FlowState& s, const Flit& flit) {
  if (s.down_taken >= s.payload) fail(fmt::format("flow {}: a Gather longer than its {} bytes",
                                                  s.entry.flow, s.bytes));
  if (!room(s, s.copies)) return false;
  ++s.down_taken;
  send(s, s.copies, flit.data);
  return true;
}

bool SwitchAggregator::room(const FlowState& s, const std::vector<OutStream>& outs) const {
  for (const OutStream& o : outs) {
    const uint32_t need = o.sent == 0 ? 2 : 1;
    const size_t vvc = size_t{o.vport} * vcs_ + s.vc;
    if (room_[vvc] < need) return false;
    if (sharing_ == OutputSharing::kFlowOrder) {
      const std::vector<uint32_t>& order = order_[vvc];
      const uint32_t turn = turn_[vvc];
      if (turn >= order.size() || order[turn] != s.index) return false;
    }
  }
  return true;
}

Flit SwitchAggregator::head_of(const FlowState& s, const OutStream& o) const {
  Flit h;
  h.type = FlitType::kSubHead;
  h.op = static_cast<uint8_t>(o.op);
  h.tree = head_field<uint16_t>(s.entry.flow, format::flit::kHeadTree);
  h.src = head_field<uint16_t>(o.src, format::flit::kHeadSrc);
  h.route = encode_source_route({{out_ports_[o.vport], hops_}},
                                fmt::format("switch {}'s aggregation hop", vertex_));
  h.addr = s.addr;
  h.message_bytes = s.bytes;
  return h;
}

void SwitchAggregator::send(FlowState& s, std::vector<OutStream>& outs, const FlitData& data) {
  const uint64_t n = 1 + s.payload;  // flits of each message
  for (OutStream& o : outs) {
    if (o.sent == 0) {
      o.proto = head_of(s, o);
      o.proto.packet = (uint64_t{1} << 62) | (uint64_t{vertex_} << 32) |
                       (s.index * out_ports_.size() + o.vport);
      o.proto.length = static_cast<uint32_t>(n);
      pending_.push_back({o.vport, s.vc, o.proto});
      --room_[o.vport * vcs_ + s.vc];
      o.sent = 1;
    }
    pending_.push_back({o.vport, s.vc, o.proto});
    Flit& f = pending_.back().flit;
    f.index = static_cast<uint32_t>(o.sent);
    f.type = o.sent + 1 == n                      ? FlitType::kSubMessageTail
             : (o.sent + 1) % subpacket_flits_ == 0 ? FlitType::kSubTail
                                                    : FlitType::kSubBody;
    f.data = data;
    --room_[o.vport * vcs_ + s.vc];
    ++o.sent;
    if (o.sent == n && sharing_ == OutputSharing::kFlowOrder) ++turn_[o.vport * vcs_ + s.vc];
  }
}

uint64_t SwitchAggregator::next_due(uint64_t now) const {
  uint64_t next = kNever;
  for (const FlowState& s : flows_) {
    if (!s.window.front_complete()) continue;
    const uint64_t due = s.due[s.window.base() % s.due.size()];
    if (due > now) next = std::min(next, due);
  }
  return next;
}

uint64_t SwitchAggregator::pending() const {
  uint64_t n = 0;
  for (const FlowState& s : flows_) {
    n += s.window.occupied();
    for (const OutStream& o : s.results) n += o.sent != 0 && o.sent < 1 + s.payload;
    for (const OutStream& o : s.copies) n += o.sent != 0 && o.sent < 1 + s.payload;
  }
  return n;
}

std::string SwitchAggregator::state_report() const {
  std::string r;
  for (const FlowState& s : flows_) {
    r += fmt::format("switch {} aggregation flow {}: window [{}, {}) with {} slot(s) in use",
                     vertex_, s.entry.flow, s.window.base(), s.window.base() + s.window.slots(),
                     s.window.occupied());
    for (size_t c = 0; c < s.taken.size(); ++c) {
      r += fmt::format(", child {} (port {}) {} flit(s)", c, s.entry.child_ports[c], s.taken[c]);
    }
    r += '\n';
  }
  return r;
}

void SwitchAggregator::accept_credit(unsigned port, uint8_t vc, uint64_t) {
  ++room_.at(size_t{port} * vcs_ + vc);
}

void SwitchAggregator::accept_flit(unsigned, const Flit& flit, uint8_t, uint64_t) {
  fail("the aggregation unit receives no flits over a link: " + flit.str());
}

}  // namespace mt::noc
