// The accelerator memory: the timing contract at the top of ni/accel_memory.hpp, driven through
// a real TLM-2.0 initiator socket from an SC_THREAD, its data path, responses and statistics.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <utility>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <systemc>
#include <tlm_utils/simple_initiator_socket.h>

#include "common/error.hpp"
#include "memory/accel_memory.hpp"
#include "sim_test_util.hpp"

namespace mt::noc {
namespace {

using ::testing::HasSubstr;

uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

struct Result {
  tlm::tlm_response_status status;
  sc_core::sc_time delay;  // as annotated on return
  uint64_t done;           // the cycle now + delay falls in
};

// The DMA side: runs `script` in an SC_THREAD, so accesses happen at real simulation times.
struct Initiator : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Initiator> socket{"socket"};
  std::function<void(Initiator&)> script;
  uint64_t period;  // sc_time units per cycle
  bool finished = false;

  SC_HAS_PROCESS(Initiator);
  Initiator(sc_core::sc_module_name name, uint64_t clock_ps)
      : sc_core::sc_module(name),
        period(sc_core::sc_time(static_cast<double>(clock_ps), sc_core::SC_PS).value()) {
    SC_THREAD(run);
  }
  void run() {
    if (script) script(*this);
    finished = true;
  }

  uint64_t cycle() const { return sc_core::sc_time_stamp().value() / period; }
  sc_core::sc_time cycles(uint64_t n) const { return sc_core::sc_time::from_value(n * period); }
  void wait_until(uint64_t c) { wait(cycles(c - cycle())); }

  Result access(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, uint32_t len,
                sc_core::sc_time delay = sc_core::SC_ZERO_TIME, uint8_t* byte_enable = nullptr,
                uint32_t streaming_width = std::numeric_limits<uint32_t>::max()) {
    tlm::tlm_generic_payload t;
    t.set_command(cmd);
    t.set_address(addr);
    t.set_data_ptr(data);
    t.set_data_length(len);
    t.set_streaming_width(std::min(len, streaming_width));
    t.set_byte_enable_ptr(byte_enable);
    t.set_byte_enable_length(byte_enable != nullptr ? len : 0);
    t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    socket->b_transport(t, delay);
    const sc_core::sc_time end = sc_core::sc_time_stamp() + delay;
    if (t.is_response_ok() && len > 0) {
      EXPECT_EQ(end.value() % period, 0u) << "a completion is the start of a cycle";
    }
    return {t.get_response_status(), delay, end.value() / period};
  }
  Result read(uint64_t addr, uint8_t* data, uint32_t len,
              sc_core::sc_time delay = sc_core::SC_ZERO_TIME) {
    return access(tlm::TLM_READ_COMMAND, addr, data, len, delay);
  }
  Result write(uint64_t addr, uint8_t* data, uint32_t len,
               sc_core::sc_time delay = sc_core::SC_ZERO_TIME) {
    return access(tlm::TLM_WRITE_COMMAND, addr, data, len, delay);
  }
  unsigned debug(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, uint32_t len) {
    tlm::tlm_generic_payload t;
    t.set_command(cmd);
    t.set_address(addr);
    t.set_data_ptr(data);
    t.set_data_length(len);
    return socket->transport_dbg(t);
  }
};

// Small numbers, so the arithmetic shows: 64 bytes a cycle, 10 cycles of latency.
MemoryConfig small_config() {
  MemoryConfig cfg;
  cfg.bytes = 4096;
  cfg.bytes_per_cycle = 64;
  cfg.latency = 10;
  cfg.clock_ps = 1000;
  return cfg;
}

std::vector<uint8_t> pattern(size_t n, uint8_t seed) {
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<uint8_t>(seed + 7 * i);
  return v;
}

class NiAccelMemoryTest : public test::SimTest {
 protected:
  std::unique_ptr<AccelMemory> mem;
  std::unique_ptr<Initiator> dma;
  MemoryConfig cfg;

