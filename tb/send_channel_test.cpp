// rtl/send_channel.sv against the SystemC SendChannel (systemc/ni/send_channel.hpp) with its
// port's Endpoint and the NI's FlitEncoder, every cycle: the same sends pushed (as the NI's
// control pushes them, after the cycle's burst is asked for, while the queue had room at the
// cycle's start; in
// other cycles a send offered but not committed, or a commit with no send), the
// same memory answering each burst read in order after a random latency, and the same credits
// from a scripted router port (every cycle, or every other on average). Every cycle the burst read asked for (address, length), the
// sends queued, the DMA's idleness and the flit injected (type, VC, 128 bits) must be the
// same. Built with small buffers (tb/CMakeLists.txt: VC buffers of 20 flits, an NI buffer of
// 40 flits in 3 bursts) so that the NI buffer's room, its bursts and the credits all hold
// reads back. The first difference is named by cycle and signal, with both values.
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <map>
#include <optional>
#include <random>
#include <vector>

#include "Vsend_channel.h"
#include "endpoint/endpoint.hpp"
#include "flit/flit.hpp"
#include "ni/flit_encoder.hpp"
#include "ni/send_channel.hpp"
#include "support/clocked.hpp"
#include "support/scripted_local_input.hpp"
#include "systemc/sim_test_util.hpp"

namespace mt::tb {
namespace {

// tb/CMakeLists.txt builds the model with these.
constexpr uint32_t kNode = 5, kVcDepth = 20, kBufferFlits = 40, kLines = 3, kBurst = 256;
constexpr uint32_t kNodeW = 8, kAddrW = 32, kSizeW = 32, kPushes = 4;
constexpr uint32_t kJobW = 1 + 3 + 3 + 2 * kNodeW + 2 + kAddrW + kSizeW;

// A burst read on its way through the memory: the cycle it completes and what it reads.
struct Read {
  uint64_t done;
  noc::BurstRead burst;
};

// What a run reached.
struct Outcome {
  uint64_t cycles = 0, sends = 0, bursts = 0, flits = 0, held_back = 0;
};

class SendChannelLockstep : public noc::test::SimTest {
 protected:
  SendChannelLockstep() {
    noc_.vc_depth = kVcDepth;
    noc_.vcs = 4;
    ni_.buffer_flits = kBufferFlits;
    ni_.buffer_lines = kLines;
  }

  // `sends` random sends, pushed while the queue has room; compares every cycle until both
  // sides are idle.
  Outcome run(int sends, std::mt19937& rng);

  // The bytes of the buffer at `addr` (any address: a function of it).
  static uint8_t byte_at(uint64_t addr) { return static_cast<uint8_t>(addr * 131 + (addr >> 8)); }

  static noc::SendJob random_send(std::mt19937& rng, uint64_t id) {
    noc::SendJob job;
    const bool message = rng() % 2;
    job.request = {static_cast<uint32_t>(rng() % 200), rng() % 2 ? Op::kReduce : Op::kGather,
                   static_cast<uint32_t>(rng() % 200), 16 * (rng() % 100000),
                   4 * (1 + rng() % 600)};
    job.route.source_routed = message;
    job.route.next = message ? static_cast<uint8_t>(1 + rng() % 4) : 0;
    job.route.eject = message ? noc::local_port(static_cast<uint32_t>(rng() % 4)) : 0;
    job.id = id;
    return job;
  }

