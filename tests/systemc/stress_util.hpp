// Stress-test helpers: random traffic (normal packets and all-reduce messages), a scoreboard
// over everything the endpoints sent and received, and a run-then-drain driver with the
// deadlock watchdog on.
#pragma once

#include <map>
#include <random>

#include "sim_test_util.hpp"

namespace mt::noc::test {

// Bernoulli packet injection with uniform random destinations, one decision per node per
// cycle until `stop`. A fraction of the offers are all-reduce messages to a random neighbour
// (source routed through a random port) instead of normal packets. With several NI ports per
// router, each offer enters by a random one and a message asks for a random ejection port.
class RandomTraffic : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(RandomTraffic);
  RandomTraffic(sc_core::sc_module_name name, Harness& h, double packets_per_cycle,
                uint32_t min_len, uint32_t max_len, uint64_t stop, uint64_t seed,
                double message_fraction = 0.0, uint32_t subpacket_flits = 4)
      : sc_module(name),
        h_(h),
        threshold_(static_cast<uint64_t>(packets_per_cycle * 1e9)),
        message_threshold_(static_cast<uint64_t>(message_fraction * 1e9)),
        min_len_(min_len),
        max_len_(max_len),
        subpacket_flits_(subpacket_flits),
        stop_(stop),
        rng_(seed),
        period_(sc_core::sc_time(1000, sc_core::SC_PS)) {
    SC_METHOD(tick);
    sensitive << ev_;
  }
  uint64_t packets() const { return next_id_; }

 private:
  void tick() {
    if (h_.now() >= stop_) return;
    const uint32_t nodes = h_.nodes();
    for (uint32_t n = 0; n < nodes; ++n) {
      if (rng_() % 1000000000ull >= threshold_) continue;
      if (rng_() % 1000000000ull < message_threshold_) {
        send_message(n);
        continue;
      }
      uint32_t dest = static_cast<uint32_t>(rng_() % (nodes - 1));
      if (dest >= n) ++dest;
      const uint32_t len = min_len_ + static_cast<uint32_t>(rng_() % (max_len_ - min_len_ + 1));
      source(n).send(make_packet(next_id_++, n, dest, len));
    }
    ev_.notify(period_);
  }
  // (One NI port draws nothing, so single-port runs keep their random sequence.)
  Endpoint& source(uint32_t n) {
    const uint32_t k = h_.net.config().ni_ports;
    return k == 1 ? *h_.eps[n] : h_.ep(n, static_cast<uint32_t>(rng_() % k));
  }
  // One of a node's router's links (codes 1..4), at random.
  uint8_t random_link_port(const Router& r) {
    std::vector<uint8_t> ports;
    for (uint8_t p = 1; p < kPorts; ++p) {
      if (r.has_port(p)) ports.push_back(p);
    }
    return ports[rng_() % ports.size()];
  }
  void send_message(uint32_t n) {
    if (h_.net.switched()) return send_routed_message(n);
    const Router& r = h_.net.router(n);
    const uint8_t port = random_link_port(r);
    const uint32_t subpackets = 1 + static_cast<uint32_t>(rng_() % 3);
    std::vector<Flit> msg =
        make_message(next_id_++, port, subpackets, subpacket_flits_, n);
    const uint32_t k = h_.net.config().ni_ports;
    const uint8_t eject = local_port(k == 1 ? 0 : static_cast<uint32_t>(rng_() % k));
    for (Flit& f : msg) {
      f.src = head_field<uint16_t>(n, format::flit::kHeadSrc);
      // Not used for routing; lets the scoreboard check delivery.
      f.dest = head_field<uint16_t>(r.neighbour(port), format::flit::kHeadDest);
      f.set_eject(eject);
    }
    source(n).send(std::move(msg));
  }

