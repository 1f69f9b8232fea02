// Router construction, links (TLM callbacks), the per-cycle evaluation and its wake-ups.
// Route computation and the two allocators are in router_pipeline.cpp.
#include "router/router.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

namespace mt::noc {

Router::Router(sc_core::sc_module_name name, const RouterSpec& spec, const NocConfig& cfg,
               RouterShared* shared)
    : sc_module(name),
      node_(spec.vertex),
      place_(spec.place),
      switch_routes_(spec.switch_routes),
      neighbour_(spec.neighbour),
      step_port_(spec.step_port),
      cfg_(cfg),
      shared_(shared),
      vcs_(cfg.vcs),
      vc_shift_(vc_shift(cfg.vcs)),
      subpacket_need_(cfg.wormhole ? 1u : cfg.subpacket_flits),
      clock_(cfg.clock_ps) {
  cfg_.validate();
  if (neighbour_.size() > max_router_ports(cfg.vcs)) {
    fail(fmt::format("{} port codes, more than the {} a router with {} VCs supports",
                     neighbour_.size(), max_router_ports(cfg.vcs), cfg.vcs));
  }
  const uint8_t n_ports = ports();
  real_ports_ = n_ports;
  uint32_t first_local = kMaxRouterPorts;
  std::vector<uint8_t> links;
  for (uint8_t p = 0; p < n_ports; ++p) {
    if (is_local(p)) {
      local_ports_ |= port_bit(p);
      first_local = std::min<uint32_t>(first_local, p);
    } else if (has_port(p)) {
      links.push_back(p);
    }
  }
  hop_code_ = RouteHopCode(std::move(links));
  // A normal packet at its destination: links spread over the NI ports, local ports loop back.
  eject_port_.assign(n_ports, 0);
  for (uint8_t p = 0; p < n_ports; ++p) {
    eject_port_[p] = is_local(p) ? p : local_port((p - 1u) % cfg.ni_ports);
  }
  if (first_local == kMaxRouterPorts) eject_port_.assign(n_ports, kMaxRouterPorts);  // a switch
  port_links_.resize(n_ports);
  in_.resize(n_ports);
  out_.resize(n_ports);
  for (uint8_t p = 0; p < n_ports; ++p) {
    const bool local = is_local(p);
    PortLink& link = port_links_[p];
    // A link of its own latency takes it both ways (flits out, credits back).
    const uint32_t own = p < spec.port_latency.size() && !local ? spec.port_latency[p] : 0;
    // In 64 bits: a latency may be as large as its 32-bit setting holds.
    link.link_cycles = uint64_t{cfg.st_delay} + 1 +
                       (local ? cfg.local_latency : own != 0 ? own : cfg.link_latency);
    link.credit_cycles = local ? cfg.local_latency : own != 0 ? own : cfg.credit_latency;
    link.link_delay = clock_.time_of(link.link_cycles);
    link.credit_delay = clock_.time_of(link.credit_cycles);
    if (!has_port(p)) continue;
    in_[p] = std::make_unique<InSocket>(fmt::format("in_{}", port_label(p)).c_str());
    out_[p] = std::make_unique<OutSocket>(fmt::format("out_{}", port_label(p)).c_str());
    in_[p]->register_nb_transport_fw<&Router::receive_flit>(this, p);
    out_[p]->register_nb_transport_bw<&Router::receive_credit>(this, p);
  }
  ivcs_.resize(size_t{n_ports} * vcs_);
  ovcs_.resize(size_t{n_ports} * vcs_);
  for (OutputVc& o : ovcs_) o.credits = cfg.vc_depth;
  flits_in_.assign(ivcs_.size(), 0);
  va_in_ptr_.assign(ivcs_.size(), 0);
  va_out_ptr_.assign(ovcs_.size(), 0);
  sa_in_ptr_.assign(n_ports, 0);
  sa_out_ptr_.assign(n_ports, 0);
  // An output's unsent grants number at most st_delay + 1 (one grant a cycle) and at most
  // vcs * vc_depth (each holds a credit until its flit has left the next buffer).
  const uint64_t unsent = std::min(uint64_t{cfg.st_delay} + 1, uint64_t{cfg.vcs} * cfg.vc_depth);
  while (send_slots_ < unsent) send_slots_ *= 2;
  send_cycles_.assign(size_t{n_ports} * send_slots_, 0);
  credits_in_.resize(n_ports);
  va_parking_.resize(n_ports);
  flits_out_.assign(n_ports, 0);
  credit_.type = FlitType::kHeadTail;

  // A router is the group of its node (and NI): links to other routers take the lookahead.
  wake_ = CycleEvent(*shared_->scheduler, [this](uint64_t now) { evaluate(now); }, node_);
}

// A grid router's ports by their direction names; a switch's by number.
std::string Router::port_label(uint8_t p) const {
  if (!switch_routes_ || is_local(p)) return port_name(p);
  return fmt::format("p{}", p);
}

Router::~Router() = default;

void Router::before_end_of_elaboration() {
  if (!shared_->direct_calls) return;
  for (uint8_t p = 0; p < real_ports_; ++p) {
    if (!has_port(p)) continue;
    in_[p]->set_flit_peer(this, p, clock_.period());
    out_[p]->set_flit_peer(this, p, clock_.period());
  }
}

void Router::end_of_elaboration() {
  for (uint8_t p = 0; p < real_ports_; ++p) {
    if (!has_port(p)) continue;
    PortLink& link = port_links_[p];
    link.fw = (*out_[p]).operator->();
    link.bw = (*in_[p]).operator->();
    if (!shared_->direct_calls) continue;
    link.next = flit_peer_of(link.fw, clock_.period());
    link.prev = flit_peer_of(link.bw, clock_.period());
  }
}

Router::InSocket& Router::in(uint8_t p) {
  if (!has_port(p)) fail(fmt::format("has no port {}", port_label(p)));
  return *in_[p];
}

Router::OutSocket& Router::out(uint8_t p) {
  if (!has_port(p)) fail(fmt::format("has no port {}", port_label(p)));
  return *out_[p];
}

uint64_t Router::flits_out(uint8_t p) const {
  if (p >= ports()) return 0;
  const uint64_t now = now_cycle();
  uint64_t unsent = 0;
  for (uint64_t k = 0; k < send_slots_; ++k) unsent += send_cycles_[p * send_slots_ + k] > now;
  return flits_out_[p] - unsent;
}

uint32_t Router::direct_calls() const {
  uint32_t n = 0;
  for (const PortLink& link : port_links_) {
    n += (link.next.peer != nullptr) + (link.prev.peer != nullptr);
  }
  return n;
}

uint64_t Router::flits_out_total() const {
  uint64_t n = 0;
  for (uint8_t p = 0; p < ports(); ++p) n += flits_out(p);
  return n;
}

uint64_t Router::buffered_flits() const {
  uint64_t n = 0;
  for (const InputVc& v : ivcs_) n += v.fifo.size();
  return n;
}

uint64_t Router::now_cycle() const { return shared_->scheduler->now(); }

void Router::fail(const std::string& what) const {
  SC_REPORT_ERROR("mt/noc/router", fmt::format("{}: {}", name(), what).c_str());
  throw std::logic_error(what);  // not reached: SC_REPORT_ERROR throws
}

// Keeps only the earliest pending wake-up (the scheduler keeps the earliest request too; the
// check just avoids redundant notify calls). The evaluation recomputes its next wake-up from
// its whole state, so a skipped later request is never lost.
void Router::wake_at(uint64_t cycle) {
  if (cycle >= next_wake_) return;
  next_wake_ = cycle;
  wake_.notify_at(cycle);
}

tlm::tlm_sync_enum Router::receive_flit(int port, Flit& flit, tlm::tlm_phase& phase,
                                        sc_core::sc_time& delay) {
  if (phase != tlm::BEGIN_REQ) fail("flit link carries only BEGIN_REQ");
  const uint64_t now = now_cycle();
  accept_flit(static_cast<unsigned>(port), flit, flit.vc,
              now + port_links_[static_cast<size_t>(port)].flit_in(clock_, delay));
  return tlm::TLM_ACCEPTED;
}

void Router::accept_flit(unsigned port, const Flit& flit, uint8_t vc, uint64_t usable) {
  if (vc >= vcs_) fail(fmt::format("flit on VC {} >= {} VCs: {}", vc, vcs_, flit.str()));
  const unsigned i = (port << vc_shift_) | vc;
  InputVc& ivc = ivcs_[i];
  Arrival& a = ivc.fifo.push_slot();
  a.flit = flit;
  a.flit.vc = vc;
  a.usable = usable;
  nonempty_ |= vc_bit(i);
  ++flits_in_[i];
  max_occupancy_ = std::max(max_occupancy_, static_cast<uint32_t>(ivc.fifo.size()));
  if (ivc.state == VcState::kIdle) idle_head(usable);
  if (((local_ports_ >> port) & 1u) != 0 && shared_->watchdog_cycles != 0 &&
      !shared_->watchdog_armed) {
    // Checks fall half a cycle after a cycle boundary, when every router is done with it.
    shared_->watchdog_armed = true;
    shared_->watchdog_event->notify(
        clock_.time_of(shared_->watchdog_cycles) +
        sc_core::sc_time::from_value(clock_.period() / 2));
  }
  wake_at(usable);
}

tlm::tlm_sync_enum Router::receive_credit(int port, Flit& credit, tlm::tlm_phase& phase,
                                          sc_core::sc_time& delay) {
  if (phase != CREDIT) fail("credit link carries only CREDIT");
  const uint64_t now = now_cycle();
  accept_credit(static_cast<unsigned>(port), credit.vc,
                now + port_links_[static_cast<size_t>(port)].credit_in(clock_, delay));
  return tlm::TLM_ACCEPTED;
}

void Router::accept_credit(unsigned port, uint8_t vc, uint64_t usable) {
  if (vc >= vcs_) fail(fmt::format("credit for VC {} >= {} VCs", vc, vcs_));
  credits_in_[port].push(vc, usable);
  // Parked VCs short of credits retry when it counts, unless their retry is no later: a credit
  // comes no earlier than those already on their way, which their retry counted.
  VaParking& p = va_parking_[port];
  if (p.credit_short != 0 && usable < p.retry) {
    p.retry = usable;
    va_retry_ports_ |= port_bit(port);
  }
  credit_ports_ |= port_bit(port);
  wake_at(usable);
}

void Router::evaluate(uint64_t now) {
  ++evaluations_;
  next_wake_ = kNever;  // the pending notification has just fired
  uint64_t next = kNever;
  bool progress = false;

  // RC for idle VCs whose front (a head) is usable and whose previous packet has left; none
  // is before rc_next_, which every way into that set lowers (idle_head).
  if (rc_next_ <= now) {
    rc_next_ = kNever;
    for (VcMask m = nonempty_ & ~(vc_alloc_ | active_ | aggregating_); m != 0; m &= m - 1) {
      const unsigned i = lowest_bit(m);
      const uint64_t t = std::max(ivcs_[i].fifo.front().usable, ivcs_[i].ready);
      if (t <= now) {
        route(i, now);
      } else {
        rc_next_ = std::min(rc_next_, t);
      }
    }
  }
  next = std::min(next, rc_next_);
  if (vc_alloc_ != 0) allocate_vcs(now, progress, next);
  allocate_switch(now, progress, next);
  if (aggregator_) aggregate(now, progress, next);

  // A grant changes what the next cycle can do; without one, this cycle's outcome repeats
  // until a stage delay ends or a flit or credit arrives, all of which are in `next`.
  if (progress || shared_->always_evaluate) {
    next = now + 1;
  } else {
    take_credits(now, next);
  }
  if (next != kNever) wake_at(next);
}

void Router::take_credits(uint64_t now, uint64_t& next) {
  for (PortMask m = credit_ports_; m != 0; m &= m - 1) {
    const unsigned p = lowest_bit(m);
    take_port_credits(p, now);
    if (!credits_in_[p].empty()) next = std::min(next, credits_in_[p].next_usable());
  }
}

bool Router::take_port_credits(unsigned p, uint64_t now) {
  if ((credit_ports_ >> p & 1u) == 0) return false;
  CreditQueue& q = credits_in_[p];
  q.take(now, [this, p](uint8_t vc, uint32_t n) { ovcs_[(p << vc_shift_) | vc].credits += n; });
  if (q.empty()) credit_ports_ &= ~port_bit(p);
  return true;
}

uint32_t Router::credits_now(unsigned p, unsigned vc, uint64_t now) const {
  const uint32_t held = ovcs_.at((p << vc_shift_) | vc).credits;  // throws for a port it lacks
  return held + credits_in_[p].usable(static_cast<uint8_t>(vc), now);
}

std::string Router::vc_report(unsigned i) const {
  const InputVc& v = ivcs_[i];
  const unsigned port = i >> vc_shift_, vc = i & (vcs_ - 1);
  std::string s = switch_routes_
      ? fmt::format("{} {} in {} vc {}: {} flit(s)", is_switch() ? "switch" : "node router",
                    node_, port_label(static_cast<uint8_t>(port)), vc, v.fifo.size())
      : fmt::format("router {} ({},{}) in {} vc {}: {} flit(s)", node_, place_.x, place_.y,
                    port_label(static_cast<uint8_t>(port)), vc, v.fifo.size());
  if (!v.fifo.empty()) {
    s += fmt::format(", front [{}] usable at {}", v.fifo.front().flit.str(),
                     v.fifo.front().usable);
  }
  switch (v.state) {
    case VcState::kIdle:
      s += ", idle (waiting for its head to become usable)";
      break;
    case VcState::kVcAlloc: {
      s += fmt::format(", waiting for an output VC on {} in [{}, {})", port_label(v.out_port),
                       v.vc_lo, v.vc_hi);
      for (unsigned o = v.vc_lo; o < v.vc_hi; ++o) {
        const OutputVc& ov = ovcs_[(static_cast<unsigned>(v.out_port) << vc_shift_) | o];
        s += fmt::format(" [vc {} {} credits {}/{}]", o, ov.busy ? "busy" : "free",
                         credits_now(v.out_port, o, now_cycle()), v.need);
      }
      break;
    }
    case VcState::kAggregating:
      s += ", its message taken by the aggregation unit";
      break;
    case VcState::kActive: {
      s += fmt::format(", holds output {} vc {} with {} credit(s), needs {}",
                       port_label(v.out_port), v.out_vc,
                       credits_now(v.out_port, v.out_vc, now_cycle()),
                       v.reserve ? subpacket_need_ : 1u);
      break;
    }
  }
  return s;
}

std::string Router::state_report() const {
  std::string s = aggregator_ ? aggregator_->state_report() : std::string();
  for (unsigned i = 0; i < ivcs_.size(); ++i) {
    if (ivcs_[i].fifo.empty() && ivcs_[i].state == VcState::kIdle) continue;
    s += vc_report(i);
    s += '\n';
  }
  return s;
}

}  // namespace mt::noc
