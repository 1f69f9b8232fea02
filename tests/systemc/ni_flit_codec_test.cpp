// The NI's flit encoder and ejection decoder: Table II types, sub-packet boundaries, head
// fields, and data and senders recovered on the other side.
#include <cstring>
#include <stdexcept>

#include <gtest/gtest.h>

#include "ni/ejection_decoder.hpp"
#include "ni/flit_encoder.hpp"
#include "router/router.hpp"
#include "sim_test_util.hpp"

namespace mt::noc {
namespace {

class NiFlitCodec : public test::SimTest {
 protected:
  NocConfig noc;
  NiConfig ni;
  std::vector<uint8_t> bytes(size_t n, uint8_t seed) {
    std::vector<uint8_t> b(n);
    for (size_t i = 0; i < n; ++i) b[i] = static_cast<uint8_t>(seed + 7 * i);
    return b;
  }
  // Node 5 of a 4x4 torus sends to node 6 (its x+ neighbour) or, in packets, to node 10.
  SendJob job(uint64_t size, bool message) {
    SendJob j;
    j.request = {message ? 6u : 10u, Op::kReduce, 9, 0x1000, size};
    j.route.source_routed = message;
    j.route.next = kPortXPlus;
    j.route.eject = kPortLocal;
    j.id = 42;
    return j;
  }
  // What the receiving router hands its NI: Next and Eject swapped at the source router.
  static std::vector<Flit> as_received(std::vector<Flit> flits) {
    for (Flit& f : flits) {
      if (is_subpacket(f.type)) {
        const uint8_t next = f.next;
        f.next = f.eject;
        f.set_eject(next);
      }
    }
    return flits;
  }
};

TEST_F(NiFlitCodec, MessageHasOneHeadAndSubTailsEverySubPacket) {
  FlitEncoder enc("encoder", 5, noc, ni);
  const auto data = bytes(1000, 1);
  const SendJob j = job(1000, true);
  std::vector<Flit> flits;
  enc.encode(j, 0, data.data(), data.size(), flits);
  const size_t n = 1 + (1000 + 15) / 16;  // head + 63 payload flits
  ASSERT_EQ(flits.size(), n);
  EXPECT_EQ(enc.flits(j), n);
  for (size_t i = 0; i < n; ++i) {
    const FlitType want = i == 0                               ? FlitType::kSubHead
                          : i + 1 == n                         ? FlitType::kSubMessageTail
                          : (i + 1) % noc.subpacket_flits == 0 ? FlitType::kSubTail
                                                               : FlitType::kSubBody;
    EXPECT_EQ(flits[i].type, want) << "flit " << i;
    EXPECT_EQ(flits[i].index, i);
    EXPECT_EQ(flits[i].length, n);
  }
  const Flit& h = flits[0];
  EXPECT_EQ(h.next, kPortXPlus);
  EXPECT_EQ(h.eject, kPortLocal);
  EXPECT_EQ(h.tree, 9u);
  EXPECT_EQ(h.op, static_cast<uint8_t>(Op::kReduce));
  EXPECT_EQ(h.addr, 0x1000u);
  EXPECT_EQ(h.message_bytes, 1000u);
  // The last flit carries the last 8 bytes and zeros.
  EXPECT_EQ(std::memcmp(flits.back().data.data(), data.data() + 992, 8), 0);
  EXPECT_EQ(flits.back().data[2], 0u);
}

TEST_F(NiFlitCodec, PacketsHaveAHeadEvery256Bytes) {
  FlitEncoder enc("encoder", 5, noc, ni);
  const auto data = bytes(1000, 3);
  const SendJob j = job(1000, false);
  std::vector<Flit> flits;
  enc.encode(j, 0, data.data(), data.size(), flits);
  ASSERT_EQ(flits.size(), 4u + 63u);  // 4 packets: 256, 256, 256 and 232 bytes
  EXPECT_EQ(enc.flits(j), flits.size());
  size_t heads = 0;
  for (size_t i = 0; i < flits.size(); ++i) {
    const Flit& f = flits[i];
    if (f.type != FlitType::kHead) continue;
    EXPECT_EQ(f.packet_bytes, heads < 3 ? 256u : 232u);
    EXPECT_EQ(f.addr, 0x1000u + heads * 256);
    EXPECT_EQ(f.dest, 10u);
    EXPECT_EQ(f.src, 5u);
    const size_t payload = heads < 3 ? 16 : 15;
    EXPECT_EQ(f.length, 1 + payload);
    EXPECT_EQ(flits[i + payload].type, FlitType::kTail);
    ++heads;
  }
  EXPECT_EQ(heads, 4u);
}

TEST_F(NiFlitCodec, BurstsEncodeLikeOneCallAndCountRight) {
  FlitEncoder enc("encoder", 5, noc, ni);
  const auto data = bytes(5000, 9);
  for (bool message : {true, false}) {
    const SendJob j = job(5000, message);
    std::vector<Flit> whole, parts;
    enc.encode(j, 0, data.data(), data.size(), whole);
    for (uint64_t at = 0; at < 5000; at += 256) {
      const uint64_t len = std::min<uint64_t>(256, 5000 - at);
      const size_t before = parts.size();
      enc.encode(j, at, data.data() + at, len, parts);
      EXPECT_EQ(parts.size() - before, enc.flits(j, at, len)) << "burst at " << at;
    }
    EXPECT_EQ(parts, whole) << (message ? "message" : "packet");
  }
}

TEST_F(NiFlitCodec, EjectionRecoversDataSenderAndMessageEnd) {
  // Node 6 of a 4x4 torus receives from node 5, its x- neighbour.
  const Topology topo = parse_topology("torus:4x4");
  std::array<uint32_t, kPorts> nb{};
  nb.fill(Router::kNoNeighbour);
  nb[kPortXMinus] = 5;
  nb[kPortXPlus] = 7;
  nb[kPortYMinus] = 2;
  nb[kPortYPlus] = 10;
  FlitEncoder enc("encoder", 5, noc, ni);
  EjectionDecoder dec("ejection", 6, nb, noc, NiConfig{}.packet_messages);
  const auto a = bytes(3000, 1), b = bytes(700, 100);
  std::vector<Flit> fa, fb;
  SendJob ja = job(3000, true);
  SendJob jb = job(700, true);
  jb.request.op = Op::kGather;
  jb.request.flow = 2;
  jb.request.addr = 0x9000;
  enc.encode(ja, 0, a.data(), a.size(), fa);
  enc.encode(jb, 0, b.data(), b.size(), fb);
  fa = as_received(fa);
  fb = as_received(fb);
  for (Flit& f : fa) f.vc = 0;
  for (Flit& f : fb) f.vc = 2;
  // Interleave the two messages flit by flit on one ejection port.
  std::vector<uint8_t> got_a, got_b;
  int done_a = 0, done_b = 0;
  ReceivedBlock blk;
  for (size_t i = 0; i < std::max(fa.size(), fb.size()); ++i) {
    for (const auto* fs : {&fa, &fb}) {
      if (i >= fs->size()) continue;
      if (!dec.consume((*fs)[i], 0, blk)) continue;
      EXPECT_EQ(blk.sender, 5u);
      auto& got = blk.op == Op::kReduce ? got_a : got_b;
      EXPECT_EQ(blk.addr, (blk.op == Op::kReduce ? 0x1000u : 0x9000u) + got.size());
      EXPECT_EQ(blk.flow, blk.op == Op::kReduce ? 9u : 2u);
      got.insert(got.end(), blk.data.begin(), blk.data.end());
      (blk.op == Op::kReduce ? done_a : done_b) += blk.message_done;
      // Blocks end at sub-packet boundaries, so the message is done only with its last.
      EXPECT_EQ(blk.message_done, got.size() == (blk.op == Op::kReduce ? 3000u : 700u));
    }
  }
  EXPECT_EQ(got_a, a);
  EXPECT_EQ(got_b, b);
  EXPECT_EQ(done_a, 1);
  EXPECT_EQ(done_b, 1);
  EXPECT_EQ(dec.open_messages(), 0u);
}

TEST_F(NiFlitCodec, PacketsCompleteTheirMessageInAnyOrder) {
  std::array<uint32_t, kPorts> nb{};
  nb.fill(Router::kNoNeighbour);
  FlitEncoder enc("encoder", 5, noc, ni);
  EjectionDecoder dec("ejection", 10, nb, noc, NiConfig{}.packet_messages);
  const auto a = bytes(1000, 5);
  std::vector<Flit> flits;
  enc.encode(job(1000, false), 0, a.data(), a.size(), flits);
  // Deliver the last packet (232 bytes, 16 flits) first, then the others.
  std::vector<Flit> order(flits.end() - 16, flits.end());
  order.insert(order.end(), flits.begin(), flits.end() - 16);
  std::vector<uint8_t> got(1000);
  ReceivedBlock blk;
  int blocks = 0, done = 0;
  for (const Flit& f : order) {
    if (!dec.consume(f, 0, blk)) continue;
    ++blocks;
    EXPECT_EQ(blk.sender, 5u);
    std::copy(blk.data.begin(), blk.data.end(), got.begin() + static_cast<long>(blk.addr - 0x1000));
    done += blk.message_done;
    EXPECT_EQ(blk.message_done, blocks == 4);
  }
  EXPECT_EQ(got, a);
  EXPECT_EQ(done, 1);
}

TEST_F(NiFlitCodec, EjectionRejectsBrokenStreams) {
  std::array<uint32_t, kPorts> nb{};
  nb.fill(Router::kNoNeighbour);
  nb[kPortXMinus] = 5;
  EjectionDecoder dec("ejection", 6, nb, noc, NiConfig{}.packet_messages);
  ReceivedBlock blk;
  Flit body;
  body.type = FlitType::kSubBody;
  EXPECT_THROW(dec.consume(body, 0, blk), std::runtime_error);  // no head before it
  Flit head;
  head.type = FlitType::kSubHead;
  head.op = static_cast<uint8_t>(Op::kReduce);
  head.message_bytes = 16;
  head.eject = kPortYPlus;  // would come from y-: no neighbour there
  EXPECT_THROW(dec.consume(head, 0, blk), std::runtime_error);
  head.eject = kPortXPlus;  // from node 5
  EXPECT_FALSE(dec.consume(head, 0, blk));
  // 16 bytes fit one flit, which must be the message tail: a body flit leaves no room for it.
  EXPECT_THROW(dec.consume(body, 0, blk), std::runtime_error);
}

// A packet's last byte comes in its tail, so every other payload flit is full: the RTL
// writes a block into its slot a whole flit at a time (rtl/ejection_decoder.sv).
TEST_F(NiFlitCodec, EjectionRejectsAPacketLongerThanItsSize) {
  std::array<uint32_t, kPorts> nb{};
  nb.fill(Router::kNoNeighbour);
  EjectionDecoder dec("ejection", 10, nb, noc, NiConfig{}.packet_messages);
  ReceivedBlock blk;
  Flit head;
  head.type = FlitType::kHead;
  head.op = static_cast<uint8_t>(Op::kReduce);
  head.src = 5;
  head.message_bytes = 20;
  head.packet_bytes = 20;
  EXPECT_FALSE(dec.consume(head, 0, blk));
  Flit body;
  body.type = FlitType::kBody;
  EXPECT_FALSE(dec.consume(body, 0, blk));  // bytes 0 to 15
  try {
    dec.consume(body, 0, blk);  // bytes 16 to 19, yet not the tail
    ADD_FAILURE() << "a body flit with the packet's last byte was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("a packet longer than its size"), std::string::npos)
        << e.what();
  }
}

// Packet-mode messages open at once on one ejection port are bounded as the RTL's table of
// PKT_MSGS (rtl/ejection_decoder.sv): one more is an error naming NiConfig::packet_messages,
// counted per port.
TEST_F(NiFlitCodec, MorePacketMessagesOpenOnAPortThanTheBoundIsAnError) {
  NocConfig two_ports = noc;
  two_ports.ni_ports = 2;
  std::array<uint32_t, kPorts> nb{};
  nb.fill(Router::kNoNeighbour);
  EjectionDecoder dec("ejection", 10, nb, two_ports, 2);
  ReceivedBlock blk;
  auto head = [](uint16_t flow, uint8_t vc) {
    Flit f;
    f.type = FlitType::kHead;
    f.op = static_cast<uint8_t>(Op::kReduce);
    f.src = 5;
    f.tree = flow;
    f.vc = vc;
    f.message_bytes = 512;  // two packets: the first leaves the message open
    f.packet_bytes = 256;
    return f;
  };
  EXPECT_FALSE(dec.consume(head(1, 0), 0, blk));
  EXPECT_FALSE(dec.consume(head(2, 1), 0, blk));
  EXPECT_FALSE(dec.consume(head(3, 0), 1, blk));  // another port has its own table
  EXPECT_EQ(dec.peak_packet_messages(), 2u);
  try {
    dec.consume(head(4, 2), 0, blk);
    ADD_FAILURE() << "a third packet-mode message opened on a port of two";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("NiConfig::packet_messages"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace mt::noc
