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
  // A sub-tail ends a reservation, not the message: the VC stays allocated.
  EXPECT_TRUE(ends_reservation(FlitType::kSubTail) && !is_tail(FlitType::kSubTail));
  EXPECT_TRUE(is_tail(FlitType::kSubMessageTail) && is_subpacket(FlitType::kSubMessageTail));
  EXPECT_FALSE(is_subpacket(FlitType::kTail));
  EXPECT_STREQ(flit_type_name(FlitType::kSubTail), "sub-tail");
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
