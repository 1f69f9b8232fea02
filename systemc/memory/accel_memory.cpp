#include "memory/accel_memory.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <utility>

#include <fmt/format.h>

#include "common/error.hpp"
#include "common/prefetch.hpp"

namespace mt::noc {

void MemoryConfig::validate() const {
  auto need = [](bool ok, const std::string& what) {
    if (!ok) throw InputError("memory configuration: " + what);
  };
  need(bytes_per_cycle >= 1,
       fmt::format("bytes_per_cycle = {}: must be at least 1", bytes_per_cycle));
  need(clock_ps >= 1, fmt::format("clock_ps = {}: must be at least 1 ps", clock_ps));
  need(bytes == 0 || bytes - 1 <= std::numeric_limits<uint64_t>::max() - base,
       fmt::format("the window of {} bytes at base 0x{:x} runs past the 64-bit address space",
                   bytes, base));
}

namespace {

// sc_time units per cycle of a validated configuration (before the memory is allocated).
uint64_t period_of(const MemoryConfig& cfg) {
  cfg.validate();
  const uint64_t period =
      sc_core::sc_time(static_cast<double>(cfg.clock_ps), sc_core::SC_PS).value();
  // A time resolution coarser than the clock would make every cycle zero time long.
  if (period == 0) {
    throw InputError(fmt::format(
        "memory configuration: clock_ps = {} is below the time resolution", cfg.clock_ps));
  }
  return period;
}

}  // namespace

AccelMemory::AccelMemory(sc_core::sc_module_name name, const MemoryConfig& cfg,
                         std::shared_ptr<const SampledLines> sample)
    : sc_core::sc_module(name), port("port"), cfg_(cfg), period_(period_of(cfg)),
      sample_(std::move(sample)), mem_(sample_ ? sample_->size() * kLineBytes : cfg.bytes, 0) {
  port.register_b_transport(this, &AccelMemory::b_transport);
  port.register_transport_dbg(this, &AccelMemory::transport_dbg);
}

bool AccelMemory::inside(uint64_t addr, uint64_t len) const {
  return addr >= cfg_.base && addr - cfg_.base < cfg_.bytes &&
         len <= cfg_.bytes - (addr - cfg_.base);
}

void AccelMemory::copy(uint64_t offset, uint8_t* buf, uint64_t len, bool write) {
  if (!sample_) {
    uint8_t* at = mem_.data() + offset;
    if (write) std::memcpy(at, buf, len);
    else std::memcpy(buf, at, len);
    // DMA bursts walk a buffer in order, and every node's memory together is far beyond the
    // host's caches: the next burst's lines are fetched now, while the simulation runs the
    // cycles until that burst (1.1x on torus:8x8 1 MiB).
    prefetch_write(at + len, std::min<uint64_t>(len, mem_.size() - offset - len));
    return;
  }
  if (!write) std::memset(buf, 0, len);
  const SampledLines& lines = *sample_;
  for_each_sampled_part(lines, offset, len, [&](size_t i, uint64_t from, uint64_t to) {
    uint8_t* stored = mem_.data() + i * kLineBytes + (from - lines[i]);
    if (write) std::memcpy(stored, buf + (from - offset), to - from);
    else std::memcpy(buf + (from - offset), stored, to - from);
  });
}

uint64_t AccelMemory::occupancy(uint64_t bytes) const {
  return (bytes + cfg_.bytes_per_cycle - 1) / cfg_.bytes_per_cycle;
}

uint64_t AccelMemory::completion_cycle(uint64_t bytes, uint64_t at) const {
  return std::max(at, free_) + cfg_.latency + occupancy(bytes);
}

void AccelMemory::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  const uint64_t addr = trans.get_address();
  const uint64_t len = trans.get_data_length();
  const bool write = trans.is_write();
  if (!write && !trans.is_read()) {
    trans.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    return;
  }
  if (len == 0) {
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }
  if (!inside(addr, len)) {
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  if (trans.get_streaming_width() < len) {
    trans.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return;
  }
  if (trans.get_byte_enable_ptr() != nullptr) {
    trans.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
    return;
  }

  const uint64_t now = sc_core::sc_time_stamp().value();
  const uint64_t accepted = now / period_ + (delay.value() + period_ - 1) / period_;
  const uint64_t start = std::max(accepted, free_);
  const uint64_t n = occupancy(len);
  free_ = start + n;
  const uint64_t complete = start + cfg_.latency + n;
  delay = sc_core::sc_time::from_value(complete * period_ - now);

  copy(addr - cfg_.base, trans.get_data_ptr(), len, write);
  (write ? bytes_written_ : bytes_read_) += len;
  busy_cycles_ += n;
  trans.set_dmi_allowed(false);
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

unsigned int AccelMemory::transport_dbg(tlm::tlm_generic_payload& trans) {
  const uint64_t addr = trans.get_address();
  const bool write = trans.is_write();
  if ((!write && !trans.is_read()) || !inside(addr, 1)) return 0;
  const uint64_t offset = addr - cfg_.base;
  const uint64_t len = std::min<uint64_t>(trans.get_data_length(), cfg_.bytes - offset);
  if (len == 0) return 0;
  copy(offset, trans.get_data_ptr(), len, write);
  return static_cast<unsigned int>(len);
}

}  // namespace mt::noc