  void build(const MemoryConfig& c,
             std::shared_ptr<const SampledLines> sample = nullptr) {
    cfg = c;
    mem = std::make_unique<AccelMemory>("memory", c, std::move(sample));
    dma = std::make_unique<Initiator>("dma", c.clock_ps);
    dma->socket.bind(mem->port);
  }
  // Runs `script` in the initiator's thread until it returns.
  void run(std::function<void(Initiator&)> script) {
    dma->script = std::move(script);
    sc_core::sc_start();
    EXPECT_TRUE(dma->finished) << "the script ran to its end";
  }
  // Contract: an access of len bytes starting at s completes at s + latency + occupancy.
  uint64_t occupancy(uint64_t len) const { return ceil_div(len, cfg.bytes_per_cycle); }
  uint64_t done_at(uint64_t start, uint64_t len) const {
    return start + cfg.latency + occupancy(len);
  }
};

// First in the file: under ASan, an exception thrown after SystemC threads have switched
// stacks is reported as a false stack error when the whole binary runs in one process.
TEST_F(NiAccelMemoryTest, ConfigurationErrorsNameTheField) {
  MemoryConfig c = small_config();
  c.bytes_per_cycle = 0;
  try {
    c.validate();
    FAIL() << "bytes_per_cycle 0 accepted";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("bytes_per_cycle"));
  }
  EXPECT_THROW(AccelMemory("bad_bandwidth", c), InputError);
  c = small_config();
  c.clock_ps = 0;
  try {
    c.validate();
    FAIL() << "clock_ps 0 accepted";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("clock_ps"));
  }
  EXPECT_THROW(AccelMemory("bad_clock", c), InputError);
  c = small_config();
  c.latency = 0;  // an ideal memory is allowed
  EXPECT_NO_THROW(c.validate());
}

