// Shared helpers of the router/network simulation tests.
//
// One SystemC kernel elaborates once, so every test that builds modules and calls sc_start
// derives from SimTest: its constructor gives the test a fresh simulation context,
//
//   sc_core::sc_curr_simcontext = new sc_core::sc_simcontext();
//   sc_core::sc_default_global_context = sc_core::sc_curr_simcontext;
//
// (both are public globals of SystemC 2.3.4; sc_get_curr_simcontext() returns the new one).
// The modules of a test are locals of its body, destroyed before the next test switches
// context; old contexts are kept, never deleted (deleting a context that has simulated is not
// supported). With this, running a whole test binary in one process works, as does ctest,
// which runs each case in a process of its own anyway.
#pragma once

#include <unistd.h>

#include <cctype>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <systemc>

#include "endpoint/endpoint.hpp"
#include "flit/flit.hpp"
#include "network/network.hpp"
#include "ni/ni_config.hpp"
#include "plan/plan.hpp"
#include "noc/noc_config.hpp"
#include "topology/topology.hpp"
#include "traffic/packet.hpp"

namespace mt::noc::test {

inline void fresh_simcontext() {
  // Retired contexts stay reachable, so leak checkers (MT_SANITIZE) do not flag them.
  static auto* retired = new std::vector<sc_core::sc_simcontext*>();  // outlives exit checks
  if (sc_core::sc_curr_simcontext != nullptr) retired->push_back(sc_core::sc_curr_simcontext);
  sc_core::sc_curr_simcontext = new sc_core::sc_simcontext();
  sc_core::sc_default_global_context = sc_core::sc_curr_simcontext;
}

class SimTest : public ::testing::Test {
 protected:
  SimTest() { fresh_simcontext(); }
};

// An all-reduce message (at least 2 flits) of `subpackets` sub-packets of `sp` flits each, sent out of the source
// router's port `next` (paper §IV-B): one SubHead; sub-packets end with SubTail, the last with
// SubMessageTail; later sub-packets start with a SubBody. `eject` is the ejection port at the
// neighbour (the local port).
inline std::vector<Flit> make_message(uint64_t id, uint8_t next, uint32_t subpackets,
                                      uint32_t sp, uint32_t tree = 7) {
  const uint32_t n = subpackets * sp;
  std::vector<Flit> flits(n);
  for (uint32_t i = 0; i < n; ++i) {
    Flit& f = flits[i];
    const bool last_of_sub = (i + 1) % sp == 0;
    f.type = i == 0            ? FlitType::kSubHead
             : i + 1 == n      ? FlitType::kSubMessageTail
             : last_of_sub     ? FlitType::kSubTail
                               : FlitType::kSubBody;
    f.set_next(next);
    f.eject = kPortLocal;
    f.tree = head_field<uint16_t>(tree, format::flit::kHeadTree);
    f.packet = id;
    f.index = i;
    f.length = n;
    f.data = {static_cast<uint32_t>(id), i, 0, 0};
  }
  return flits;
}

struct Seen {
  Flit flit;
  uint64_t cycle;
  uint32_t port = 0;  // index of the NI port (endpoint) that sent or received it
};

// A network with an Endpoint on every local port of every node (cfg.ni_ports per node) that
// logs every flit sent and received.
class Harness {
 public:
  Harness(const std::string& spec, const NocConfig& cfg)
      : topo_(parse_topology(spec)), cfg_(cfg), net("network", topo_, cfg) {
    sent.resize(topo_.nodes());
    received.resize(topo_.nodes());
    more_eps.resize(topo_.nodes());
    for (uint32_t n = 0; n < topo_.nodes(); ++n) {
      for (uint32_t i = 0; i < cfg.ni_ports; ++i) {
        const std::string name =
            i == 0 ? fmt::format("endpoint_{}", n) : fmt::format("endpoint_{}_{}", n, i);
        auto ep = std::make_unique<Endpoint>(name.c_str(), n, cfg);
        Endpoint& e = *ep;
        (i == 0 ? eps : more_eps[n]).push_back(std::move(ep));
        e.out.bind(net.inject(n, i));
        net.eject(n, i).bind(e.in);
        e.on_send = [this, n, i](const Flit& f, uint64_t c) { sent[n].push_back({f, c, i}); };
        e.on_receive = [this, n, i](const Flit& f, uint8_t vc, uint64_t c) {
          received[n].push_back({f, c, i});
          received[n].back().flit.vc = vc;
        };
      }
    }
  }
  // Node n's endpoint on NI port i (eps[n] is port 0).
  Endpoint& ep(uint32_t n, uint32_t i) {
    return i == 0 ? *eps.at(n) : *more_eps.at(n).at(i - 1);
  }
  const Topology& topology() const { return topo_; }
  uint32_t nodes() const { return topo_.nodes(); }
  // Runs the simulation for `cycles` more cycles.
  void run(uint64_t cycles) {
    sc_core::sc_start(sc_core::sc_time(static_cast<double>(cycles * cfg_.clock_ps),
                                       sc_core::SC_PS));
  }
  uint64_t now() const { return eps.front()->cycle(); }
  uint64_t total_sent() const {
    uint64_t s = 0;
    for_each_endpoint([&s](const Endpoint& e) { s += e.flits_sent(); });
    return s;
  }
  uint64_t total_received() const {
    uint64_t s = 0;
    for_each_endpoint([&s](const Endpoint& e) { s += e.flits_received(); });
    return s;
  }
  size_t total_queued() const {
    size_t s = 0;
    for_each_endpoint([&s](const Endpoint& e) { s += e.queued_flits(); });
    return s;
  }

