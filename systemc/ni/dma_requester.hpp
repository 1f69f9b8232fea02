// The NI's DMA requester (paper Fig. 6): a TLM-2.0 initiator to the accelerator memory. It
// reads the chunk a send carries and writes received and reduced data back. Every access is
// a blocking transport call whose annotated delay says when the memory completes it; the
// caller uses the data from that cycle on. An access asked for in cycle t enters the request
// queue and is offered to the memory from cycle t + 1 (the RTL registers the requests of a
// cycle before its queue, rtl/dma_requester.sv).
#pragma once

#include <cstdint>
#include <deque>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

namespace mt::noc {

class DmaRequester : public sc_core::sc_module {
 public:
  // At most `max_outstanding` accesses may be incomplete at once (0: no bound).
  DmaRequester(sc_core::sc_module_name name, uint64_t clock_ps, uint32_t max_outstanding = 0);

  tlm_utils::simple_initiator_socket<DmaRequester> mem;

  // Asks in cycle `now` to read (write) [addr, addr + len); returns the cycle the memory
  // completes the access. Throws std::runtime_error naming the access if the memory refuses
  // it, or if it would make more than max_outstanding accesses incomplete after cycle
  // `now` + 1, when it enters the queue.
  uint64_t read(uint64_t addr, uint8_t* data, uint64_t len, uint64_t now);
  uint64_t write(uint64_t addr, const uint8_t* data, uint64_t len, uint64_t now);
  // Untimed access (debug transport), for hosts and tests; the NI itself only makes timed
  // accesses.
  void peek(uint64_t addr, uint8_t* data, uint64_t len);
  void poke(uint64_t addr, const uint8_t* data, uint64_t len);

  uint64_t bytes_read() const { return bytes_read_; }
  // The most accesses incomplete at once so far.
  size_t peak_outstanding() const { return peak_; }
  uint64_t bytes_written() const { return bytes_written_; }

 private:
  uint64_t access(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, uint64_t len,
                  uint64_t asked);
  void debug(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, uint64_t len);

  uint64_t period_;  // sc_time units per cycle
  uint32_t max_outstanding_;
  std::deque<uint64_t> completions_;  // of the incomplete accesses, in order
  size_t peak_ = 0;
  uint64_t bytes_read_ = 0, bytes_written_ = 0;
  tlm::tlm_generic_payload trans_;
};

}  // namespace mt::noc
