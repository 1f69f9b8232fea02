// rtl/ejection_decoder.sv against the SystemC EjectionDecoder (systemc/ni/ejection_decoder.hpp) on
// one ejection port: messages and packets from the SystemC flit encoder, as the receiver sees them
// (Next and Eject swapped by the source router), interleaved flit by flit over the VCs at random;
// every flit gives the same block (message, address, bytes, completion) and the same idle state.
// A flit is on the RTL's pins a cycle before it is decoded (its input register), and flits come
// back to back, on one VC too: what the RTL registers with a flit on arrival (whether it takes a
// slot and a record) meets the VC state the flit before it leaves.
// Every flit also offers a block slot (slot_i) and a record (rec_i, a different one each time): a
// block's first payload flit takes the slot as the SystemC decoder takes one, the first block of a
// message asks for the record too (rec_want_o) and the message's later blocks give that record back
// (msg_rec_o), and the payload flits the RTL writes into its slots (wr_o) hold the block's bytes
// when it ends. Protocol errors the SystemC decoder throws on set error_o (among them a packet
// longer than its size: a non-tail flit with its last byte, and a head address that is not a
// multiple of 16).
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <map>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "Vejection_decoder.h"
#include "flit/flit.hpp"
#include "ni/ejection_decoder.hpp"
#include "ni/flit_encoder.hpp"
#include "router/router.hpp"
#include "support/clocked.hpp"

namespace mt::tb {
namespace {

constexpr uint32_t kNodeW = 8, kVcs = 4, kPktMsgs = 4, kNode = 6;
// The receiver's neighbours across y-, y+, x-, x+ (port codes 1..4): none across y-, as at a
// mesh edge.
const std::array<uint32_t, noc::kPorts> kNeighbour = {noc::Router::kNoNeighbour,
                                                     noc::Router::kNoNeighbour, 10, 5, 7};

class Receiver {
 public:
  Receiver() : golden_("ejection", kNode, kNeighbour, config(), kPktMsgs) {
    uint32_t nb = 0;
    for (uint32_t p = 1; p < noc::kPorts; ++p) nb |= (kNeighbour[p] & 0xFFu) << (kNodeW * (p - 1));
    dut_->neighbour_i = nb;
    dut_.reset();
  }
  static noc::NocConfig config() {
    noc::NocConfig c;
    c.vcs = kVcs;
    c.ni_ports = 1;
    return c;
  }
  // One cycle: the flit goes onto the RTL's pins (its input register takes it at the edge) and
  // the flit that arrived a cycle before is decoded on both sides and compared. idle() puts no
  // flit on the pins (and decodes the one in the register).
  void flit(const noc::Flit& f) { cycle(&f); }
  void idle() { cycle(nullptr); }
  // Puts one flit on the RTL's pins (its VC, type and data), not yet clocked.
  void drive(const noc::Flit& f) {
    const noc::WireFlit w = noc::pack(f);
    dut_->flit_i = 1;
    dut_->type_i = static_cast<uint8_t>(w.type);
    dut_->vc_i = w.vc;
    for (int k = 0; k < 4; ++k) dut_->data_i[k] = w.data[k];
  }
  // One flit through the RTL alone: on the pins for a cycle, decoded in the next.
  void push(const noc::Flit& f) {
    drive(f);
    dut_.tick();
    dut_->flit_i = 0;
    dut_.tick();
    dut_.settle();
  }
  uint64_t blocks = 0, messages = 0;  // compared so far
  Clocked<Vejection_decoder>& dut() { return dut_; }
  noc::EjectionDecoder& golden() { return golden_; }

