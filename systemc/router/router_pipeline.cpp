// The router's pipeline stages: route computation (RC), VC allocation (VA) and switch
// allocation (SA), both allocators separable, input first, round robin with an optional
// priority ahead of round robin.
#include <algorithm>
#include <string>
#include <tuple>
#include <utility>

#include <fmt/format.h>

#include "router/arbiter.hpp"
#include "router/router.hpp"

namespace mt::noc {

void Router::route(unsigned i, uint64_t now) {
  InputVc& v = ivcs_[i];
  const unsigned in_port = i >> vc_shift_;
  const unsigned in_vc = i & (vcs_ - 1);
  Flit& head = v.fifo.front().flit;
  if (!is_head(head.type)) {
    fail(fmt::format("in {} vc {}: a {} flit starts a packet: {}",
                     port_name(static_cast<uint8_t>(in_port)), in_vc,
                     flit_type_name(head.type), head.str()));
  }
  if (aggregator_ && in_port < real_ports_ && aggregator_->claims(head)) {
    v.state = VcState::kAggregating;  // the unit takes the message (router.hpp, Aggregation)
    aggregating_ |= vc_bit(i);
    v.ready = now + cfg_.rc_delay;
    return;
  }
  v.priority = shared_->priority ? shared_->priority(head) : 0;
  const bool injected = ((local_ports_ >> in_port) & 1u) != 0;
  if (switch_routes_) {
    route_switched(v, head, in_port, in_vc, injected);
  } else {
    route_grid(v, head, in_port, in_vc, injected);
  }
  if (in_port >= real_ports_ && aggregator_->sharing() == OutputSharing::kFlowOrder) {
    // A result in flow order keeps its lane's VC (router.hpp, Aggregation).
    if (in_vc < v.vc_lo || in_vc >= v.vc_hi) {
      fail(fmt::format("aggregation lane {} is not among VCs [{}, {}) of its route: {}", in_vc,
                       v.vc_lo, v.vc_hi, head.str()));
    }
    v.vc_lo = static_cast<uint8_t>(in_vc);
    v.vc_hi = static_cast<uint8_t>(in_vc + 1);
  }
  v.message = is_subpacket(head.type);
  if (v.message) {
    v.need = 0;  // sub-packets reserve before SA instead
  } else {
    // Virtual cut-through: room for the whole packet (length 0 counts as 1; a packet longer
    // than a buffer can only reserve the whole buffer).
    v.need = cfg_.wormhole ? 0 : std::min(std::max(head.length, 1u), cfg_.vc_depth);
  }
  v.state = VcState::kVcAlloc;
  vc_alloc_ |= vc_bit(i);
  v.ready = now + cfg_.rc_delay + cfg_.va_delay - 1;  // VA decides in its last cycle
}

// Grid networks: messages source routed one hop (paper §IV-B), normal packets dimension order.
void Router::route_grid(InputVc& v, Flit& head, unsigned in_port, unsigned in_vc,
                        bool injected) {
  if (is_subpacket(head.type)) {
    // Source routing: `next` is the output port; the source router swaps next and eject so
    // that the neighbour ejects it (`next` is now one of its local ports) and its NI sees
    // where it came from.
    const uint8_t port = head.next;
    if (injected) {
      if (!has_port(port)) {
        fail(fmt::format("message asks for port {} ({}), which this router lacks: {}",
                         port, port_name(port), head.str()));
      }
      head.next = head.eject;
      head.set_eject(port);
    } else if (!is_local(port)) {
      fail(fmt::format("message from {} asks to be ejected on port {} ({}), which is not one of "
                       "this router's {} local port(s): {}",
                       port_name(static_cast<uint8_t>(in_port)), port, port_name(port),
                       cfg_.ni_ports, head.str()));
    }
    v.out_port = port;
    v.vc_lo = 0;
    v.vc_hi = static_cast<uint8_t>(vcs_);
    return;
  }
  if (head.dest >= place_.width * place_.height) {
    fail(fmt::format("destination {} is not a node: {}", head.dest, head.str()));
  }
  const Dim in_dim = in_port == kPortXMinus || in_port == kPortXPlus ? Dim::kX
                     : injected                                     ? Dim::kNone
                                                                    : Dim::kY;
  const int in_class = in_vc < vcs_ / 2 ? 0 : 1;
  const Hop hop = dimension_order_hop(place_, head.dest, in_dim, in_class);
  const uint8_t port = hop.step == Step::kLocal ? eject_port_[in_port]
                                                : step_port_[static_cast<size_t>(hop.step)];
  if (port >= ports()) fail(fmt::format("no port toward {}: {}", head.dest, head.str()));
  v.out_port = port;
  if (hop.vc_class < 0) {
    v.vc_lo = 0;
    v.vc_hi = static_cast<uint8_t>(vcs_);
  } else {
    const uint32_t half = vcs_ / 2;
    v.vc_lo = static_cast<uint8_t>(static_cast<uint32_t>(hop.vc_class) * half);
    v.vc_hi = static_cast<uint8_t>(v.vc_lo + half);
  }
}

// Switch networks (router/switch_routes.hpp): a node's router sends what its NI injects
// toward the network and ejects what arrives over a link; a switch forwards (and so does a
// node of a direct network given as a file, ejecting what is its own). Messages follow
// the route in their head (flit/source_route.hpp), one hop per router they leave; no message
// passes through a node (on a direct network a message goes to a neighbour), so a node's
// router ejects every message arriving over a link. Normal packets follow the routing table.
// A route's k-th turn from a down switch-to-switch link to an up one takes it to class k.
void Router::route_switched(InputVc& v, Flit& head, unsigned in_port, unsigned in_vc,
                            bool injected) {
  const SwitchRoutes& routes = *switch_routes_;
  const bool message = is_subpacket(head.type);
  uint8_t port = kMaxRouterPorts;
  const bool arrived = message || head.dest == node_;
  if (!is_switch() && !injected && (!routes.nodes_forward() || arrived)) {
    if (!message && head.dest != node_) {
      fail(fmt::format("a packet for node {} reached node {}, which does not forward: {}",
                       head.dest, node_, head.str()));
    }
    port = eject_port_[in_port];
  } else if (message) {
    port = hop_code_.port(head.route);
    if (port == RouteHopCode::kNoLink) {
      fail(fmt::format("message's source route names link {} of this router's {}: {}",
                       hop_code_.link(head.route), hop_code_.links(),
                       head.str()));
    }
    head.route = hop_code_.rest(head.route);
  } else {
    if (head.dest >= routes.nodes()) {
      fail(fmt::format("destination {} is not a node: {}", head.dest, head.str()));
    }
    port = routes.port(node_, head.dest);
    if (!is_switch() && head.dest == node_) port = eject_port_[in_port];
    if (port >= ports()) fail(fmt::format("no port toward {}: {}", head.dest, head.str()));
  }
  v.out_port = port;
  v.vc_lo = 0;
  v.vc_hi = static_cast<uint8_t>(vcs_);
  const uint32_t to = neighbour_[port];
  if (!is_switch() || to == node_ || to < routes.nodes()) return;  // any VC
  const uint32_t from = neighbour_[in_port];
  const bool from_switch = from >= routes.nodes() && from != node_;
  const uint32_t cls =
      from_switch ? routes.class_of_vc(in_vc) + (routes.turn(from, node_, to) ? 1 : 0) : 0;
  if (cls >= routes.classes()) {
    fail(fmt::format("a route with more than {} down-to-up turns (the VC classes "
                     "SwitchRoutes was built with, less one): {}", routes.classes() - 1,
                     head.str()));
  }
  std::tie(v.vc_lo, v.vc_hi) = routes.class_vcs(cls);
}

void Router::allocate_vcs(uint64_t now, bool& progress, uint64_t& next) {
  // Stage 1: every requesting input VC picks one free output VC it may take (round robin).
  // Per output VC (vcs <= 4): requesting input VCs; only entries in `requested` are set.
  std::array<VcMask, kVcMaskBits> requests;
  VcMask requested = 0;  // output VCs with a request
  for (PortMask m = va_retry_ports_; m != 0; m &= m - 1) {
    const unsigned port = lowest_bit(m);
    if (va_parking_[port].retry <= now) unpark_va(port, va_parking_[port].credit_short);
  }
  for (VcMask m = vc_alloc_ & ~va_parked_; m != 0; m &= m - 1) {
    const unsigned i = lowest_bit(m);
    InputVc& v = ivcs_[i];
    if (v.ready > now) {
      next = std::min(next, v.ready);
      continue;
    }
    const unsigned port = v.out_port;
    const unsigned base = port << vc_shift_;
    take_port_credits(port, now);
    uint32_t free = 0;
    bool credit_short = false;  // with free == 0: a VC it may take is free, short of credits
    for (unsigned o = v.vc_lo; o < v.vc_hi; ++o) {
      const OutputVc& ov = ovcs_[base | o];
      credit_short = credit_short || !ov.busy;
      if (!ov.busy && ov.credits >= v.need) free |= 1u << o;
    }
    if (free == 0) {  // the router runs again when a VC frees (own grant) or a credit arrives
      park_va(i, port, credit_short);
      continue;
    }
    const unsigned o = base | round_robin_pick(free, va_in_ptr_[i]);
    const VcMask bit = vc_bit(o);
    if ((requested & bit) == 0) requests[o] = 0;
    requests[o] |= vc_bit(i);
    requested |= bit;
  }
  // Stage 2: every requested output VC grants one input VC (priority, then round robin).
  const bool use_priority = static_cast<bool>(shared_->priority);
  for (VcMask m = requested; m != 0; m &= m - 1) {
    const unsigned o = lowest_bit(m);
    const unsigned i = arbitrate(requests[o], va_out_ptr_[o], use_priority,
                                 [this](unsigned k) { return ivcs_[k].priority; });
    InputVc& v = ivcs_[i];
    v.out_vc = static_cast<uint8_t>(o & (vcs_ - 1));
    v.state = VcState::kActive;
    v.reserve = v.message;  // a message reserves room for its first sub-packet
    v.ready = now + cfg_.sa_delay;
    ovcs_[o].busy = true;
    vc_alloc_ &= ~vc_bit(i);
    active_ |= vc_bit(i);
    va_in_ptr_[i] = static_cast<uint8_t>(v.out_vc + 1);
    va_out_ptr_[o] = static_cast<uint8_t>(i + 1);
    progress = true;
  }
}

void Router::park_va(unsigned i, unsigned port, bool credit_short) {
  VaParking& p = va_parking_[port];
  p.all |= vc_bit(i);
  va_parked_ |= vc_bit(i);
  if (!credit_short) return;
  p.credit_short |= vc_bit(i);
  // Its retry: the first cycle by which a free output VC it may take holds the credits it
  // needs, counting those on their way (a credit sent later moves it earlier: accept_credit).
  const InputVc& v = ivcs_[i];
  const unsigned base = port << vc_shift_;
  for (unsigned o = v.vc_lo; o < v.vc_hi; ++o) {
    const OutputVc& ov = ovcs_[base | o];
    if (ov.busy) continue;
    const auto vc = static_cast<uint8_t>(o);
    p.retry = std::min(p.retry, credits_in_[port].cycle_reaching(vc, v.need - ov.credits));
  }
  if (p.retry != kNever) va_retry_ports_ |= port_bit(port);
}

void Router::unpark_va(unsigned port, VcMask m) {
  VaParking& p = va_parking_[port];
  p.all &= ~m;
  p.credit_short &= ~m;
  va_parked_ &= ~m;
  if (p.credit_short == 0) {
    p.retry = kNever;
    va_retry_ports_ &= ~port_bit(port);
  }
}

void Router::allocate_switch(uint64_t now, bool& progress, uint64_t& next) {
  // Stage 1: every input port picks one of its VCs that has a flit ready and the credits it
  // needs downstream.
  std::array<uint32_t, kMaxRouterPorts> candidates;  // per input port: its eligible VCs
  PortMask inputs = 0;
  for (VcMask m = active_ & nonempty_; m != 0; m &= m - 1) {
    const unsigned i = lowest_bit(m);
    const InputVc& v = ivcs_[i];
    const uint64_t t = std::max(v.ready, v.fifo.front().usable + cfg_.sa_delay - 1);
    if (t > now) {
      next = std::min(next, t);
      continue;
    }
    const OutputVc& ov = ovcs_[(static_cast<unsigned>(v.out_port) << vc_shift_) | v.out_vc];
    const uint32_t need = v.reserve ? subpacket_need_ : 1u;
    // Short of credits: those on their way are taken; one still to come will wake us.
    if (ov.credits < need && (!take_port_credits(v.out_port, now) || ov.credits < need)) continue;
    const unsigned port = i >> vc_shift_;
    if ((inputs >> port & 1u) == 0) candidates[port] = 0;
    candidates[port] |= 1u << (i & (vcs_ - 1));
    inputs |= port_bit(port);
  }
  if (inputs == 0) return;
  const bool use_priority = static_cast<bool>(shared_->priority);
  // Only entries of ports in `inputs` / `outputs` are set.
  std::array<PortMask, kMaxRouterPorts> requests;  // per output port: requesting input ports
  std::array<uint8_t, kMaxRouterPorts> chosen;     // per input port: its chosen input VC index
  PortMask outputs = 0;
  for (PortMask m = inputs; m != 0; m &= m - 1) {
    const unsigned port = lowest_bit(m);
    const unsigned base = port << vc_shift_;
    const unsigned vc = arbitrate(candidates[port], sa_in_ptr_[port], use_priority,
                                  [this, base](unsigned k) { return ivcs_[base | k].priority; });
    chosen[port] = static_cast<uint8_t>(base | vc);
    const unsigned out = ivcs_[base | vc].out_port;
    if ((outputs >> out & 1u) == 0) requests[out] = 0;
    requests[out] |= port_bit(port);
    outputs |= port_bit(out);
  }
  // Stage 2: every requested output port grants one input port.
  for (PortMask m = outputs; m != 0; m &= m - 1) {
    const unsigned out = lowest_bit(m);
    const unsigned port = arbitrate(requests[out], sa_out_ptr_[out], use_priority,
                                    [this, &chosen](unsigned k) {
                                      return ivcs_[chosen[k]].priority;
                                    });
    sa_in_ptr_[port] = static_cast<uint8_t>((chosen[port] & (vcs_ - 1)) + 1);
    sa_out_ptr_[out] = static_cast<uint8_t>(port + 1);
    grant_switch(chosen[port], now);
    progress = true;
  }
}

// The flit leaves its input buffer: its credit goes upstream now, it enters switch traversal
// and goes onto the output link st_delay + 1 cycles later, which the link's delay carries
// (router.hpp).
void Router::grant_switch(unsigned i, uint64_t now) {
  InputVc& v = ivcs_[i];
  const unsigned in_port = i >> vc_shift_;
  const unsigned out = v.out_port;
  OutputVc& ov = ovcs_[(out << vc_shift_) | v.out_vc];
  Flit& flit = v.fifo.front().flit;
  const FlitType type = flit.type;
  --ov.credits;
  const PortLink& link = port_links_[out];
  hand_flit(link.next, link.fw, flit, v.out_vc, now + link.link_cycles, link.link_delay);
  const uint64_t slot = flits_out_[out]++ & (send_slots_ - 1);
  send_cycles_[out * send_slots_ + slot] = now + cfg_.st_delay + 1;
  v.fifo.pop_front();
  if (v.fifo.empty()) nonempty_ &= ~vc_bit(i);

  const PortLink& back = port_links_[in_port];
  hand_credit(back.prev, back.bw, credit_, static_cast<uint8_t>(i & (vcs_ - 1)),
              now + back.credit_cycles, back.credit_delay);

  v.reserve = type == FlitType::kSubTail;  // the next flit starts a new sub-packet
  v.ready = now + 1;
  if (is_tail(type)) {
    ov.busy = false;
    if (va_parking_[out].all != 0) unpark_va(out, va_parking_[out].all);
    v.state = VcState::kIdle;
    v.message = false;
    active_ &= ~vc_bit(i);
    if (!v.fifo.empty()) idle_head(v.ready);
  }
}

}  // namespace mt::noc
