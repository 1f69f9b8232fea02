// The NI's read-after-write interlock (ni/interlock.hpp): Reduce blocks queue and are taken one
// a cycle, from the cycle after they arrive; a block of a line that a block being reduced lies in waits, whatever its bytes;
// the blocks of one line go in arrival order, one at each write-back of the line; a block
// across a line is refused; write-backs come in read order; the bound of blocks being reduced
// is an error naming its NiConfig field; peaks are counted. tb/interlock_test.cpp holds rtl/interlock.sv to
// the same, cycle by cycle.
#include <optional>
#include <stdexcept>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "ni/interlock.hpp"

namespace mt::noc {
namespace {

using ::testing::HasSubstr;

constexpr std::optional<uint32_t> kNone;

// Two cycles: a new block arrives, and the interlock takes it in the next cycle; true if it
// reads then.
bool reads_now(Interlock& lock, uint32_t slot, uint64_t addr, uint64_t bytes) {
  lock.arrive(slot, addr, bytes);
  EXPECT_EQ(lock.take(), kNone);  // not in the cycle it arrives
  EXPECT_EQ(lock.queued(), 1u);
  const std::optional<uint32_t> taken = lock.take();
  EXPECT_EQ(lock.queued(), 0u);
  return taken == slot;
}

TEST(Interlock, BlocksOfOneCycleAreTakenOneACycleInPortOrderFromTheNext) {
  Interlock lock("interlock", 8);
  lock.arrive(3, 0x000, 256);
  lock.arrive(1, 0x100, 256);
  lock.arrive(2, 0x000, 256);  // the same bytes as block 3
  EXPECT_EQ(lock.queued(), 3u);
  EXPECT_EQ(lock.pending(), 3u);
  EXPECT_EQ(lock.take(), kNone);  // the cycle they arrive in
  EXPECT_EQ(lock.take(), 3u);
  lock.arrive(4, 0x200, 256);     // joins behind blocks 1 and 2
  EXPECT_EQ(lock.take(), 1u);
  EXPECT_EQ(lock.take(), kNone);  // block 2 waits behind block 3
  EXPECT_EQ(lock.take(), 4u);
  EXPECT_EQ(lock.queued(), 0u);
  EXPECT_EQ(lock.pending(), 1u);
  EXPECT_EQ(lock.take(), kNone);  // nothing queued
  lock.write_back(3);
  EXPECT_EQ(lock.release(), 2u);
  EXPECT_EQ(lock.pending(), 0u);
}

TEST(Interlock, DisjointBlocksReadAtOnceIdenticalOnesWait) {
  Interlock lock("interlock", 8);
  EXPECT_TRUE(reads_now(lock, 0, 0x1100, 256));
  EXPECT_TRUE(reads_now(lock, 1, 0x1000, 256));   // ends where block 0 starts
  EXPECT_FALSE(reads_now(lock, 2, 0x1000, 256));  // another child's block of the same bytes
  EXPECT_EQ(lock.pending(), 1u);
  EXPECT_EQ(lock.release(), kNone);  // nothing wrote back yet
  lock.write_back(0);
  EXPECT_EQ(lock.release(), kNone);  // block 1 still reduces its bytes
  lock.write_back(1);
  EXPECT_EQ(lock.release(), 2u);
  EXPECT_EQ(lock.pending(), 0u);
  EXPECT_EQ(lock.peak_reducing(), 2u);
  EXPECT_EQ(lock.peak_waiting(), 1u);
}

TEST(Interlock, BlocksOfOneLineWaitWhateverTheirBytes) {
  Interlock lock("interlock", 8);
  EXPECT_TRUE(reads_now(lock, 0, 0x3000, 64));
  EXPECT_FALSE(reads_now(lock, 1, 0x3080, 64));   // disjoint bytes, the same line
  EXPECT_FALSE(reads_now(lock, 2, 0x3000, 256));  // the whole line
  EXPECT_EQ(lock.release(), kNone);  // the end of its cycle: two wait
  EXPECT_TRUE(reads_now(lock, 3, 0x2f00, 256));   // the line before
  lock.write_back(0);
  EXPECT_EQ(lock.release(), 1u);     // the next of the line's chain, at its write-back
  EXPECT_EQ(lock.release(), kNone);  // block 2 waits behind block 1
  lock.write_back(3);
  EXPECT_EQ(lock.release(), kNone);
  lock.write_back(1);
  EXPECT_EQ(lock.release(), 2u);
  lock.write_back(2);
  EXPECT_EQ(lock.release(), kNone);
  EXPECT_EQ(lock.pending(), 0u);
  EXPECT_EQ(lock.peak_waiting(), 2u);
}

TEST(Interlock, ABlockTakenInItsLinesWriteBackCycleReadsAfterIt) {
  Interlock lock("interlock", 8);
  EXPECT_TRUE(reads_now(lock, 0, 0x500, 256));
  EXPECT_FALSE(reads_now(lock, 1, 0x500, 256));  // taken before the cycle's write-back
  lock.write_back(0);
  EXPECT_EQ(lock.release(), 1u);
  EXPECT_FALSE(reads_now(lock, 2, 0x500, 16));   // the line is being reduced again
  EXPECT_EQ(lock.peak_reducing(), 1u);
}

TEST(Interlock, ABlockAcrossALineIsRefused) {
  Interlock lock("interlock", 8);
  EXPECT_THROW(lock.arrive(0, 0xf0, 32), std::logic_error);
  EXPECT_THROW(lock.arrive(0, 0x100, 0), std::logic_error);
  EXPECT_NO_THROW(lock.arrive(0, 0x1f0, 16));
}

TEST(Interlock, ARangeEndingAtTheTopOfTheAddressSpaceIsCompared) {
  Interlock lock("interlock", 8);
  EXPECT_TRUE(reads_now(lock, 0, ~0ull - 255, 256));  // ends exactly at 2^64
  EXPECT_FALSE(reads_now(lock, 1, ~0ull - 15, 16));
  EXPECT_TRUE(reads_now(lock, 2, 0, 16));
}

TEST(Interlock, MoreBeingReducedThanTheBoundIsAnErrorNamingIt) {
  Interlock lock("interlock", 2);
  EXPECT_TRUE(reads_now(lock, 0, 0x000, 64));
  EXPECT_TRUE(reads_now(lock, 1, 0x100, 64));
  try {
    reads_now(lock, 2, 0x200, 64);
    FAIL() << "three blocks being reduced passed a bound of two";
  } catch (const std::runtime_error& e) {
    EXPECT_THAT(e.what(), HasSubstr("NiConfig::reducing_blocks"));
  }
}

TEST(Interlock, WriteBacksComeInReadOrder) {
  Interlock lock("interlock", 8);
  EXPECT_TRUE(reads_now(lock, 0, 0x100, 64));
  EXPECT_TRUE(reads_now(lock, 1, 0x200, 64));
  EXPECT_FALSE(reads_now(lock, 2, 0x100, 64));
  EXPECT_THROW(lock.write_back(2), std::logic_error);  // 2 waits; it does not reduce
  EXPECT_THROW(lock.write_back(1), std::logic_error);  // 0 read first
  lock.write_back(0);
  EXPECT_EQ(lock.release(), 2u);
  lock.write_back(1);
  lock.write_back(2);
  EXPECT_EQ(lock.peak_reducing(), 2u);
}

}  // namespace
}  // namespace mt::noc
