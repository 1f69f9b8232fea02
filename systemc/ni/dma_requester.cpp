#include "ni/dma_requester.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "ni/ni_config.hpp"
#include "memory/plain_access.hpp"

namespace mt::noc {

DmaRequester::DmaRequester(sc_core::sc_module_name name, uint64_t clock_ps,
                           uint32_t max_outstanding)
    : sc_module(name),
      mem("mem"),
      period_(sc_core::sc_time(static_cast<double>(clock_ps), sc_core::SC_PS).value()),
      max_outstanding_(max_outstanding) {}

uint64_t DmaRequester::access(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, uint64_t len,
                              uint64_t asked) {
  // An access asked for in one cycle enters the queue in the next (the RTL's push register)
  // and reaches the memory from then on.
  const uint64_t now = asked + 1;
  set_plain_access(trans_, cmd, addr, data, len);
  // The request is made in cycle `now`, which may lie ahead of SystemC's time (the scheduler's
  // lookahead windows): that offset is the annotated delay, as a TLM-2.0 loosely-timed
  // initiator passes its local time. Completion is counted from SystemC's time.
  const uint64_t base = sc_core::sc_time_stamp().value();
  sc_core::sc_time delay = sc_core::sc_time::from_value(std::max(now * period_, base) - base);
  mem->b_transport(trans_, delay);
  if (trans_.is_response_error()) {
    throw std::runtime_error(fmt::format("{}: memory {} of {} bytes at 0x{:x} failed: {}", name(),
                                         cmd == tlm::TLM_READ_COMMAND ? "read" : "write", len,
                                         addr, trans_.get_response_string()));
  }
  (cmd == tlm::TLM_READ_COMMAND ? bytes_read_ : bytes_written_) += len;
  const uint64_t complete = (base + delay.value() + period_ - 1) / period_;
  // The RTL's queue holds an access from its request to the end of its completion cycle.
  while (!completions_.empty() && completions_.front() <= now) completions_.pop_front();
  completions_.push_back(complete);
  peak_ = std::max(peak_, completions_.size());
  if (max_outstanding_ != 0 && completions_.size() > max_outstanding_) {
    throw NiRunError(fmt::format(
        "{}: {} memory accesses incomplete at once, more than the RTL's {} "
        "(NiConfig::memory_requests)", name(), completions_.size(), max_outstanding_));
  }
  return complete;
}

uint64_t DmaRequester::read(uint64_t addr, uint8_t* data, uint64_t len, uint64_t now) {
  return access(tlm::TLM_READ_COMMAND, addr, data, len, now);
}

uint64_t DmaRequester::write(uint64_t addr, const uint8_t* data, uint64_t len, uint64_t now) {
  // The generic payload's pointer is not const; a write only reads through it.
  return access(tlm::TLM_WRITE_COMMAND, addr, const_cast<uint8_t*>(data), len, now);
}

void DmaRequester::debug(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, uint64_t len) {
  tlm::tlm_generic_payload t;
  t.set_command(cmd);
  t.set_address(addr);
  t.set_data_ptr(data);
  t.set_data_length(static_cast<unsigned>(len));
  if (mem->transport_dbg(t) != len) {
    throw std::runtime_error(fmt::format("{}: debug access of {} bytes at 0x{:x} failed", name(),
                                         len, addr));
  }
}

void DmaRequester::peek(uint64_t addr, uint8_t* data, uint64_t len) {
  debug(tlm::TLM_READ_COMMAND, addr, data, len);
}

void DmaRequester::poke(uint64_t addr, const uint8_t* data, uint64_t len) {
  debug(tlm::TLM_WRITE_COMMAND, addr, const_cast<uint8_t*>(data), len);
}

}  // namespace mt::noc