  // A switch network: to a random node, source routed along the network's table route. A
  // direct network given as a file: to a random neighbour, one hop (no message passes
  // through a node: its router ejects every message arriving over a link).
  void send_routed_message(uint32_t n) {
    uint32_t dest = 0, route = 0;
    if (h_.net.topology().direct()) {
      const Router& r = h_.net.router(n);
      const uint8_t port = random_link_port(r);
      dest = r.neighbour(port);
      route = encode_source_route({{port, &r.hop_code()}}, "a message to a neighbour");
    } else {
      dest = static_cast<uint32_t>(rng_() % (h_.nodes() - 1));
      if (dest >= n) ++dest;
      route = h_.net.table_route(n, dest);
    }
    const uint32_t subpackets = 1 + static_cast<uint32_t>(rng_() % 3);
    std::vector<Flit> msg = make_message(next_id_++, 0, subpackets, subpacket_flits_, n);
    for (Flit& f : msg) {
      f.src = head_field<uint16_t>(n, format::flit::kHeadSrc);
      // Not used for routing; lets the scoreboard check delivery.
      f.dest = head_field<uint16_t>(dest, format::flit::kHeadDest);
      f.route = route;
    }
    source(n).send(std::move(msg));
  }

  Harness& h_;
  uint64_t threshold_, message_threshold_;
  uint32_t min_len_, max_len_, subpacket_flits_;
  uint64_t stop_;
  std::mt19937_64 rng_;
  sc_core::sc_time period_;
  sc_core::sc_event ev_;
  uint64_t next_id_ = 0;
};

// Every flit sent arrives exactly once, at its destination, in order within its packet, with
// its type and payload unchanged.
inline void check_scoreboard(const Harness& h) {
  std::map<std::pair<uint64_t, uint32_t>, Flit> sent;  // (packet, index) -> flit
  for (uint32_t n = 0; n < h.nodes(); ++n) {
    for (const Seen& s : h.sent[n]) {
      ASSERT_EQ(s.flit.src, n);
      ASSERT_TRUE(sent.emplace(std::make_pair(s.flit.packet, s.flit.index), s.flit).second)
          << "sent twice: " << s.flit.str();
    }
  }
  std::map<uint64_t, uint32_t> next_index;  // packet -> next expected flit index
  size_t received = 0;
  for (uint32_t n = 0; n < h.nodes(); ++n) {
    for (const Seen& s : h.received[n]) {
      const Flit& f = s.flit;
      ASSERT_EQ(f.dest, n) << "delivered to the wrong node: " << f.str();
      auto it = sent.find({f.packet, f.index});
      ASSERT_NE(it, sent.end()) << "never sent: " << f.str();
      EXPECT_EQ(f.type, it->second.type);
      EXPECT_EQ(f.data, it->second.data);
      if (f.type != FlitType::kSubHead) {
        EXPECT_EQ(f.route, it->second.route);
      }
      EXPECT_EQ(f.length, it->second.length);
      EXPECT_EQ(f.tree, it->second.tree);
      if (f.type == FlitType::kSubHead && h.net.switched()) {  // every hop consumed
        EXPECT_EQ(f.route, 0u);
      } else if (f.type == FlitType::kSubHead) {  // the source router swapped the route fields
        EXPECT_EQ(f.next, it->second.eject);
        EXPECT_EQ(f.eject, it->second.next);
      } else {
        EXPECT_EQ(f.next, it->second.next);
        EXPECT_EQ(f.eject, it->second.eject);
      }
      uint32_t& expect = next_index[f.packet];
      ASSERT_EQ(f.index, expect) << "out of order or duplicated: " << f.str();
      ++expect;
      ++received;
    }
  }
  EXPECT_EQ(received, sent.size()) << "flits lost";
  for (const auto& [packet, count] : next_index) {
    EXPECT_EQ(count, sent.at({packet, 0}).length) << "packet " << packet << " incomplete";
  }
}

