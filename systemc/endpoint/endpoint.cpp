#include "endpoint/endpoint.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "common/error.hpp"

namespace mt::noc {
namespace {

constexpr uint64_t kNever = ~0ull;

}  // namespace

Endpoint::Endpoint(sc_core::sc_module_name name, uint32_t node, const NocConfig& cfg,
                   const CycleEvent* driver)
    : sc_module(name),
      out("out"),
      in("in"),
      node_(node),
      cfg_(cfg),
      clock_(cfg.clock_ps),
      local_delay_(clock_.time_of(cfg.local_latency)),
      queue_(16),
      credits_(cfg.vcs, cfg.vc_depth),
      driver_(driver) {
  cfg.validate();
  out.register_nb_transport_bw<&Endpoint::receive_credit>(this);
  in.register_nb_transport_fw<&Endpoint::receive_flit>(this);
  out.set_flit_peer(this, 0, clock_.period());
  in.set_flit_peer(this, 0, clock_.period());
  if (driver != nullptr) return;
  SC_METHOD(run);
  sensitive << own_wake_;
  dont_initialize();
}

void Endpoint::end_of_elaboration() {
  router_fw_ = out.operator->();
  router_bw_ = in.operator->();
  router_in_ = flit_peer_of(router_fw_, clock_.period());
  router_out_ = flit_peer_of(router_bw_, clock_.period());
}

void Endpoint::send(const std::vector<Flit>& flits) {
  for (const Flit& f : flits) append(f);
  commit(flits.size());
}

Flit& Endpoint::append(const Flit& proto) {
  Timed& q = queue_.push_slot();
  q.flit = proto;  // its cycle is set by commit()
  return q.flit;
}

void Endpoint::commit(size_t n) {
  if (n == 0) return;
  // Check the flit types form whole or continued packets/messages before any can leave.
  const size_t first = queue_.size() - n;
  const uint64_t now = cycle();
  Open open = open_;
  for (size_t i = 0; i < n; ++i) {
    Timed& q = queue_.at(first + i);
    q.cycle = now + 1;  // flits leave from the next cycle on
    const FlitType t = q.flit.type;
    const bool ok = open == Open::kNone     ? is_head(t)
                    : open == Open::kPacket ? t == FlitType::kBody || t == FlitType::kTail
                                            : t == FlitType::kSubBody ||
                                                  t == FlitType::kSubTail ||
                                                  t == FlitType::kSubMessageTail;
    if (!ok) {
      queue_.drop_back(n);
      throw InputError(fmt::format(
          "endpoint {}: flit {} of a send() is a {} flit, which cannot come {}", node_, i,
          flit_type_name(t),
          open == Open::kNone     ? "between packets (a head must start one)"
          : open == Open::kPacket ? "inside a normal packet"
                                  : "inside an all-reduce message"));
    }
    if (is_tail(t)) {
      open = Open::kNone;
    } else if (is_head(t)) {
      open = is_subpacket(t) ? Open::kMessage : Open::kPacket;
    }
  }
  open_ = open;
  // A non-empty queue already has a wake-up pending (or waits for a credit, which wakes it).
  if (first == 0) wake_at(now + 1, now);
}

void Endpoint::wake_at(uint64_t at, uint64_t now) {
  if (at >= next_wake_) return;
  next_wake_ = at;
  if (driver_ != nullptr) {
    driver_->notify_at(at);
  } else {
    own_wake_.notify(clock_.time_of(at - now));
  }
}

tlm::tlm_sync_enum Endpoint::receive_flit(Flit& flit, tlm::tlm_phase& phase,
                                          sc_core::sc_time& delay) {
  if (phase != tlm::BEGIN_REQ) {
    SC_REPORT_ERROR("mt/noc/endpoint", "flit link carries only BEGIN_REQ");
  }
  accept_flit(0, flit, flit.vc, cycle() + flit_delay_(clock_, delay));
  return tlm::TLM_ACCEPTED;
}

// Every flit is sunk in the cycle it arrives, so the router's hand-off already decides all
// of it: its credit goes back now, usable local_latency after the arrival (as if sent then),
// and on_receive gets it with its arrival cycle.
void Endpoint::accept_flit(unsigned, const Flit& flit, uint8_t vc, uint64_t usable) {
  ++received_;
  const uint64_t credit_at = usable + cfg_.local_latency;
  if (router_out_.peer != nullptr) {
    router_out_.peer->accept_credit(router_out_.port, vc, credit_at);
  } else {  // through TLM, with the delay from the current cycle (a time conversion per call)
    hand_credit(router_out_, router_bw_, credit_, vc, credit_at,
                clock_.time_of(credit_at - cycle()));
  }
  if (on_receive) on_receive(flit, vc, usable);
}

tlm::tlm_sync_enum Endpoint::receive_credit(Flit& credit, tlm::tlm_phase& phase,
                                            sc_core::sc_time& delay) {
  if (phase != CREDIT) SC_REPORT_ERROR("mt/noc/endpoint", "bad credit from the router");
  accept_credit(0, credit.vc, cycle() + credit_delay_(clock_, delay));
  return tlm::TLM_ACCEPTED;
}

void Endpoint::accept_credit(unsigned, uint8_t vc, uint64_t usable) {
  if (vc >= cfg_.vcs) SC_REPORT_ERROR("mt/noc/endpoint", "bad credit from the router");
  credits_in_.push(vc, usable);
  if (on_credit) on_credit(vc, usable);
  wake_at(usable, cycle());
}

// Credits a packet's head needs on its VC: the whole packet (virtual cut-through; at most a
// buffer), the first sub-packet of a message, or one flit (wormhole).
uint32_t Endpoint::head_need(const Flit& head) const {
  if (cfg_.wormhole) return 1;
  if (is_subpacket(head.type)) return cfg_.subpacket_flits;
  return std::min(std::max(head.length, 1u), cfg_.vc_depth);
}

bool Endpoint::try_inject(uint64_t now) {
  const Flit& front = queue_.front().flit;
  if (current_vc_ < 0) {
    const uint32_t need = head_need(front);
    take_credits(now);  // the VC chosen depends on every VC's credits
    for (uint32_t k = 0; k < cfg_.vcs; ++k) {
      const uint32_t v = (next_vc_ + k) % cfg_.vcs;
      if (credits_[v] >= need) {
        current_vc_ = static_cast<int>(v);
        break;
      }
    }
    if (current_vc_ < 0) return false;  // a returning credit wakes us
  } else {
    const uint32_t need = reserve_ && !cfg_.wormhole ? cfg_.subpacket_flits : 1;
    uint32_t& held = credits_[static_cast<size_t>(current_vc_)];
    if (held < need) {
      take_credits(now);
      if (held < need) return false;
    }
  }
  // Callbacks may send() more, so work on a copy and pop first.
  Flit f = front;
  queue_.pop_front();
  const uint32_t vc = static_cast<uint32_t>(current_vc_);
  --credits_[vc];
  reserve_ = f.type == FlitType::kSubTail;
  if (is_tail(f.type)) {
    current_vc_ = -1;
    next_vc_ = (vc + 1) % cfg_.vcs;
  }
  hand_flit(router_in_, router_fw_, f, static_cast<uint8_t>(vc), now + cfg_.local_latency,
            local_delay_);
  f.vc = static_cast<uint8_t>(vc);  // for on_send (after the hand-off: see FlitPeer)
  ++sent_;
  last_send_ = now;
  if (on_send) on_send(f, now);
  return true;
}

void Endpoint::take_credits(uint64_t now) {
  credits_in_.take(now, [this](uint8_t vc, uint32_t n) { credits_[vc] += n; });
}

void Endpoint::evaluate(uint64_t now) {
  next_wake_ = kNever;  // the pending notification has just fired
  const bool sent = !queue_.empty() && queue_.front().cycle <= now && try_inject(now);

  uint64_t next = kNever;
  if (!queue_.empty()) {
    const uint64_t t = std::max(queue_.front().cycle, now + 1);
    // Blocked on credits: only a credit can unblock it, and credits wake us.
    if (sent || queue_.front().cycle > now) next = std::min(next, t);
  }
  // The next credit, unless the next cycle is due anyway (credits are taken when needed).
  if (!credits_in_.empty() && next > now + 1) {
    take_credits(now);
    if (!credits_in_.empty()) next = std::min(next, credits_in_.next_usable());
  }
  if (driver_ != nullptr) {
    next_wake_ = std::min(next_wake_, next);  // the owner asks *driver for it
  } else if (next != kNever) {
    wake_at(next, now);
  }
}

}  // namespace mt::noc
