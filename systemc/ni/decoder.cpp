#include "ni/decoder.hpp"

#include "ni/lockstep_counter.hpp"

namespace mt::noc {

void Decoder::decode(const TableEntry& e, Decoded& out) const {
  out.op = e.op;
  out.lockstep_cycles = 0;
  out.sends.clear();
  auto send = [&](uint32_t dest) { out.sends.push_back({dest, e.op, e.flow, e.start_addr, e.size}); };
  switch (e.op) {
    case Op::kNop:
      out.lockstep_cycles = lockstep_estimate(e.size, cfg_);
      break;
    case Op::kReduce:
      if (e.parent != kNil) send(e.parent);
      break;
    case Op::kGather:
    case Op::kPut:
      for (uint32_t c : e.children) send(c);
      break;
  }
}

}  // namespace mt::noc
