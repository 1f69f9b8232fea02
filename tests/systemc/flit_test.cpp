// Flit type codes (paper Table II) and network configuration checks.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <systemc>

#include "common/error.hpp"
#include "flit/flit.hpp"
#include "noc/noc_config.hpp"

namespace mt::noc {
namespace {

TEST(Flit, TypeCodesAreTableII) {
  EXPECT_EQ(static_cast<int>(FlitType::kHead), 0b000);
  EXPECT_EQ(static_cast<int>(FlitType::kBody), 0b001);
  EXPECT_EQ(static_cast<int>(FlitType::kTail), 0b010);
  EXPECT_EQ(static_cast<int>(FlitType::kHeadTail), 0b011);
  EXPECT_EQ(static_cast<int>(FlitType::kSubHead), 0b100);
  EXPECT_EQ(static_cast<int>(FlitType::kSubBody), 0b101);
  EXPECT_EQ(static_cast<int>(FlitType::kSubTail), 0b110);
  EXPECT_EQ(static_cast<int>(FlitType::kSubMessageTail), 0b111);
}

TEST(Flit, HeadsTailsAndReservations) {
  EXPECT_TRUE(is_head(FlitType::kHeadTail) && is_tail(FlitType::kHeadTail));
  EXPECT_TRUE(is_head(FlitType::kSubHead) && !is_tail(FlitType::kSubHead));
  // A sub-tail ends a sub-packet, not the message: the VC stays allocated.
  EXPECT_TRUE(is_subpacket(FlitType::kSubTail) && !is_tail(FlitType::kSubTail));
  EXPECT_TRUE(is_tail(FlitType::kSubMessageTail) && is_subpacket(FlitType::kSubMessageTail));
  EXPECT_FALSE(is_subpacket(FlitType::kTail));
  EXPECT_STREQ(flit_type_name(FlitType::kSubTail), "sub-tail");
}

TEST(Flit, NormalHeadPacksIntoTheDescribedBitsAndBack) {
  Flit f;
  f.type = FlitType::kHead;
  f.vc = 3;
  f.op = 2;
  f.tree = 0xabcd;
  f.dest = 0x1234;
  f.src = 0xfedc;
  f.addr = 0x89abcdef;
  f.message_bytes = 0x76543210;
  f.packet_bytes = 0x3ff0;
  f.next = 4;  // a normal head has no Next/Eject: not on the wire
  const WireFlit w = pack(f);
  EXPECT_EQ(w.type, FlitType::kHead);
  EXPECT_EQ(w.vc, 3u);
  // Bits by hand from format/ni_formats.json: op [1:0], tree [17:2], dest [33:18],
  // src [49:34], addr [81:50], message_bytes [113:82], packet_bytes [127:114].
  EXPECT_EQ(w.data[0], 2u | 0xabcdu << 2 | (0x1234u & 0x3fffu) << 18);
  EXPECT_EQ(w.data[1], 0x1234u >> 14 | 0xfedcu << 2 | (0x89abcdefu & 0x3fffu) << 18);
  EXPECT_EQ(w.data[2], 0x89abcdefu >> 14 | (0x76543210u & 0x3fffu) << 18);
  EXPECT_EQ(w.data[3], 0x76543210u >> 14 | 0x3ff0u << 18);
  Flit back = unpack(w);
  f.next = 0;
  EXPECT_EQ(back, f);
}

TEST(Flit, SubHeadCarriesNextAndEjectInTheRouteBits) {
  Flit f;
  f.type = FlitType::kSubHead;
  f.op = 1;
  f.tree = 7;
  f.next = kPortXPlus;
  f.eject = local_port(3);
  f.addr = 0x4000;
  f.message_bytes = 65536;
  const WireFlit w = pack(f);
  EXPECT_EQ(w.data[0] & 0x3u, 1u);
  EXPECT_EQ(w.data[0] >> 18 & 0x7u, uint32_t{kPortXPlus});
  EXPECT_EQ(w.data[0] >> 21 & 0x7u, uint32_t{local_port(3)});
  EXPECT_EQ(unpack(w), f);
}

TEST(Flit, BodyFlitsCarryTheirPayloadAndHeadFieldsMustFit) {
  Flit body;
  body.type = FlitType::kSubBody;
  body.data = {1, 2, 3, 0xffffffffu};
  EXPECT_EQ(pack(body).data, body.data);
  EXPECT_EQ(unpack(pack(body)), body);
  // A value wider than its field: the model's field types hold the wire widths, so the value
  // is refused where it enters a flit (head_field), or by pack() for a field whose C++ type is
  // wider than its bits (packet_bytes: 14 of 16).
  auto error_of = [](auto&& f) {
    try {
      f();
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_THAT(error_of([] { head_field<uint16_t>(1u << 16, format::flit::kHeadDest); }),
              ::testing::HasSubstr("dest = 65536 does not fit its 16 bits"));
  EXPECT_EQ(head_field<uint16_t>(0xffffu, format::flit::kHeadDest), 0xffffu);
  Flit next;
  EXPECT_THAT(error_of([&next] { next.set_next(8); }), ::testing::HasSubstr("next = 8"));
  Flit head;
  head.type = FlitType::kHead;
  head.packet_bytes = 1u << 14;  // one bit more than the 14-bit packet_bytes field
  EXPECT_THAT(error_of([&head] { pack(head); }), ::testing::HasSubstr("packet_bytes"));
}

TEST(NocConfig, DefaultsAreTableIIIAndBadValuesAreNamed) {
  const NocConfig cfg;
  EXPECT_NO_THROW(cfg.validate());
  EXPECT_EQ(cfg.vcs, 4u);
  EXPECT_EQ(cfg.vc_depth, 318u);
  EXPECT_EQ(cfg.link_latency, 150u);
  EXPECT_FALSE(cfg.wormhole);
  auto error_of = [](NocConfig c) {
    try {
      c.validate();
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  NocConfig c;
  c.vcs = 3;
  EXPECT_THAT(error_of(c), ::testing::HasSubstr("vcs = 3"));
  c = NocConfig{};
  c.subpacket_flits = 400;
  EXPECT_THAT(error_of(c), ::testing::HasSubstr("subpacket_flits = 400"));
  c = NocConfig{};
  c.link_latency = 0;
  EXPECT_THAT(error_of(c), ::testing::HasSubstr("latencies"));
}

}  // namespace
}  // namespace mt::noc