 private:
  void cycle(const noc::Flit* next) {
    if (next != nullptr) {
      drive(*next);
    } else {
      dut_->flit_i = 0;
    }
    offered_ = (offered_ + 7) % 32;  // MSG_W = 5
    dut_->rec_i = static_cast<uint8_t>(offered_);
    offered_slot_ = (offered_slot_ + 5) % 128;  // SLOT_W = 7
    dut_->slot_i = static_cast<uint8_t>(offered_slot_);
    dut_->slot_ok_i = 1;
    dut_.settle();
    if (pending_) decode(*pending_);
    if (::testing::Test::HasFatalFailure()) return;
    dut_.tick();
    dut_.settle();
    ASSERT_EQ(dut_->idle_o, golden_.open_messages() == 0);
    ASSERT_FALSE(dut_->error_o);
    pending_ = next != nullptr ? std::optional<noc::Flit>(*next) : std::nullopt;
  }
  // The flit in the RTL's input register, decoded in this cycle on both sides.
  void decode(const noc::Flit& f) {
    noc::ReceivedBlock b;
    bool took = false;
    uint64_t took_key = 0;
    const auto take = [&](uint32_t, Op op, uint32_t flow, uint32_t sender) {
      took = true;
      took_key = key(op, flow, sender);
      return offered_slot_;
    };
    const bool block = golden_.consume(f, 0, b, take);
    ASSERT_EQ(dut_->slot_want_o, took) << f.str();
    if (took) check_record(took_key);
    if (dut_->wr_o) write_lane();
    ASSERT_EQ(dut_->block_o, block) << f.str();
    blocks += block;
    messages += block && b.message_done;
    if (block && b.message_done) records_.erase(key(b.op, b.flow, b.sender));
    if (!block) return;
    ASSERT_EQ(dut_->block_op_o, static_cast<uint32_t>(b.op));
    ASSERT_EQ(dut_->block_flow_o, b.flow);
    ASSERT_EQ(dut_->block_sender_o, b.sender);
    ASSERT_EQ(dut_->block_addr_o, b.addr);
    ASSERT_EQ(dut_->block_len_o, b.data.size());
    ASSERT_EQ(dut_->block_done_o, b.message_done);
    ASSERT_EQ(dut_->block_slot_o, b.slot);
    const std::vector<uint8_t>& got = slots_[b.slot];
    for (size_t i = 0; i < b.data.size(); ++i) {
      ASSERT_EQ(got[i], b.data[i]) << "block byte " << i << " in slot " << b.slot;
    }
  }
  static uint64_t key(Op op, uint32_t flow, uint32_t sender) {
    return (uint64_t{static_cast<uint8_t>(op)} << 40) | (uint64_t{flow} << 20) | sender;
  }
  // A message's first block takes the record offered with its slot; the others give it back.
  void check_record(uint64_t key) {
    const auto it = records_.find(key);
    ASSERT_EQ(dut_->rec_want_o, it == records_.end()) << "rec_want_o";
    if (it == records_.end()) {
      records_[key] = offered_;
    } else {
      ASSERT_EQ(dut_->msg_rec_o, it->second) << "msg_rec_o";
    }
  }

  // The payload flit the RTL writes in this cycle, into its lane of its block slot.
  void write_lane() {
    std::vector<uint8_t>& slot = slots_[dut_->wr_slot_o];
    slot.resize(256);
    for (uint32_t i = 0; i < 16; ++i) {
      const uint32_t word = dut_->wr_data_o[i / 4];
      slot[16 * dut_->wr_lane_o + i] = static_cast<uint8_t>(word >> (8 * (i % 4)));
    }
  }

