// The router's side of in-network aggregation (router.hpp, "Aggregation"): the unit's virtual
// input ports, and the stage that hands it claimed flits and takes its results.
#include <algorithm>

#include <fmt/format.h>

#include "common/error.hpp"
#include "router/router.hpp"

namespace mt::noc {

void Router::attach_aggregator(std::unique_ptr<SwitchAggregator> unit) {
  if (!is_switch()) {
    throw InputError(fmt::format("{}: aggregation units belong to switches", name()));
  }
  if (aggregator_) throw InputError(fmt::format("{}: has an aggregation unit already", name()));
  const size_t virtual_ports = unit->out_ports().size();
  const size_t n = real_ports_ + virtual_ports;
  if (n > max_router_ports(vcs_)) {
    throw InputError(fmt::format("{}: {} ports and {} aggregation outputs, more than the {} a "
                                 "router with {} VCs supports", name(), real_ports_,
                                 virtual_ports, max_router_ports(vcs_), vcs_));
  }
  // A virtual port leads to the switch itself: no link, no socket, class-0 VCs at RC.
  neighbour_.resize(n, node_);
  eject_port_.resize(n, kMaxRouterPorts);
  port_links_.resize(n);
  in_.resize(n);
  out_.resize(n);
  for (size_t j = 0; j < virtual_ports; ++j) {
    // The grant of a virtual port's flit hands its credit back to the unit, at once.
    port_links_[real_ports_ + j].prev = {unit.get(), static_cast<unsigned>(j), clock_.period()};
  }
  ivcs_.resize(n * vcs_);
  ovcs_.resize(n * vcs_);
  for (size_t i = real_ports_ * vcs_; i < ovcs_.size(); ++i) ovcs_[i].credits = cfg_.vc_depth;
  flits_in_.resize(ivcs_.size(), 0);
  va_in_ptr_.resize(ivcs_.size(), 0);
  va_out_ptr_.resize(ovcs_.size(), 0);
  sa_in_ptr_.resize(n, 0);
  sa_out_ptr_.resize(n, 0);
  send_cycles_.resize(n * send_slots_, 0);
  credits_in_.resize(n);
  va_parking_.resize(n);
  flits_out_.resize(n, 0);
  aggregator_ = std::move(unit);
}

void Router::aggregate(uint64_t now, bool& progress, uint64_t& next) {
  PortMask served = 0;  // input ports that moved a flit into the unit this cycle
  for (VcMask m = aggregating_ & nonempty_; m != 0; m &= m - 1) {
    const unsigned i = lowest_bit(m);
    const unsigned port = i >> vc_shift_;
    InputVc& v = ivcs_[i];
    const uint64_t t = std::max(v.ready, v.fifo.front().usable + cfg_.sa_delay - 1);
    if (t > now) {
      next = std::min(next, t);
      continue;
    }
    if ((served >> port & 1u) != 0) {
      next = std::min(next, now + 1);
      continue;
    }
    const Flit& flit = v.fifo.front().flit;
    if (!aggregator_->take(port, i & (vcs_ - 1), flit, now)) continue;
    served |= port_bit(port);
    const bool tail = is_tail(flit.type);
    v.fifo.pop_front();
    if (v.fifo.empty()) nonempty_ &= ~vc_bit(i);
    const PortLink& back = port_links_[port];
    hand_credit(back.prev, back.bw, credit_, static_cast<uint8_t>(i & (vcs_ - 1)),
                now + back.credit_cycles, back.credit_delay);
    v.ready = now + 1;
    if (tail) {
      v.state = VcState::kIdle;
      aggregating_ &= ~vc_bit(i);
      if (!v.fifo.empty()) idle_head(v.ready);
    }
    progress = true;
  }
  const bool sent = aggregator_->emit(now, [this, now](unsigned vport, unsigned vc, const Flit& f) {
    const unsigned i = ((real_ports_ + vport) << vc_shift_) | vc;
    Arrival& a = ivcs_[i].fifo.push_slot();
    a.flit = f;
    a.flit.vc = static_cast<uint8_t>(vc);
    a.usable = now + 1;
    nonempty_ |= vc_bit(i);
    ++flits_in_[i];
    if (ivcs_[i].state == VcState::kIdle) idle_head(a.usable);
  });
  if (sent) progress = true;
  next = std::min(next, aggregator_->next_due(now));
}

}  // namespace mt::noc
