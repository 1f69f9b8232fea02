// rtl/endpoint.sv (with the burst descriptor the send channel gives it: tb/endpoint_tb.sv)
// against the SystemC Endpoint (systemc/endpoint/endpoint.hpp), in lockstep:
// the same bursts of sends queued in the same cycles (as the SystemC NI queues them, each
// burst's flits from the SystemC FlitEncoder) and the same credits from a scripted router
// port; every cycle the injected flit (type, VC, 128 bits) or its absence must be the same.
// Small VC buffers make the round-robin VC choice and the cut-through reservations matter.
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <map>
#include <random>
#include <vector>

#include "Vendpoint.h"
#include "endpoint/endpoint.hpp"
#include "flit/flit.hpp"
#include "ni/flit_encoder.hpp"
#include "systemc/sim_test_util.hpp"
#include "support/clocked.hpp"
#include "support/scripted_local_input.hpp"

namespace mt::tb {
namespace {

constexpr uint32_t kNode = 5, kBurst = 256, kVcDepth = 20, kLines = 20;

struct Burst {
  noc::SendJob job;
  uint64_t offset = 0, len = 0;
  std::vector<uint8_t> data;  // the send's bytes
};

class EndpointLockstep : public noc::test::SimTest {
 protected:
  EndpointLockstep() {
    cfg_.vc_depth = kVcDepth;
    cfg_.vcs = 4;
  }

  // Feeds `bursts` (in order, one at most per cycle, queue kept under kLines) and compares
  // every cycle until both sides are idle.
  void run(const std::vector<Burst>& bursts, std::mt19937& rng) {
    noc::Endpoint ep("endpoint", kNode, cfg_);
    ScriptedLocalInput port("port", cfg_);
    ep.out.bind(port.in);
    port.out.bind(ep.in);
    noc::NiConfig ni;
    noc::FlitEncoder enc("encoder", kNode, cfg_, ni);
    std::map<uint64_t, noc::Flit> sent;  // SystemC: cycle -> flit
    ep.on_send = [&](const noc::Flit& f, uint64_t cycle) { sent[cycle] = f; };
    Clocked<Vendpoint> dut;
    dut->node_id_i = kNode;
    dut.reset();
    const uint64_t period = cfg_.clock_ps;
    auto run_to = [&](uint64_t c) {
      sc_core::sc_start(sc_core::sc_time(static_cast<double>(c * period), sc_core::SC_PS) -
                        sc_core::sc_time_stamp());
    };
    std::map<uint64_t, uint8_t> credit_at;  // RTL: cycle -> VC of the credit usable then
    size_t next = 0, queued = 0, lines_sent = 0;
    std::deque<size_t> line_flits;  // flits left of each queued burst
    uint64_t flits = 0;
    for (uint64_t c = 1; next < bursts.size() || !port.held.empty() || queued > 0 ||
                         !credit_at.empty(); ++c) {
      ASSERT_LT(c, 2000000u) << "no progress";
      run_to(c);
      dut->line_i = 0;
      if (next < bursts.size() && queued < kLines && rng() % 3 != 0) {
        const Burst& b = bursts[next++];
        std::vector<noc::Flit> fl;
        enc.encode(b.job, b.offset, b.data.data() + b.offset, b.len, fl);
        ep.send(fl);
        line_flits.push_back(fl.size());
        ++queued;
        drive_line(dut, b);
      }
      if (!port.held.empty() && rng() % 2 == 0) credit_at[c + cfg_.local_latency] = port.free_one();
      dut->credit_i = credit_at.count(c) != 0;
      dut->credit_vc_i = dut->credit_i ? credit_at[c] : 0;
      credit_at.erase(c);
      run_to(c + 1);
      dut.settle();
      const auto it = sent.find(c);
      ASSERT_EQ(dut->tx_o, it != sent.end()) << "cycle " << c;
      if (it != sent.end()) {
        const noc::WireFlit w = noc::pack(it->second);
        ASSERT_EQ(dut->tx_type_o, static_cast<uint32_t>(w.type)) << "cycle " << c;
        ASSERT_EQ(dut->tx_vc_o, w.vc) << "cycle " << c;
        for (int k = 0; k < 4; ++k) ASSERT_EQ(dut->tx_data_o[k], w.data[k]) << "cycle " << c;
        ++flits;
        if (--line_flits.front() == 0) {
          line_flits.pop_front();
          --queued;
          ++lines_sent;
        }
      }
      dut.tick();
      ASSERT_FALSE(dut->overflow_o);
    }
    EXPECT_EQ(lines_sent, bursts.size());
    RecordProperty("flits", static_cast<int>(flits));
  }

  static void drive_line(Clocked<Vendpoint>& dut, const Burst& b) {
    dut->line_i = 1;
    dut->message_i = b.job.route.source_routed;
    dut->next_i = b.job.route.next;
    dut->eject_i = b.job.route.eject;
    dut->dest_i = static_cast<uint8_t>(b.job.request.dest);
    dut->tree_i = static_cast<uint8_t>(b.job.request.flow);
    dut->op_i = static_cast<uint8_t>(b.job.request.op);
    dut->addr_i = static_cast<uint32_t>(b.job.request.addr);
    dut->bytes_i = static_cast<uint32_t>(b.job.request.bytes);
    dut->offset_i = static_cast<uint32_t>(b.offset);
    dut->len_i = static_cast<uint32_t>(b.len);
    for (uint32_t w = 0; w < kBurst / 4; ++w) {
      uint32_t v = 0;
      for (uint32_t k = 0; k < 4; ++k) {
        const uint64_t at = b.offset + 4 * w + k;
        v |= uint32_t{at < b.data.size() ? b.data[at] : uint8_t{0}} << (8 * k);
      }
      dut->data_i[w] = v;
    }
  }

  noc::NocConfig cfg_;
};

std::vector<Burst> random_sends(std::mt19937& rng, int sends) {
  std::vector<Burst> out;
  for (int s = 0; s < sends; ++s) {
    Burst b;
    const bool message = rng() % 2;
    b.job.request = {static_cast<uint32_t>(rng() % 200), rng() % 2 ? Op::kReduce : Op::kGather,
                     static_cast<uint32_t>(rng() % 200), 0x100 * (rng() % 1000),
                     4 * (rng() % 1200)};
    b.job.route.source_routed = message;
    b.job.route.next = message ? static_cast<uint8_t>(1 + rng() % 4) : 0;
    b.job.route.eject = message ? noc::local_port(static_cast<uint32_t>(rng() % 4)) : 0;
    b.job.id = static_cast<uint64_t>(s + 1);
    b.data.resize(b.job.request.bytes);
    for (uint8_t& x : b.data) x = static_cast<uint8_t>(rng());
    const uint64_t bytes = b.job.request.bytes;
    for (uint64_t off = 0; off < bytes || (off == 0 && bytes == 0); off += kBurst) {
      b.offset = off;
      b.len = std::min<uint64_t>(kBurst, bytes - off);
      out.push_back(b);
      if (bytes == 0) break;
    }
  }
  return out;
}

TEST_F(EndpointLockstep, RandomSendsAndCreditsInjectTheSameFlitsEveryCycle) {
  std::mt19937 rng(12);
  run(random_sends(rng, 150), rng);
}

}  // namespace
}  // namespace mt::tb
