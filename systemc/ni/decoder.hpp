// The NI's decoder (paper Fig. 6 ②): turns the issued table entry into work for the lockstep
// counter (NOP) or for the DMA requester (one send per destination of a Reduce or Gather).
#pragma once

#include <cstdint>
#include <vector>

#include <systemc>

#include "ni/ni_config.hpp"
#include "table/schedule_table.hpp"

namespace mt::noc {

// One gradient message to send: bytes [addr, addr + bytes) of this node's buffer to `dest`.
struct SendRequest {
  uint32_t dest = 0;
  Op op = Op::kReduce;
  uint32_t flow = 0;
  uint64_t addr = 0;
  uint64_t bytes = 0;
};

struct Decoded {
  Op op = Op::kNop;
  uint64_t lockstep_cycles = 0;     // NOP: load the lockstep counter with this
  std::vector<SendRequest> sends;   // Reduce: to Parent (none if nil); Gather, Put: each child
};

class Decoder : public sc_core::sc_module {
 public:
  Decoder(sc_core::sc_module_name name, const NiConfig& cfg) : sc_module(name), cfg_(cfg) {}
  // `out` is reused to avoid an allocation per entry.
  void decode(const TableEntry& entry, Decoded& out) const;

 private:
  NiConfig cfg_;
};

}  // namespace mt::noc
