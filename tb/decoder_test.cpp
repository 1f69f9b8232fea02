// rtl/decoder.sv against the SystemC Decoder (systemc/ni/decoder.hpp) and footnote 4's
// lockstep_estimate: the same entries, the same lockstep cycles and sends, in both flow-control
// modes, on corner sizes and random entries.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "Vdecoder.h"
#include "ni/decoder.hpp"
#include "support/clocked.hpp"

namespace mt::tb {
namespace {

constexpr uint32_t kNodeW = 8, kK = 4, kNil = (1u << kNodeW) - 1;

class DecoderTest : public ::testing::Test {
 protected:
  // Drives the RTL with `e` and compares with the SystemC decoder configured for `fc`.
  void check(const TableEntry& e, noc::FlowControl fc) {
    noc::NiConfig cfg;  // packet payload 256, NI buffer 318: the RTL's defaults
    cfg.flow_control = fc;
    noc::Decoder golden("decoder", cfg);
    noc::Decoded want;
    golden.decode(e, want);

    m_.op_i = static_cast<uint8_t>(e.op);
    m_.parent_i = static_cast<uint8_t>(e.parent == mt::kNil ? kNil : e.parent);
    uint32_t children = 0;
    for (uint32_t k = 0; k < kK; ++k) {
      const uint32_t c = k < e.children.size() ? e.children[k] : kNil;
      children |= c << (kNodeW * k);
    }
    m_.children_i = children;
    m_.size_i = static_cast<uint32_t>(e.size);
    m_.packet_mode_i = fc == noc::FlowControl::kPacket;
    m_.eval();

    ASSERT_EQ(m_.lockstep_cycles_o, want.lockstep_cycles) << "size " << e.size;
    std::vector<uint32_t> dests;
    for (uint32_t k = 0; k < kK; ++k) {
      if ((m_.send_o >> k) & 1u) dests.push_back((m_.dest_o >> (kNodeW * k)) & kNil);
    }
    ASSERT_EQ(dests.size(), want.sends.size());
    for (size_t i = 0; i < dests.size(); ++i) ASSERT_EQ(dests[i], want.sends[i].dest);
  }

  VerilatedContext ctx_;
  Vdecoder m_{&ctx_};
};

TEST_F(DecoderTest, NopStepTimeAtTheFlitAndBufferBoundaries) {
  for (auto fc : {noc::FlowControl::kMessage, noc::FlowControl::kPacket}) {
    for (uint64_t size : {0u, 1u, 4u, 15u, 16u, 17u, 255u, 256u, 257u, 4080u, 4096u, 5072u,
                          5088u, 5104u, 65536u, 1u << 20, 0xFFFFFFF0u, 0xFFFFFFFFu}) {
      TableEntry e;
      e.op = Op::kNop;
      e.size = size;
      check(e, fc);
    }
  }
}

TEST_F(DecoderTest, ReducesSendToTheParentAndGathersToEveryChild) {
  TableEntry r;
  r.op = Op::kReduce;
  r.parent = 7;
  r.children = {1, 2, 3};
  check(r, noc::FlowControl::kMessage);
  r.parent = mt::kNil;  // a terminal Reduce sends nothing
  check(r, noc::FlowControl::kMessage);
  TableEntry g;
  g.op = Op::kGather;
  g.parent = 3;
  for (size_t n = 0; n <= kK; ++n) {
    g.children.assign({9, 10, 11, 12});
    g.children.resize(n);
    check(g, noc::FlowControl::kPacket);
  }
  TableEntry put = g;  // a Put sends as a Gather does; with no children it only waits
  put.op = Op::kPut;
  for (size_t n = 0; n <= kK; ++n) {
    put.children.assign({4, 5, 6, 8});
    put.children.resize(n);
    check(put, noc::FlowControl::kMessage);
  }
}

TEST_F(DecoderTest, RandomEntriesDecodeAlike) {
  std::mt19937 rng(5);
  for (int i = 0; i < 100000; ++i) {
    TableEntry e;
    e.op = static_cast<Op>(rng() % 4);  // NOP, Reduce, Gather, Put
    e.parent = rng() % 4 == 0 ? mt::kNil : static_cast<uint32_t>(rng() % kNil);
    const uint32_t n = static_cast<uint32_t>(rng() % (kK + 1));
    for (uint32_t k = 0; k < n; ++k) e.children.push_back(static_cast<uint32_t>(rng() % kNil));
    e.size = rng() % 2 ? rng() % 20000 : rng();
    check(e, rng() % 2 ? noc::FlowControl::kPacket : noc::FlowControl::kMessage);
    if (HasFatalFailure()) return;
  }
}

}  // namespace
}  // namespace mt::tb
