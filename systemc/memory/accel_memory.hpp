// The accelerator memory the NI's DMA requester reads and writes: a functional byte array
// behind a TLM-2.0 generic-payload target, with one channel's bandwidth and latency.
//
// Timing contract (cycles of MemoryConfig::clock_ps; the RTL copies it):
// - One channel, shared by reads and writes, serves accesses in the order b_transport calls
//   arrive.
// - An access arriving at simulation time `now` (cycle now_cycle = floor(now / clock)) with
//   annotated delay d is accepted at cycle t = now_cycle + ceil(d / clock).
// - It starts at s = max(t, free), `free` being the cycle the previous access stopped
//   occupying the channel (0 at first), and occupies the channel for
//   n = ceil(len / bytes_per_cycle) cycles: free = s + n.
// - It is complete (read data delivered, write data stored) at cycle c = s + latency + n.
// - b_transport returns with the delay annotated so that now + delay is the start of cycle c
//   (delay = (c - now_cycle) * clock when now is on a cycle boundary).
// - The data are copied at once inside b_transport (functional model): the caller must not use
//   them before cycle c.
// - A zero-length read or write is OK and takes no time: the delay and the channel are left
//   as they are.
// Errors (checked in this order; nothing is copied, counted or timed):
//   command other than read/write               TLM_COMMAND_ERROR_RESPONSE
//   any byte outside [base, base + bytes)       TLM_ADDRESS_ERROR_RESPONSE
//   streaming width < data length               TLM_BURST_ERROR_RESPONSE
//   a byte-enable pointer                       TLM_BYTE_ENABLE_ERROR_RESPONSE
// transport_dbg copies without timing or statistics; as the TLM-2.0 standard allows, it ignores
// streaming width and byte enables and copies the part of the range that lies in memory,
// returning the number of bytes copied.
// Sampled storage (mtsim --data sampled, allreduce/data_sample.hpp): given a list of 16-byte
// lines, the memory stores only those lines. A read returns their bytes and zeros elsewhere; a
// write stores the bytes that fall in them and drops the rest. Timing, statistics and errors
// are those above: they depend on the address and length of an access, never on its data.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "memory/sampled_lines.hpp"

namespace mt::noc {

// The model holds only a window of the accelerator's address space, [base, base + bytes): the
// bytes the schedule tables touch, wherever in the 64-bit space they are.
struct MemoryConfig {
  uint64_t base = 0;               // address of the window's first byte
  uint64_t bytes = 0;              // capacity; base + bytes - 1 must fit 64 bits
  uint32_t bytes_per_cycle = 256;  // HBM-like default: one HBM2 stack, 256 GB/s at 1 GHz
  // Cycles from the start of an access to its first byte (~100 ns DRAM at 1 GHz).
  uint32_t latency = 100;
  uint64_t clock_ps = 1000;

  // Throws mt::InputError naming the bad field.
  void validate() const;
};

class AccelMemory : public sc_core::sc_module {
 public:
  static constexpr uint64_t kLineBytes = SampledLines::kLineBytes;  // a sampled line

  // The parts of [offset, offset + len) that lie in sampled lines, in order: f(i, from, to)
  // for each line lines[i] the range meets, with [from, to) the bytes it shares with that line.
  template <typename F>
  static void for_each_sampled_part(const SampledLines& lines, uint64_t offset, uint64_t len,
                                    F&& f) {
    for (size_t i = lines.first_from(offset); i < lines.size() && lines[i] < offset + len; ++i) {
      f(i, std::max(lines[i], offset), std::min(lines[i] + kLineBytes, offset + len));
    }
  }

  // Validates `cfg` (mt::InputError) and allocates zeroed bytes for the window: all
  // `cfg.bytes` of it, or with `sample` 16 bytes per sampled line. `sample` holds the lines'
  // offsets from `cfg.base`, inside the window.
  AccelMemory(sc_core::sc_module_name name, const MemoryConfig& cfg,
              std::shared_ptr<const SampledLines> sample = nullptr);

  tlm_utils::simple_target_socket<AccelMemory> port;

  // Backdoor for the host: fills inputs and checks results, no timing or statistics. The
  // bytes stored: data()[i] is the byte at address base + i, or with a sample the byte at
  // base + sample[i / 16] + i % 16.
  uint8_t* data() { return mem_.data(); }
  const uint8_t* data() const { return mem_.data(); }
  uint64_t size() const { return mem_.size(); }  // bytes stored
  bool sampled() const { return sample_ != nullptr; }

  const MemoryConfig& config() const { return cfg_; }
  uint64_t bytes_read() const { return bytes_read_; }
  uint64_t bytes_written() const { return bytes_written_; }
  // Cycles the channel has been occupied (sum of ceil(len / bytes_per_cycle)).
  uint64_t busy_cycles() const { return busy_cycles_; }
  // The cycle from which the channel is free for the next access.
  uint64_t free_cycle() const { return free_; }
  // The cycle at which an access of `bytes` accepted at cycle `at` would complete, given the
  // accesses so far, without doing it.
  uint64_t completion_cycle(uint64_t bytes, uint64_t at) const;

 private:
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  unsigned int transport_dbg(tlm::tlm_generic_payload& trans);
  uint64_t occupancy(uint64_t bytes) const;
  // True when [addr, addr + len) lies in the window (len >= 1); no overflow.
  bool inside(uint64_t addr, uint64_t len) const;
  // Copies the window's bytes [offset, offset + len) to `buf` (read) or from it (write),
  // through the sample if there is one.
  void copy(uint64_t offset, uint8_t* buf, uint64_t len, bool write);

  MemoryConfig cfg_;
  uint64_t period_;  // sc_time units per cycle
  std::shared_ptr<const SampledLines> sample_;  // null: every byte is stored
  std::vector<uint8_t> mem_;
  uint64_t free_ = 0;
  uint64_t bytes_read_ = 0, bytes_written_ = 0, busy_cycles_ = 0;
};

}  // namespace mt::noc
