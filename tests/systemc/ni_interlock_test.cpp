// The NI's read-after-write interlock (ni/interlock.hpp): Reduce blocks queue and are taken one
// a cycle; a block that overlaps a block being reduced or an earlier waiting block waits; waiting blocks go oldest first, one a cycle,
// and only when they overlap nothing before them; partial overlaps (the nested ranges of
// ring2d, halving-doubling and double binary trees) wait as identical ones do; write-backs come
// in read order; both bounds are errors naming their NiConfig field; peaks are counted.
// tb/interlock_test.cpp holds rtl/interlock.sv to the same, cycle by cycle.
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

// A cycle with one new block: it arrives and the interlock takes it; true if it reads now.
bool reads_now(Interlock& lock, uint32_t slot, uint64_t addr, uint64_t bytes) {
  lock.arrive(slot, addr, bytes);
  const std::optional<uint32_t> taken = lock.take();
  EXPECT_EQ(lock.queued(), 0u);
  return taken == slot;
}

TEST(Interlock, BlocksOfOneCycleAreTakenOneACycleInPortOrder) {
  Interlock lock("interlock", 8, 8);
  lock.arrive(3, 0x000, 256);
  lock.arrive(1, 0x100, 256);
  lock.arrive(2, 0x000, 256);  // the same bytes as block 3
  EXPECT_EQ(lock.queued(), 3u);
  EXPECT_EQ(lock.pending(), 3u);
  EXPECT_EQ(lock.take(), 3u);
  EXPECT_EQ(lock.take(), 1u);
  EXPECT_EQ(lock.take(), kNone);  // block 2 waits behind block 3
  EXPECT_EQ(lock.queued(), 0u);
  EXPECT_EQ(lock.pending(), 1u);
  EXPECT_EQ(lock.take(), kNone);  // nothing queued
  lock.write_back(3);
  EXPECT_EQ(lock.release(), 2u);
  EXPECT_EQ(lock.pending(), 0u);
}

TEST(Interlock, DisjointBlocksReadAtOnceIdenticalOnesWait) {
  Interlock lock("interlock", 8, 8);
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

TEST(Interlock, PartialOverlapsWaitLikeIdenticalOnes) {
  Interlock lock("interlock", 8, 8);
  EXPECT_TRUE(reads_now(lock, 0, 0x3000, 256));
  EXPECT_FALSE(reads_now(lock, 1, 0x30f0, 256));  // the same bytes at another block offset
  EXPECT_FALSE(reads_now(lock, 2, 0x2f20, 0xf0)); // ends 16 bytes into block 0
  EXPECT_TRUE(reads_now(lock, 3, 0x2e00, 0x100)); // ends where block 0 starts
  lock.write_back(0);
  // Block 1 goes; block 2 overlaps neither it nor an earlier waiter: it goes the next cycle.
  EXPECT_EQ(lock.release(), 1u);
  EXPECT_EQ(lock.release(), 2u);
  EXPECT_EQ(lock.release(), kNone);
}

TEST(Interlock, AWaiterNeverPassesAnOverlappingEarlierWaiter) {
  Interlock lock("interlock", 8, 8);
  EXPECT_TRUE(reads_now(lock, 0, 0x200, 256));
  EXPECT_TRUE(reads_now(lock, 1, 0x0, 256));
  EXPECT_FALSE(reads_now(lock, 2, 0x80, 0x200));  // overlaps blocks 0 and 1
  EXPECT_FALSE(reads_now(lock, 3, 0x200, 256));   // overlaps block 0 and waiter 2
  lock.write_back(0);
  EXPECT_EQ(lock.release(), kNone);  // 2 still overlaps 1; 3 waits behind 2
  lock.write_back(1);
  EXPECT_EQ(lock.release(), 2u);     // 3 now overlaps 2, which reduces
  EXPECT_EQ(lock.release(), kNone);
  lock.write_back(2);
  EXPECT_EQ(lock.release(), 3u);
}

TEST(Interlock, ARangeEndingAtTheTopOfTheAddressSpaceIsCompared) {
  Interlock lock("interlock", 8, 8);
  EXPECT_TRUE(reads_now(lock, 0, ~0ull - 255, 256));  // ends exactly at 2^64
  EXPECT_FALSE(reads_now(lock, 1, ~0ull - 15, 16));
  EXPECT_TRUE(reads_now(lock, 2, 0, 16));
}

TEST(Interlock, MoreWaitingThanTheBoundIsAnErrorNamingIt) {
  Interlock lock("interlock", 8, 2);
  EXPECT_TRUE(reads_now(lock, 0, 0x100, 64));
  EXPECT_FALSE(reads_now(lock, 1, 0x100, 64));
  EXPECT_FALSE(reads_now(lock, 2, 0x100, 64));
  EXPECT_NO_THROW(lock.release());
  EXPECT_FALSE(reads_now(lock, 3, 0x100, 64));
  try {
    lock.release();
    FAIL() << "three waiting blocks passed a bound of two";
  } catch (const std::runtime_error& e) {
    EXPECT_THAT(e.what(), HasSubstr("NiConfig::waiting_blocks"));
    EXPECT_THAT(e.what(), HasSubstr("3 Reduce blocks wait"));
  }
}

TEST(Interlock, MoreBeingReducedThanTheBoundIsAnErrorNamingIt) {
  Interlock lock("interlock", 2, 8);
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
  Interlock lock("interlock", 8, 2);
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