  // Push lane 0: {message, next, eject, dest, tree, op, addr, bytes}, MSB first; queued when
  // `commit` (an offer alone, as the NI's control makes for an entry that does not issue,
  // changes nothing).
  static void drive_push(Clocked<Vsend_channel>& dut, const noc::SendJob* job, bool commit) {
    dut->push_i = job != nullptr;
    dut->commit_i = commit;
    for (uint32_t w = 0; w < (kPushes * kJobW + 31) / 32; ++w) dut->push_job_i[w] = 0;
    if (job == nullptr) return;
    const noc::SendRequest& r = job->request;
    const uint64_t fields[] = {job->route.source_routed, job->route.next, job->route.eject,
                               r.dest, r.flow, static_cast<uint64_t>(r.op), r.addr, r.bytes};
    const uint32_t widths[] = {1, 3, 3, kNodeW, kNodeW, 2, kAddrW, kSizeW};
    uint32_t at = kJobW;
    for (size_t f = 0; f < std::size(fields); ++f) {
      at -= widths[f];
      for (uint32_t b = 0; b < widths[f]; ++b) {
        if ((fields[f] >> b) & 1u) dut->push_job_i[(at + b) / 32] |= 1u << ((at + b) % 32);
      }
    }
  }

  // The memory's answer to the oldest read: the burst's bytes in lanes from byte 0.
  static void drive_done(Clocked<Vsend_channel>& dut, const Read* r) {
    dut->burst_done_i = r != nullptr;
    for (uint32_t w = 0; w < kBurst / 4; ++w) {
      uint32_t v = 0;
      for (uint32_t k = 0; r != nullptr && k < 4; ++k) {
        const uint64_t i = 4 * w + k;
        if (i < r->burst.bytes) v |= uint32_t{byte_at(r->burst.addr + i)} << (8 * k);
      }
      dut->burst_data_i[w] = v;
    }
  }