// After a drain every credit is home and no output VC is held.
inline void check_credits_home(Harness& h, const NocConfig& cfg) {
  for (uint32_t r = 0; r < h.net.routers(); ++r) {  // switches too
    const Router& router = h.net.router(r);
    for (uint8_t p = 0; p < router.ports(); ++p) {
      if (!router.has_port(p)) continue;
      for (uint8_t v = 0; v < cfg.vcs; ++v) {
        EXPECT_EQ(router.output_credits(p, v), cfg.vc_depth)
            << "router " << r << " out " << router.port_label(p) << " vc " << int{v};
        EXPECT_FALSE(router.output_busy(p, v));
      }
    }
    if (r >= h.nodes()) continue;
    for (uint32_t i = 0; i < cfg.ni_ports; ++i) {
      for (uint32_t v = 0; v < cfg.vcs; ++v) EXPECT_EQ(h.ep(r, i).credits(v), cfg.vc_depth);
    }
  }
  EXPECT_EQ(h.net.flits_buffered(), 0u);
}

struct Load {
  std::string spec;
  NocConfig cfg;
  double packets_per_cycle;  // per node
  uint32_t min_len, max_len;
  uint64_t inject_cycles;
  uint64_t drain_bound;      // cycles after injection stops
  bool fills_a_buffer = true;  // whether saturation must fill some VC buffer to the brim
  double message_fraction = 0.0;
};

// Runs `load`, stops injecting, drains (bounded, with the watchdog on) and checks everything.
inline void run_and_drain(const Load& load) {
  Harness h(load.spec, load.cfg);
  h.net.set_watchdog(20 * (load.cfg.link_latency + load.cfg.credit_latency) + 2000);
  RandomTraffic traffic("traffic", h, load.packets_per_cycle, load.min_len, load.max_len,
                        load.inject_cycles, 7, load.message_fraction, load.cfg.subpacket_flits);
  h.run(load.inject_cycles);
  const uint64_t injected = h.total_sent() + h.total_queued();
  ASSERT_GT(h.total_queued(), 0u) << "offered load should exceed what the network accepts";
  // Drain in steps until every queued flit is sent and every sent flit received.
  uint64_t waited = 0;
  while ((h.total_queued() > 0 || h.total_received() < h.total_sent()) &&
         waited < load.drain_bound && !h.net.stalled()) {
    h.run(1000);
    waited += 1000;
  }
  ASSERT_FALSE(h.net.stalled()) << h.net.stall_report();
  ASSERT_EQ(h.total_queued(), 0u) << "not drained in " << load.drain_bound << " cycles:\n"
                                  << h.net.state_report();
  ASSERT_EQ(h.total_received(), injected);
  h.run(load.cfg.credit_latency + 10);  // the last credits come home
  check_scoreboard(h);
  check_credits_home(h, load.cfg);
  EXPECT_LE(h.net.max_vc_occupancy(), load.cfg.vc_depth);
  if (load.fills_a_buffer) {
    EXPECT_EQ(h.net.max_vc_occupancy(), load.cfg.vc_depth) << "saturation fills some buffer";
  }
}

inline NocConfig small_buffers(uint32_t vcs, bool wormhole) {
  NocConfig cfg;
  cfg.vcs = vcs;
  cfg.vc_depth = 8;
  cfg.subpacket_flits = 8;
  cfg.wormhole = wormhole;
  cfg.link_latency = 2;
  cfg.credit_latency = 2;
  return cfg;
}

// Beyond saturation on a table-routed network (switches, or a direct file): packets of 1 to 8
// flits and 30% source-routed messages, small buffers, 3000 cycles of injection.
inline Load table_routed_saturation(const std::string& spec, bool wormhole) {
  Load load;
  load.spec = spec;
  load.cfg = small_buffers(4, wormhole);
  load.packets_per_cycle = 0.4;
  load.min_len = 1;
  load.max_len = 8;
  load.inject_cycles = 3000;
  load.drain_bound = 400000;
  load.message_fraction = 0.3;
  return load;
}

}  // namespace mt::noc::test