 private:
  template <typename F>
  void for_each_endpoint(F f) const {
    for (const auto& e : eps) f(*e);
    for (const auto& node : more_eps) {
      for (const auto& e : node) f(*e);
    }
  }
  Topology topo_;
  NocConfig cfg_;

 public:
  Network net;
  std::vector<std::unique_ptr<Endpoint>> eps;  // NI port 0 of each node
  std::vector<std::vector<std::unique_ptr<Endpoint>>> more_eps;  // NI ports 1.. of each node
  std::vector<std::vector<Seen>> sent, received;  // per node, every NI port
};

// Router-to-router hops of the dimension-order route, from coordinates alone (the shorter way
// round a wrapped dimension).
inline uint32_t grid_hops(uint32_t w, uint32_t h, bool wraps, uint32_t a, uint32_t b) {
  auto dim = [wraps](uint32_t p, uint32_t q, uint32_t size) {
    const uint32_t d = p > q ? p - q : q - p;
    return wraps ? std::min(d, size - d) : d;
  };
  return dim(a % w, b % w, w) + dim(a / w, b / w, h);
}

// The README's zero-load latency: head sent by the source endpoint -> tail usable at the
// destination endpoint.
inline uint64_t zero_load_latency(const NocConfig& c, uint32_t hops, uint32_t flits) {
  const uint64_t r = c.rc_delay + c.va_delay + c.sa_delay + c.st_delay;
  return 2ull * c.local_latency + (hops + 1ull) * r + uint64_t{hops} * c.link_latency +
         (flits - 1ull);
}

// Everything a run observes: every flit's send and arrival cycle at every node, as
// (packet * 64 + flit index, cycle); rows [0, N) are sends, [N, 2N) arrivals.
using Trace = std::vector<std::vector<std::pair<uint64_t, uint64_t>>>;

inline Trace trace_of(const Harness& h) {
  Trace t(2 * h.nodes());
  for (uint32_t n = 0; n < h.nodes(); ++n) {
    for (const auto& s : h.sent[n]) t[n].push_back({s.flit.packet * 64 + s.flit.index, s.cycle});
    for (const auto& s : h.received[n]) {
      t[h.nodes() + n].push_back({s.flit.packet * 64 + s.flit.index, s.cycle});
    }
  }
  return t;
}

// Writes `text` to `name` in the test temporary directory and returns its path. ctest runs
// test cases in parallel processes that write the same files: each writes a file of its own
// and renames it into place, so a reader sees a whole file, never one being written.
inline std::string write_temp_file(const std::string& name, const std::string& text) {
  const std::filesystem::path dir(::testing::TempDir());
  const std::filesystem::path part = dir / fmt::format("{}.{}.part", name, ::getpid());
  std::ofstream(part) << text;
  std::filesystem::rename(part, dir / name);
  return (dir / name).string();
}

// A readable, stable name for a test case whose parameter is a tuple of strings, bools, element
// types and flow controls ("fattree_4x2_multitree_int32_message"; gtest's default for a
// tuple holding a const char* prints its address).
inline std::string param_label(const char* s) { return s; }
inline std::string param_label(bool b) { return b ? "true" : "false"; }
inline std::string param_label(DType t) { return dtype_name(t); }
inline std::string param_label(FlowControl f) { return flow_control_name(f); }
struct TupleParamName {
  template <typename... T>
  std::string operator()(const ::testing::TestParamInfo<std::tuple<T...>>& info) const {
    std::string name;
    std::apply([&](const auto&... v) { ((name += "_" + param_label(v)), ...); }, info.param);
    for (char& c : name) {
      if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    }
    return name.substr(1);
  }
};

// A switch network whose one route turns from a down link to an up one 4 times (5 VC
// classes, more than 4 VCs give): a chain of ten switches, a node on each, whose ids
// alternate 0, 5, 1, 6, ... along it, so that the chain goes up and down by turns
// (router/switch_routes.hpp). Written to the test's temporary directory; returns "file:PATH".
inline std::string zigzag_switch_file() {
  const uint32_t chain[] = {0, 5, 1, 6, 2, 7, 3, 8, 4, 9};
  std::string links;
  for (uint32_t i = 0; i < 10; ++i) {
    links += fmt::format(R"({}{{"a": "n{}", "b": "s{}"}})", i == 0 ? "" : ", ", i, chain[i]);
    if (i > 0) links += fmt::format(R"(, {{"a": "s{}", "b": "s{}"}})", chain[i - 1], chain[i]);
  }
  return "file:" + write_temp_file("zigzag_switches.json", fmt::format(
      R"({{"nodes": [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], "switches": [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
          "links": [{}]}})", links));
}

}  // namespace mt::noc::test
