// The NI's DMA requester against the accelerator memory: completion cycles follow the memory's
// timing contract, data go both ways, refused accesses become errors naming the access.
#include <stdexcept>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "memory/accel_memory.hpp"
#include "ni/dma_requester.hpp"
#include "sim_test_util.hpp"

namespace mt::noc {
namespace {

using ::testing::HasSubstr;

struct Bench : sc_core::sc_module {
  SC_HAS_PROCESS(Bench);
  explicit Bench(sc_core::sc_module_name name, MemoryConfig cfg)
      : sc_module(name), memory("memory", cfg), dma("dma", cfg.clock_ps) {
    dma.mem.bind(memory.port);
    SC_THREAD(run);
  }
  void run() {
    sc_core::wait(sc_core::sc_time(10, sc_core::SC_NS));  // cycle 10
    std::vector<uint8_t> out(512), in(512, 0);
    for (size_t i = 0; i < out.size(); ++i) out[i] = static_cast<uint8_t>(i * 3);
    write_done = dma.write(1024, out.data(), out.size(), 10);
    read_done = dma.read(1024, in.data(), in.size(), 10);
    same = in == out;
    try {
      dma.read(memory.size() - 4, in.data(), 16, 10);
    } catch (const std::runtime_error& e) {
      error = e.what();
    }
  }
  AccelMemory memory;
  DmaRequester dma;
  uint64_t write_done = 0, read_done = 0;
  bool same = false;
  std::string error;
};

class NiDmaRequester : public test::SimTest {};

TEST_F(NiDmaRequester, AccessesCompleteWhenTheMemorySays) {
  MemoryConfig cfg;
  cfg.bytes = 4096;
  Bench b("bench", cfg);
  sc_core::sc_start(sc_core::sc_time(100, sc_core::SC_NS));
  const uint64_t occupancy = 512 / cfg.bytes_per_cycle;
  // Both are asked for in cycle 10 and enter the queue in cycle 11: the write starts then; the
  // read waits for the channel the write occupies.
  EXPECT_EQ(b.write_done, 11 + cfg.latency + occupancy);
  EXPECT_EQ(b.read_done, 11 + occupancy + cfg.latency + occupancy);
  EXPECT_TRUE(b.same);
  EXPECT_EQ(b.dma.bytes_written(), 512u);
  EXPECT_EQ(b.dma.bytes_read(), 512u);
  EXPECT_THAT(b.error, HasSubstr("read of 16 bytes at 0xffc failed"));
}

TEST_F(NiDmaRequester, PeekAndPokeTakeNoTime) {
  MemoryConfig cfg;
  cfg.bytes = 64;
  AccelMemory memory("memory", cfg);
  DmaRequester dma("dma", cfg.clock_ps);
  dma.mem.bind(memory.port);
  const uint8_t v[4] = {1, 2, 3, 4};
  dma.poke(8, v, 4);
  uint8_t back[4] = {};
  dma.peek(8, back, 4);
  EXPECT_EQ(std::vector<uint8_t>(back, back + 4), std::vector<uint8_t>(v, v + 4));
  EXPECT_EQ(memory.data()[10], 3);
  EXPECT_EQ(memory.busy_cycles(), 0u);
  EXPECT_THROW(dma.peek(80, back, 4), std::runtime_error);
}

}  // namespace
}  // namespace mt::noc