  noc::NocConfig noc_;
  noc::NiConfig ni_;
};

Outcome SendChannelLockstep::run(int sends, std::mt19937& rng) {
  noc::Endpoint ep("endpoint", kNode, noc_);
  ScriptedLocalInput port("port", noc_);
  ep.out.bind(port.in);
  port.out.bind(ep.in);
  noc::FlitEncoder enc("encoder", kNode, noc_, ni_);
  noc::SendChannel ch(ni_, enc, ep);
  std::map<uint64_t, noc::Flit> sent;  // SystemC: cycle -> flit
  ep.on_send = [&](const noc::Flit& f, uint64_t cycle) {
    sent[cycle] = f;
    ch.sent(cycle);
  };
  Clocked<Vsend_channel> dut;
  dut->node_id_i = kNode;
  drive_push(dut, nullptr, false);
  drive_done(dut, nullptr);
  dut.reset();
  auto run_to = [&](uint64_t c) {
    sc_core::sc_start(sc_core::sc_time(static_cast<double>(c * noc_.clock_ps), sc_core::SC_PS) -
                      sc_core::sc_time_stamp());
  };
  Outcome out;
  std::deque<Read> reads;                 // in order
  std::map<uint64_t, uint8_t> credit_at;  // RTL: cycle -> VC of the credit usable then
  int pushed = 0;
  for (uint64_t c = 1; pushed < sends || !ch.dma_idle() || !reads.empty() ||
                       !port.held.empty() || !credit_at.empty(); ++c) {
    if (c > 2000000) {
      ADD_FAILURE() << "no progress by cycle " << c;
      return out;
    }
    run_to(c);
    // The cycle's completion (its flits join the NI buffer), then the burst asked for, then
    // the send pushed: the SystemC NI's order within a cycle.
    const Read* done = !reads.empty() && reads.front().done == c ? &reads.front() : nullptr;
    if (done != nullptr) {
      std::vector<uint8_t> bytes(done->burst.bytes);
      for (uint64_t i = 0; i < bytes.size(); ++i) bytes[i] = byte_at(done->burst.addr + i);
      std::vector<noc::Flit> fl;
      enc.encode(done->burst.job, done->burst.offset, bytes.data(), bytes.size(), fl);
      ch.read_done(done->burst.flits);
      ep.send(fl);
    }
    drive_done(dut, done);
    const size_t at_start = ch.queued();
    const bool had_job = at_start != 0;
    const std::optional<noc::BurstRead> burst = ch.next_burst(c);
    out.held_back += had_job && !burst;
    const bool dma_idle = ch.dma_idle();
    std::optional<noc::SendJob> job;
    if (pushed < sends && at_start < ni_.send_queue && rng() % 3 != 0) {
      job = random_send(rng, static_cast<uint64_t>(++pushed));
      ch.push(*job);
      ++out.sends;
    }
    if (job) {
      drive_push(dut, &*job, true);
    } else if (rng() % 2 == 0) {
      const noc::SendJob offer = random_send(rng, 0);
      drive_push(dut, &offer, false);
    } else {
      drive_push(dut, nullptr, rng() % 2 == 0);
    }
    // The router frees a slot every cycle or every other on average, a thousand cycles each.
    const bool free = (c / 1000) % 2 == 0 ? rng() % 2 == 0 : true;
    if (!port.held.empty() && free) credit_at[c + noc_.local_latency] = port.free_one();
    dut->credit_i = credit_at.count(c) != 0;
    dut->credit_vc_i = dut->credit_i ? credit_at[c] : 0;
    credit_at.erase(c);
    run_to(c + 1);
    dut.settle();
    EXPECT_EQ(dut->fetch_o, burst.has_value()) << "cycle " << c << ": fetch_o";
    if (burst && dut->fetch_o) {
      EXPECT_EQ(dut->fetch_addr_o, burst->addr) << "cycle " << c << ": fetch_addr_o";
      EXPECT_EQ(dut->fetch_len_o, burst->bytes) << "cycle " << c << ": fetch_len_o";
    }
    EXPECT_EQ(dut->queued_o, at_start) << "cycle " << c << ": queued_o";
    EXPECT_EQ(dut->dma_idle_o, dma_idle) << "cycle " << c << ": dma_idle_o";
    const auto it = sent.find(c);
    EXPECT_EQ(dut->tx_o, it != sent.end()) << "cycle " << c << ": tx_o";
    if (it != sent.end() && dut->tx_o) {
      const noc::WireFlit w = noc::pack(it->second);
      EXPECT_EQ(dut->tx_type_o, static_cast<uint32_t>(w.type)) << "cycle " << c << ": tx_type_o";
      EXPECT_EQ(dut->tx_vc_o, w.vc) << "cycle " << c << ": tx_vc_o";
      for (int k = 0; k < 4; ++k) {
        EXPECT_EQ(dut->tx_data_o[k], w.data[k]) << "cycle " << c << ": tx_data_o word " << k;
      }
      ++out.flits;
    }
    EXPECT_FALSE(dut->overflow_o) << "cycle " << c << ": overflow_o";
    if (::testing::Test::HasFailure()) return out;
    dut.tick();
    if (done != nullptr) reads.pop_front();
    if (burst) {  // the memory answers in order, 1 to 12 cycles on
      const uint64_t after = reads.empty() ? c + 1 : reads.back().done + 1;
      reads.push_back({std::max(after, c + 1 + rng() % 12), *burst});
      ++out.bursts;
    }
    ++out.cycles;
  }
  return out;
}

TEST_F(SendChannelLockstep, RandomSendsReadsAndCreditsEveryCycleAsTheSystemCModel) {
  std::mt19937 rng(21);
  const Outcome o = run(300, rng);
  ASSERT_FALSE(HasFailure());
  std::printf("%llu cycles, %llu sends, %llu bursts, %llu flits, %llu cycles a burst waited "
              "for the NI buffer\n",
              static_cast<unsigned long long>(o.cycles), static_cast<unsigned long long>(o.sends),
              static_cast<unsigned long long>(o.bursts), static_cast<unsigned long long>(o.flits),
              static_cast<unsigned long long>(o.held_back));
  EXPECT_EQ(o.sends, 300u);
  EXPECT_GT(o.bursts, o.sends);                // sends of several bursts
  EXPECT_GT(o.held_back, o.cycles / 10);       // the NI buffer held reads back
}

}  // namespace
}  // namespace mt::tb
