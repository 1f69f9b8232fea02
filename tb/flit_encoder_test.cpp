// rtl/flit_encoder.sv, from the descriptor rtl/burst_descriptor.sv makes of a burst
// (tb/flit_encoder_tb.sv), against the SystemC FlitEncoder (systemc/ni/flit_encoder.hpp): the
// same send, burst by burst, gives the same flits in the same order, compared on the wire
// (systemc/flit/flit.hpp pack(): type and 128 data bits), in message and packet mode,
// including zero-byte sends, partial last flits and multi-hop normal packets; the count
// rtl/flit_count.sv gives before the read and the flits a packet head reserves agree.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "Vflit_encoder.h"
#include "flit/flit.hpp"
#include "ni/flit_encoder.hpp"
#include "support/clocked.hpp"

namespace mt::tb {
namespace {

constexpr uint32_t kBurst = 256;

class FlitEncoderTest : public ::testing::Test {
 protected:
  // Encodes the whole send burst by burst on both sides and compares every flit.
  void check(const noc::SendJob& job, uint32_t node, std::mt19937& rng) {
    noc::NocConfig noc;
    noc::NiConfig ni;
    noc::FlitEncoder golden("encoder", node, noc, ni);
    std::vector<uint8_t> data(job.request.bytes);
    for (uint8_t& b : data) b = static_cast<uint8_t>(rng());
    const uint64_t bytes = job.request.bytes;
    uint64_t flits = 0;
    for (uint64_t off = 0; off < bytes || (off == 0 && bytes == 0); off += kBurst) {
      const uint64_t len = std::min<uint64_t>(kBurst, bytes - off);
      std::vector<noc::Flit> want;
      golden.encode(job, off, data.data() + off, len, want);
      drive(job, node, off, len, data, rng);
      m_.index_i = 0;
      m_.eval();
      ASSERT_EQ(m_.count_o, want.size()) << "burst at " << off;
      ASSERT_EQ(m_.fetch_count_o, want.size()) << "burst at " << off;
      if (want.front().type == noc::FlitType::kHead) {
        ASSERT_EQ(m_.packet_flits_o, want.front().length) << "burst at " << off;
      }
      ASSERT_EQ(golden.flits(job, off, len), want.size());
      for (uint32_t i = 0; i < want.size(); ++i) {
        m_.index_i = static_cast<uint8_t>(i);
        m_.eval();
        const noc::WireFlit w = noc::pack(want[i]);
        ASSERT_EQ(m_.type_o, static_cast<uint32_t>(w.type)) << "burst at " << off << ", flit " << i;
        for (int k = 0; k < 4; ++k) {
          ASSERT_EQ(m_.data_o[k], w.data[k]) << "burst at " << off << ", flit " << i << ", word " << k;
        }
      }
      flits += want.size();
      if (bytes == 0) break;
    }
    EXPECT_EQ(flits, golden.flits(job));
  }

  void drive(const noc::SendJob& job, uint32_t node, uint64_t off, uint64_t len,
             const std::vector<uint8_t>& data, std::mt19937& rng) {
    m_.message_i = job.route.source_routed;
    m_.next_i = job.route.next;
    m_.eject_i = job.route.eject;
    m_.dest_i = static_cast<uint8_t>(job.request.dest);
    m_.src_i = static_cast<uint8_t>(node);
    m_.tree_i = static_cast<uint8_t>(job.request.flow);
    m_.op_i = static_cast<uint8_t>(job.request.op);
    m_.addr_i = static_cast<uint32_t>(job.request.addr);
    m_.bytes_i = static_cast<uint32_t>(job.request.bytes);
    m_.offset_i = static_cast<uint32_t>(off);
    m_.len_i = static_cast<uint32_t>(len);
    for (uint32_t w = 0; w < kBurst / 4; ++w) {
      uint32_t v = 0;
      for (uint32_t b = 0; b < 4; ++b) {
        const uint64_t at = off + 4 * w + b;
        // Bytes past the burst are garbage: the RTL must not let them through.
        const uint8_t byte = 4 * w + b < len ? data[at] : static_cast<uint8_t>(rng());
        v |= uint32_t{byte} << (8 * b);
      }
      m_.data_i[w] = v;
    }
  }

  VerilatedContext ctx_;
  Vflit_encoder m_{&ctx_};
};

noc::SendJob make_job(bool message, uint64_t bytes, uint32_t dest, Op op, uint32_t flow) {
  noc::SendJob j;
  j.request = {dest, op, flow, 0x10000 + 64 * flow, bytes};
  j.route.source_routed = message;
  j.route.next = message ? noc::kPortXPlus : 0;
  j.route.eject = message ? noc::local_port(2) : 0;
  j.id = 1;
  return j;
}

TEST_F(FlitEncoderTest, MessagesAndPacketsAtEverySizeBoundary) {
  std::mt19937 rng(1);
  for (bool message : {true, false}) {
    for (uint64_t bytes : {0u, 4u, 12u, 16u, 20u, 240u, 252u, 256u, 260u, 496u, 512u, 1000u,
                           4096u, 4100u, 65536u}) {
      SCOPED_TRACE(::testing::Message() << (message ? "message " : "packets ") << bytes);
      check(make_job(message, bytes, 9, Op::kReduce, 3), 5, rng);
    }
  }
}

TEST_F(FlitEncoderTest, RandomSendsEncodeAlike) {
  std::mt19937 rng(2);
  for (int i = 0; i < 400; ++i) {
    const bool message = rng() % 2;
    const uint64_t bytes = 4 * (rng() % 3000);
    const auto dest = static_cast<uint32_t>(rng() % 255);
    const Op op = rng() % 2 ? Op::kReduce : Op::kGather;
    const auto flow = static_cast<uint32_t>(rng() % 255);
    SCOPED_TRACE(i);
    check(make_job(message, bytes, dest, op, flow), static_cast<uint32_t>(rng() % 255), rng);
    if (HasFatalFailure()) return;
  }
}

}  // namespace
}  // namespace mt::tb
