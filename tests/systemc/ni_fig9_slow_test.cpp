// Fig. 9 (a): the bandwidth order of the algorithms on 4x4 and 8x8 tori from 64 KiB to 1 MiB.
#include <string>

#include "fig9.hpp"

namespace mt::noc {
namespace {

class Fig9 : public ::testing::TestWithParam<std::pair<const char*, uint64_t>> {};

// With the default HBM-like memory; ring is latency-bound at 64 KiB on 8x8 (fig9.hpp).
TEST_P(Fig9, TorusOrderHolds) {
  const bool small_8x8 = std::string(GetParam().first) == "torus:8x8" && GetParam().second < (256u << 10);
  test::expect_fig9_order(GetParam().first, GetParam().second, MemoryConfig{}.latency, !small_8x8);
}

// Without memory latency, as the paper's simulator: the whole order holds everywhere.
TEST_P(Fig9, TorusOrderHoldsWithoutMemoryLatency) {
  test::expect_fig9_order(GetParam().first, GetParam().second, 0);
}

INSTANTIATE_TEST_SUITE_P(
    Torus, Fig9,
    ::testing::Values(std::make_pair("torus:4x4", uint64_t{64} << 10),
                      std::make_pair("torus:4x4", uint64_t{256} << 10),
                      std::make_pair("torus:4x4", uint64_t{1} << 20),
                      std::make_pair("torus:8x8", uint64_t{64} << 10),
                      std::make_pair("torus:8x8", uint64_t{256} << 10),
                      std::make_pair("torus:8x8", uint64_t{1} << 20)),
    [](const ::testing::TestParamInfo<Fig9::ParamType>& p) {
      std::string n = std::string(p.param.first).substr(6) + "_" +
                      std::to_string(p.param.second >> 10) + "KiB";
      return n;
    });

}  // namespace
}  // namespace mt::noc
