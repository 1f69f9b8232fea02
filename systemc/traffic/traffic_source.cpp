#include "traffic/traffic_source.hpp"

#include "traffic/packet.hpp"
#include "traffic/random.hpp"

namespace mt::noc {

TrafficSource::TrafficSource(sc_core::sc_module_name name, Endpoint& endpoint,
                             const SourceConfig& cfg, uint64_t clock_ps, PacketLog& log)
    : sc_module(name),
      endpoint_(endpoint),
      cfg_(cfg),
      log_(log),
      node_(endpoint.node()),
      injection_(cfg.rate, cfg.packet_flits),
      rng_(node_seed(cfg.seed, endpoint.node())),
      period_(static_cast<double>(clock_ps), sc_core::SC_PS) {
  check_pattern(cfg.pattern, cfg.width, cfg.height);
  // The first start is a gap counted from cycle -1, so cycle 0 can have one too.
  const uint64_t g = injection_.gap(rng_);
  next_start_ = g == BernoulliInjection::kNever ? g : g - 1;
  endpoint_.on_send = [this](const Flit& flit, uint64_t cycle) {
    if (is_head(flit.type)) log_.head_sent(flit.packet, cycle);
  };
  endpoint_.on_receive = [this](const Flit& flit, uint8_t, uint64_t cycle) {
    log_.arrive(flit, node_, cycle);
  };
  SC_METHOD(generate);  // first run at time 0, cycle 0
}

uint64_t TrafficSource::cycle_now() const {
  return sc_core::sc_time_stamp().value() / period_.value();
}

sc_core::sc_time TrafficSource::until_cycle(uint64_t cycle) const {
  return sc_core::sc_time::from_value(cycle * period_.value()) - sc_core::sc_time_stamp();
}

void TrafficSource::generate() {
  const uint64_t now = cycle_now();
  if (next_start_ <= now && now < cfg_.stop_cycle) {
    const uint32_t dest = destination(cfg_.pattern, node_, cfg_.width, cfg_.height, rng_);
    const uint64_t id = log_.create(node_, dest, cfg_.packet_flits, now);
    backlog_.push_back({id, dest});
    ++offered_;
    const uint64_t g = injection_.gap(rng_);
    next_start_ = g == BernoulliInjection::kNever ? g : now + g;
  }
  // Keep more than a packet queued in the endpoint while the backlog lasts, so it never idles
  // for want of a flit whichever of us runs first within a cycle; the rest waits here as
  // compact records instead of flits.
  const size_t keep = 2 * static_cast<size_t>(cfg_.packet_flits) + 2;
  while (!backlog_.empty() && endpoint_.queued_flits() < keep) {
    const Waiting w = backlog_.front();
    backlog_.pop_front();
    endpoint_.send(make_packet(w.id, node_, w.dest, cfg_.packet_flits));
  }
  if (!backlog_.empty()) {
    next_trigger(period_);  // poll until the endpoint has room
  } else if (next_start_ < cfg_.stop_cycle) {
    next_trigger(until_cycle(next_start_));
  }  // else: done offering; the method never runs again
}

}  // namespace mt::noc
