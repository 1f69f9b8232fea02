// What an all-reduce run keeps of every node's buffer (mtsim --data). `full` stores every
// byte and checks every element. `sampled` stores and checks a fixed sample of 16-byte lines
// (DataSample) and drops the rest, so a run's memory grows with the sample, not with
// nodes x bytes: the paper's Fig. 10 point (torus:16x16, 96,000 KiB) needs 24 GiB of buffers
// in full, 0.4 GiB sampled (docs/mtsim.md, "Node data").
//
// Why a sample checks the NI exactly where it looks: an element's sum depends only on the same
// element at the other nodes (the NI adds element-wise, table entries move contiguous ranges),
// so a sampled element is exact iff the NIs moved and summed that element right, whatever
// happened to the bytes around it. Timing does not depend on data: the memory's delay depends
// on the address and length of an access (accel_memory.hpp), the reduction unit's on the
// element count (reduction_unit.hpp), flits on their count; so both modes give the same
// cycles, step timeline and link loads (tests/systemc/mtsim_data_test.cpp compares them).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "memory/accel_memory.hpp"
#include "ni/ni_config.hpp"
#include "table/schedule_table.hpp"

namespace mt::noc {

enum class DataMode : uint8_t { kFull, kSampled };

DataMode parse_data_mode(const std::string& text);  // "full" | "sampled", else InputError
const char* data_mode_name(DataMode mode);

// The sampled lines of one all-reduce buffer, the same at every node. A line is 16 bytes (one
// flit's payload) at an offset from the buffer's first byte that is a multiple of 16. The
// sample is:
// - one line in every 1 KiB of the buffer, at a position within that KiB drawn from (seed,
//   KiB index): 1/64 of the data, at every phase of packets (256 B) and bursts; a range of
//   2 KiB or more holds a whole KiB and so a sampled line, wherever it lies;
// - the first and the last line of the buffer;
// - the first and the last line of every table entry's range at every node: the chunk
//   boundaries of every step, where an off-by-one address, a wrong size or a wrong chunk
//   shows first.
// A wrong sum confined to unsampled lines is not seen: that is what `sampled` gives up.
class DataSample {
 public:
  static constexpr uint64_t kLineBytes = AccelMemory::kLineBytes;
  static_assert(kLineBytes == kFlitPayloadBytes, "a line is one flit's payload");
  static constexpr uint64_t kStrideBytes = 1024;

  DataSample(const TableSet& set, uint64_t seed);

  // Offsets of the sampled lines from the buffer's first byte, ascending, distinct.
  const std::vector<uint64_t>& lines() const { return lines_; }

 private:
  std::vector<uint64_t> lines_;
};

}  // namespace mt::noc