TEST_F(NiAccelMemoryTest, SingleAccessesCompleteAtTheContractCycle) {
  build(small_config());
  run([&](Initiator& d) {
    std::vector<uint8_t> buf = pattern(100, 1);
    // At cycle 0 on an idle channel: starts at once, 100 bytes take ceil(100 / 64) = 2 cycles.
    EXPECT_EQ(mem->completion_cycle(100, 0), done_at(0, 100));
    const Result w = d.write(0, buf.data(), 100);
    EXPECT_EQ(w.status, tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(w.done, done_at(0, 100));
    EXPECT_EQ(w.done, 0u + 10 + 2);
    EXPECT_EQ(w.delay, d.cycles(w.done));
    EXPECT_EQ(mem->free_cycle(), occupancy(100));

    // Later, on a free channel: a read of exactly one beat.
    d.wait_until(50);
    const Result r = d.read(0, buf.data(), 64);
    EXPECT_EQ(r.done, done_at(50, 64));
    EXPECT_EQ(r.delay, d.cycles(r.done - 50));
    // Waiting for the annotated delay lands in the completion cycle.
    sc_core::wait(r.delay);
    EXPECT_EQ(d.cycle(), r.done);
  });
}

TEST_F(NiAccelMemoryTest, BackToBackAccessesWaitForTheChannel) {
  build(small_config());
  run([&](Initiator& d) {
    d.wait_until(5);
    std::vector<uint8_t> buf(256);
    const Result a = d.read(0, buf.data(), 256);    // 4 cycles on the channel
    const Result b = d.write(512, buf.data(), 130);  // 3 cycles
    const Result c = d.read(1024, buf.data(), 1);   // 1 cycle
    EXPECT_EQ(a.done, done_at(5, 256));
    // b starts when a frees the channel; c when b does. Reads and writes share it.
    EXPECT_EQ(b.done, done_at(5 + occupancy(256), 130));
    EXPECT_EQ(c.done, done_at(5 + occupancy(256) + occupancy(130), 1));
    EXPECT_EQ(b.done - a.done, occupancy(130)) << "the latencies overlap, the transfers do not";
    EXPECT_EQ(c.done - b.done, occupancy(1));
    EXPECT_EQ(mem->free_cycle(), 5 + occupancy(256) + occupancy(130) + occupancy(1));

    // Once the channel is free again, an access no longer waits.
    d.wait_until(100);
    const Result e = d.read(0, buf.data(), 65);
    EXPECT_EQ(e.done, done_at(100, 65));
  });
}

TEST_F(NiAccelMemoryTest, AnAnnotatedDelayDefersAcceptance) {
  MemoryConfig c = small_config();
  c.clock_ps = 500;  // cycles are not nanoseconds
  build(c);
  run([&](Initiator& d) {
    d.wait_until(3);
    std::vector<uint8_t> buf(128);
    // A whole number of cycles: accepted exactly that many cycles later.
    const Result a = d.read(0, buf.data(), 128, d.cycles(7));
    EXPECT_EQ(a.done, done_at(3 + 7, 128));
    EXPECT_EQ(a.delay, d.cycles(a.done - 3));
    // A delay ending mid-cycle is rounded up to the next cycle: 2 cycles + 1 time unit -> 3.
    d.wait_until(40);
    const sc_core::sc_time part = d.cycles(2) + sc_core::sc_time::from_value(1);
    const Result b = d.write(0, buf.data(), 64, part);
    EXPECT_EQ(b.done, done_at(40 + 3, 64));
    // An access issued later in call order but with less delay still queues behind b.
    const Result e = d.read(0, buf.data(), 64);
    EXPECT_EQ(e.done, done_at(40 + 3 + occupancy(64), 64));
  });
}

TEST_F(NiAccelMemoryTest, AnAccessInTheMiddleOfACycleCompletesOnACycleBoundary) {
  build(small_config());
  run([&](Initiator& d) {
    // Half way through cycle 6.
    sc_core::wait(d.cycles(6) + sc_core::sc_time::from_value(d.period / 2));
    ASSERT_EQ(d.cycle(), 6u);
    std::vector<uint8_t> buf(64);
    const Result r = d.read(0, buf.data(), 64);
    EXPECT_EQ(r.done, done_at(6, 64));
    EXPECT_EQ((sc_core::sc_time_stamp() + r.delay).value(), r.done * d.period);
  });
}

TEST_F(NiAccelMemoryTest, ReadsReturnWhatWritesStored) {
  build(small_config());
  const std::vector<uint8_t> a = pattern(300, 3), b = pattern(64, 200);
  run([&](Initiator& d) {
    std::vector<uint8_t> src = a;
    ASSERT_EQ(d.write(17, src.data(), 300).status, tlm::TLM_OK_RESPONSE);
    std::vector<uint8_t> last = b;  // the very last bytes of the memory
    ASSERT_EQ(d.write(4096 - 64, last.data(), 64).status, tlm::TLM_OK_RESPONSE);
    std::vector<uint8_t> got(300, 0);
    ASSERT_EQ(d.read(17, got.data(), 300).status, tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(got, a);
    std::vector<uint8_t> got_last(64, 0);
    ASSERT_EQ(d.read(4096 - 64, got_last.data(), 64).status, tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(got_last, b);
    // An overlapping later write wins.
    uint8_t x[4] = {0xaa, 0xbb, 0xcc, 0xdd};
    ASSERT_EQ(d.write(20, x, 4).status, tlm::TLM_OK_RESPONSE);
    uint8_t y[8] = {};
    d.read(17, y, 8);
    EXPECT_EQ(std::vector<uint8_t>(y, y + 8),
              (std::vector<uint8_t>{a[0], a[1], a[2], 0xaa, 0xbb, 0xcc, 0xdd, a[7]}));
  });
  // The backdoor sees the same bytes, and the rest is still zero.
  EXPECT_TRUE(std::equal(b.begin(), b.end(), mem->data() + 4096 - 64));
  EXPECT_EQ(mem->data()[16], 0);
  EXPECT_EQ(mem->data()[17 + 300], 0);
  EXPECT_EQ(mem->size(), 4096u);
}

// --data sampled: only the sampled 16-byte lines are stored; a read gives zeros elsewhere, a
// write there is dropped, and the timing is the contract's, whatever the data.
TEST_F(NiAccelMemoryTest, ASampledMemoryStoresOnlyItsLinesAndKeepsTheTiming) {
  const std::vector<uint64_t> lines = {0, 48, 1024, 4080};
  build(small_config(), std::make_shared<const SampledLines>(lines));
  EXPECT_TRUE(mem->sampled());
  EXPECT_EQ(mem->size(), 4 * AccelMemory::kLineBytes);  // the sample, not the 4096-byte window
  const std::vector<uint8_t> a = pattern(4096, 5);
  auto sampled = [&](uint64_t offset) {
    return std::any_of(lines.begin(), lines.end(),
                       [&](uint64_t l) { return offset >= l && offset < l + 16; });
  };
  run([&](Initiator& d) {
    std::vector<uint8_t> src(a.begin() + 17, a.begin() + 17 + 1100);
    const Result w = d.write(17, src.data(), 1100);  // covers lines 0, 48 and 1024 in part
    EXPECT_EQ(w.done, done_at(0, 1100));
    std::vector<uint8_t> got(4096, 0xee);
    const Result r = d.read(0, got.data(), 4096);
    EXPECT_EQ(r.done, done_at(occupancy(1100), 4096));  // waits for the write's channel time
    for (uint64_t i = 0; i < 4096; ++i) {
      const bool written = i >= 17 && i < 17 + 1100 && sampled(i);
      ASSERT_EQ(got[i], written ? a[i] : 0) << "byte " << i;
    }
    std::vector<uint8_t> tail(a.end() - 8, a.end());
    EXPECT_EQ(d.debug(tlm::TLM_WRITE_COMMAND, 4088, tail.data(), 8), 8u);
    std::vector<uint8_t> back(24, 0xee);
    EXPECT_EQ(d.debug(tlm::TLM_READ_COMMAND, 4072, back.data(), 24), 24u);
    EXPECT_EQ(std::vector<uint8_t>(back.begin(), back.begin() + 16), std::vector<uint8_t>(16, 0));
    EXPECT_EQ(std::vector<uint8_t>(back.begin() + 16, back.end()), tail);
  });
  // The backdoor holds the lines in order: line 48's bytes follow line 0's.
  EXPECT_EQ(mem->data()[16], a[48]);
  EXPECT_EQ(mem->data()[0], 0);  // byte 0 was not written
  EXPECT_EQ(mem->bytes_written(), 1100u);
  EXPECT_EQ(mem->bytes_read(), 4096u);
}

TEST_F(NiAccelMemoryTest, BackdoorFillsAreReadThroughThePort) {
  build(small_config());
  const std::vector<uint8_t> p = pattern(200, 9);
  std::copy(p.begin(), p.end(), mem->data() + 1000);
  run([&](Initiator& d) {
    std::vector<uint8_t> got(200);
    ASSERT_EQ(d.read(1000, got.data(), 200).status, tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(got, p);
  });
}

TEST_F(NiAccelMemoryTest, BadAccessesGetTheirResponseAndChangeNothing) {
  build(small_config());
  const std::vector<uint8_t> before = pattern(4096, 5);
  std::copy(before.begin(), before.end(), mem->data());
  run([&](Initiator& d) {
    d.wait_until(2);
    std::vector<uint8_t> buf(16, 0x5a);
    uint8_t enables[16];
    std::fill(std::begin(enables), std::end(enables), TLM_BYTE_ENABLED);
    const sc_core::sc_time in = d.cycles(3);
    auto check = [&](const Result& r, tlm::tlm_response_status want) {
      EXPECT_EQ(r.status, want);
      EXPECT_EQ(r.delay, in) << "an error takes no time";
    };
    const auto R = tlm::TLM_READ_COMMAND;
    const auto W = tlm::TLM_WRITE_COMMAND;
    check(d.access(W, 4096, buf.data(), 1, in), tlm::TLM_ADDRESS_ERROR_RESPONSE);
    check(d.access(R, 4096 - 8, buf.data(), 16, in), tlm::TLM_ADDRESS_ERROR_RESPONSE);
    check(d.access(W, std::numeric_limits<uint64_t>::max() - 3, buf.data(), 16, in),
          tlm::TLM_ADDRESS_ERROR_RESPONSE);  // addr + len wraps around
    check(d.access(W, 0, buf.data(), 16, in, enables), tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
    check(d.access(R, 0, buf.data(), 16, in, nullptr, 4), tlm::TLM_BURST_ERROR_RESPONSE);
    check(d.access(tlm::TLM_IGNORE_COMMAND, 0, buf.data(), 16, in),
          tlm::TLM_COMMAND_ERROR_RESPONSE);
    EXPECT_EQ(buf, std::vector<uint8_t>(16, 0x5a)) << "no read data delivered";
    // The channel is still idle: a good access starts at its own acceptance cycle.
    EXPECT_EQ(d.read(0, buf.data(), 16).done, done_at(2, 16));
  });
  EXPECT_TRUE(std::equal(before.begin(), before.end(), mem->data())) << "nothing written";
  EXPECT_EQ(mem->bytes_written(), 0u);
  EXPECT_EQ(mem->bytes_read(), 16u);
  EXPECT_EQ(mem->busy_cycles(), occupancy(16));
}

TEST_F(NiAccelMemoryTest, ZeroLengthAccessesAreOkAndTakeNoTime) {
  build(small_config());
  run([&](Initiator& d) {
    uint8_t byte = 0;
    const sc_core::sc_time in = d.cycles(4);
    const Result r = d.read(0, &byte, 0, in);
    EXPECT_EQ(r.status, tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(r.delay, in);
    EXPECT_EQ(d.write(0, &byte, 0).delay, sc_core::SC_ZERO_TIME);
    EXPECT_EQ(mem->free_cycle(), 0u);
  });
  EXPECT_EQ(mem->bytes_read() + mem->bytes_written() + mem->busy_cycles(), 0u);
}

TEST_F(NiAccelMemoryTest, StatisticsCountBytesAndChannelCycles) {
  build(small_config());
  const std::vector<uint32_t> reads = {1, 64, 65, 300}, writes = {128, 7};
  run([&](Initiator& d) {
    std::vector<uint8_t> buf(512);
    for (uint32_t n : reads) d.read(0, buf.data(), n);
    for (uint32_t n : writes) d.write(1024, buf.data(), n);
  });
  uint64_t read = 0, written = 0, busy = 0;
  for (uint32_t n : reads) read += n, busy += occupancy(n);
  for (uint32_t n : writes) written += n, busy += occupancy(n);
  EXPECT_EQ(mem->bytes_read(), read);
  EXPECT_EQ(mem->bytes_written(), written);
  EXPECT_EQ(mem->busy_cycles(), busy);
  EXPECT_EQ(mem->free_cycle(), busy) << "all issued at cycle 0: back to back";
}

TEST_F(NiAccelMemoryTest, DebugTransportCopiesWithoutTiming) {
  build(small_config());
  const std::vector<uint8_t> p = pattern(100, 11);
  run([&](Initiator& d) {
    std::vector<uint8_t> src = p;
    EXPECT_EQ(d.debug(tlm::TLM_WRITE_COMMAND, 50, src.data(), 100), 100u);
    std::vector<uint8_t> got(100);
    EXPECT_EQ(d.debug(tlm::TLM_READ_COMMAND, 50, got.data(), 100), 100u);
    EXPECT_EQ(got, p);
    // Only the part inside the memory is copied; outside it, nothing.
    std::vector<uint8_t> tail(32, 0);
    EXPECT_EQ(d.debug(tlm::TLM_READ_COMMAND, 4096 - 8, tail.data(), 32), 8u);
    EXPECT_EQ(d.debug(tlm::TLM_READ_COMMAND, 4096, tail.data(), 4), 0u);
    EXPECT_EQ(d.debug(tlm::TLM_IGNORE_COMMAND, 0, tail.data(), 4), 0u);
    EXPECT_EQ(sc_core::sc_time_stamp(), sc_core::SC_ZERO_TIME);
    // The channel was never occupied: a timed access at cycle 0 starts at once.
    EXPECT_EQ(d.read(50, got.data(), 100).done, done_at(0, 100));
    EXPECT_EQ(got, p);
  });
  EXPECT_TRUE(std::equal(p.begin(), p.end(), mem->data() + 50));
  EXPECT_EQ(mem->bytes_written(), 0u) << "debug writes are not counted";
  EXPECT_EQ(mem->bytes_read(), 100u) << "only the timed read is counted";
}

TEST_F(NiAccelMemoryTest, TheDefaultsAreOneHbmStack) {
  MemoryConfig c;
  c.bytes = 1 << 20;
  build(c);
  run([&](Initiator& d) {
    std::vector<uint8_t> buf(4096);
    const Result r = d.read(0, buf.data(), 4096);
    EXPECT_EQ(r.done, done_at(0, 4096));
    EXPECT_EQ(r.delay, d.cycles(c.latency + ceil_div(4096, c.bytes_per_cycle)));
  });
}

}  // namespace
}  // namespace mt::noc

namespace mt::noc {
namespace {

// Issue 11, defects 2 and 3: the model holds only the window [base, base + bytes), so a buffer
// high in the address space costs its own size, and one that ends at 2^64 works.
TEST_F(NiAccelMemoryTest, TheWindowSitsAnywhereInTheAddressSpace) {
  MemoryConfig c = small_config();
  c.base = std::numeric_limits<uint64_t>::max() - 4095;  // the last byte is 2^64 - 1
  build(c);
  EXPECT_EQ(mem->size(), 4096u);
  const std::vector<uint8_t> p = pattern(64, 3);
  run([&](Initiator& d) {
    std::vector<uint8_t> buf = p, got(64);
    const uint64_t last = c.base + 4096 - 64;
    EXPECT_EQ(d.access(tlm::TLM_WRITE_COMMAND, last, buf.data(), 64).status, tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(d.read(last, got.data(), 64).status, tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(got, p);
    EXPECT_EQ(d.read(c.base - 1, got.data(), 1).status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_EQ(d.read(0, got.data(), 1).status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
  });
  EXPECT_TRUE(std::equal(p.begin(), p.end(), mem->data() + 4096 - 64));
  MemoryConfig past = c;
  past.bytes = 4097;  // one byte beyond 2^64 - 1
  EXPECT_THROW(past.validate(), InputError);
}

}  // namespace
}  // namespace mt::noc
