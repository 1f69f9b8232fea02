// CycleClock: cycles() is floor(time / period) for every time, with or without the divide it
// avoids: at cycle edges and one unit either side, at random times, near 2^53 (where the double
// stops being exact) and up to 2^64 - 1; time_of() inverts it at cycle edges; DelayCycles
// converts a remembered delay as a fresh one.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>

#include "scheduler/cycle_clock.hpp"

namespace mt::noc {
namespace {

TEST(CycleClock, CyclesIsTheFloorOfTimeOverThePeriod) {
  std::mt19937_64 rng(3);
  for (const uint64_t clock_ps : {1000u, 1250u, 333u, 7u, 1u}) {
    const CycleClock clock(clock_ps);
    const uint64_t p = clock.period();
    ASSERT_GT(p, 0u);
    auto check = [&](uint64_t v) { ASSERT_EQ(clock.cycles(v), v / p) << v << " / " << p; };
    for (uint64_t k = 0; k < 2000; ++k) {
      const uint64_t edge = k * p;
      check(edge);
      check(edge + 1);
      if (edge > 0) check(edge - 1);
      EXPECT_EQ(clock.cycles(clock.time_of(k)), k);
    }
    for (int i = 0; i < 20000; ++i) {
      check(rng());                     // anywhere in 64 bits
      check(rng() >> 11);               // below 2^53
      check((uint64_t{1} << 53) - 1 - (rng() % 4096));
      check((uint64_t{1} << 53) + (rng() % 4096));
    }
    check(std::numeric_limits<uint64_t>::max());
  }
}

// DelayCycles remembers the last delay it converted: repeated, alternating and new delays
// (including zero, its starting memo) all give the floor.
TEST(CycleClock, RememberedDelaysConvertLikeFreshOnes) {
  const CycleClock clock(1250);
  DelayCycles delay_cycles;
  const uint64_t p = clock.period();
  const uint64_t values[] = {0, 150 * p, 150 * p, 4 * p + 1, 150 * p, 0, p - 1, p, 3 * p - 1,
                             3 * p - 1, 0};
  for (const uint64_t v : values) {
    EXPECT_EQ(delay_cycles(clock, sc_core::sc_time::from_value(v)), v / p) << v;
  }
}

}  // namespace
}  // namespace mt::noc