  Clocked<Vejection_decoder> dut_;
  noc::EjectionDecoder golden_;
  uint32_t offered_ = 0, offered_slot_ = 0;
  std::optional<noc::Flit> pending_;  // the flit in the RTL's input register
  std::map<uint32_t, std::vector<uint8_t>> slots_;  // the block slots' data, as written
  std::map<uint64_t, uint32_t> records_;  // the record of each message being received
};

// A send to kNode, as its flits arrive: one unit per message, one per packet.
std::vector<std::vector<noc::Flit>> units_of(bool message, uint32_t from_port, uint32_t src,
                                            Op op, uint32_t flow, uint64_t bytes,
                                            std::mt19937& rng) {
  noc::NocConfig noc;
  noc::NiConfig ni;
  noc::FlitEncoder enc("encoder", src, noc, ni);
  noc::SendJob job;
  // Sends start on the 16-byte grain, most of them inside a 256-byte line: their blocks are cut
  // at the line's end.
  job.request = {kNode, op, flow, 0x4000 + 0x1000 * flow + 16 * (flow % 16), bytes};
  job.route.source_routed = message;
  // The sender's output port towards us is the opposite of the port it sits across; after the
  // source router's swap, Eject carries it.
  job.route.next = message ? noc::local_port(0) : 0;
  job.route.eject = message ? noc::opposite_port(static_cast<uint8_t>(from_port)) : 0;
  std::vector<uint8_t> data(bytes);
  for (uint8_t& b : data) b = static_cast<uint8_t>(rng());
  std::vector<noc::Flit> flits;
  enc.encode(job, 0, data.data(), bytes, flits);
  std::vector<std::vector<noc::Flit>> units;
  for (const noc::Flit& f : flits) {
    if (noc::is_head(f.type)) units.emplace_back();
    units.back().push_back(f);
  }
  return units;
}

TEST(EjectionDecoder, InterleavedMessagesAndPacketsGiveTheSameBlocks) {
  std::mt19937 rng(4);
  Receiver rx;
  uint32_t next_flow = 0;
  for (int batch = 0; batch < 60; ++batch) {
    // Per VC, the units it carries in order; packets of one message spread over the VCs.
    std::array<std::deque<std::vector<noc::Flit>>, kVcs> vcs;
    uint32_t packet_messages = 0;
    for (int s = 0; s < 6; ++s) {
      const bool message = rng() % 2 == 0 || packet_messages == kPktMsgs;
      if (!message) ++packet_messages;
      const uint32_t port = 1 + static_cast<uint32_t>(rng() % 4);
      if (message && kNeighbour[port] == noc::Router::kNoNeighbour) continue;
      const uint64_t bytes = 4 * (rng() % 700);
      const Op op = static_cast<Op>(1 + rng() % 3);  // Reduce, Gather or Put
      const uint32_t src = message ? kNeighbour[port] : static_cast<uint32_t>(rng() % 200);
      auto units = units_of(message, port, src, op, next_flow++ % 250, bytes, rng);
      if (message) {
        vcs[rng() % kVcs].push_back(units.front());
      } else {
        for (auto& u : units) vcs[rng() % kVcs].push_back(std::move(u));
      }
    }
    for (auto& q : vcs) {
      for (auto& u : q) {
        for (noc::Flit& f : u) f.vc = static_cast<uint8_t>(&q - vcs.data());
      }
    }
    while (std::any_of(vcs.begin(), vcs.end(), [](const auto& q) { return !q.empty(); })) {
      if (rng() % 5 == 0) {
        rx.idle();
        continue;
      }
      auto& q = vcs[rng() % kVcs];
      if (q.empty()) continue;
      rx.flit(q.front().front());
      ASSERT_FALSE(::testing::Test::HasFatalFailure()) << "batch " << batch;
      q.front().erase(q.front().begin());
      if (q.front().empty()) q.pop_front();
    }
  }
  rx.idle();
  EXPECT_GT(rx.messages, 250u);  // about 6 a batch, packet and message mode
  EXPECT_GT(rx.blocks, 1000u);
  RecordProperty("blocks", static_cast<int>(rx.blocks));
}

// The packet table holds PKT_MSGS open packet-mode messages (NiConfig::packet_messages): the
// first packet of one more message raises error_o where the SystemC decoder throws naming the
// bound.
TEST(EjectionDecoder, OneMoreOpenPacketMessageThanTheTableIsAnErrorOnBothSides) {
  std::mt19937 rng(12);
  Receiver rx;
  for (uint32_t flow = 0; flow < kPktMsgs; ++flow) {
    // The first of two packets: the VC closes, the message stays open.
    const auto units = units_of(false, 0, 5, Op::kReduce, flow, 512, rng);
    for (const noc::Flit& f : units.front()) rx.flit(f);
  }
  rx.idle();
  ASSERT_EQ(rx.golden().open_messages(), kPktMsgs);
  const auto units = units_of(false, 0, 5, Op::kReduce, kPktMsgs, 512, rng);
  const noc::Flit head = units.front().front();
  noc::ReceivedBlock b;
  try {
    rx.golden().consume(head, 0, b);
    ADD_FAILURE() << "the SystemC decoder opened a message past its bound";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("NiConfig::packet_messages"), std::string::npos)
        << e.what();
  }
  rx.push(head);
  EXPECT_TRUE(rx.dut()->error_o);
}

TEST(EjectionDecoder, ProtocolErrorsRaiseError) {
  std::mt19937 rng(8);
  Receiver rx;
  // A body flit on a VC with nothing open.
  noc::Flit body;
  body.type = noc::FlitType::kSubBody;
  body.vc = 1;
  rx.push(body);
  EXPECT_TRUE(rx.dut()->error_o);
  // A message head from the port with no neighbour (y-).
  rx.dut()->start_i = 1;
  rx.dut().tick();
  rx.dut()->start_i = 0;
  rx.dut().settle();
  EXPECT_FALSE(rx.dut()->error_o);
  auto units = units_of(true, noc::kPortYMinus, 0, Op::kReduce, 1, 64, rng);
  rx.push(units.front().front());
  EXPECT_TRUE(rx.dut()->error_o);
  // A packet of 20 bytes whose second body flit, with its last 4 bytes, is not its tail.
  rx.dut()->start_i = 1;
  rx.dut().tick();
  rx.dut()->start_i = 0;
  noc::Flit phead;
  phead.type = noc::FlitType::kHead;
  phead.op = static_cast<uint8_t>(Op::kReduce);
  phead.src = 5;
  phead.message_bytes = 20;
  phead.packet_bytes = 20;
  noc::Flit pbody;
  pbody.type = noc::FlitType::kBody;
  for (const noc::Flit& f : {phead, pbody, pbody}) {
    rx.dut().settle();
    EXPECT_FALSE(rx.dut()->error_o);
    rx.drive(f);  // VC 0
    rx.dut().tick();
  }
  rx.dut()->flit_i = 0;
  rx.dut().tick();  // the last flit decoded
  rx.dut().settle();
  EXPECT_TRUE(rx.dut()->error_o);
  // A packet head whose address is not a multiple of a flit's 16 payload bytes, on both sides.
  rx.dut()->start_i = 1;
  rx.dut().tick();
  rx.dut()->start_i = 0;
  rx.dut().settle();
  EXPECT_FALSE(rx.dut()->error_o);
  phead.addr = 0x4008;
  noc::ReceivedBlock b;
  EXPECT_THROW(rx.golden().consume(phead, 0, b), std::runtime_error);
  rx.push(phead);
  EXPECT_TRUE(rx.dut()->error_o);
}

}  // namespace
}  // namespace mt::tb
