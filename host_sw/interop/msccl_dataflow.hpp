// An MSCCL program as a dataflow of its steps, and the lockstep steps of its messages
// (msccl_schedule.cpp; docs/msccl.md, "Import").
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "interop/msccl_program.hpp"

namespace mt::msccl {

// One <step> of the program, flattened: the local chunks it reads or writes, the messages it
// sends and receives (indices into Dataflow::messages, -1: none).
struct FlatStep {
  uint32_t gpu = 0, tb = 0, index = 0;  // tb: index into the gpu's threadblocks
  StepType type = StepType::kNop;
  uint32_t first = 0, cnt = 0;          // its local chunks [first, first + cnt)
  int64_t send_msg = -1, recv_msg = -1;
  int64_t dep = -1;                     // the flattened step it waits for
  bool next_in_tb = false;              // the next flattened step is its threadblock's next
};

struct Message {
  uint32_t send_step = 0, recv_step = 0;  // flattened steps
  uint32_t src = 0, dst = 0, first = 0, cnt = 0;
  bool reduce = false;  // received by rrc, rrs or rrcs
  // Not reduced (r, rcs: stored over the receiver's chunks), but a reduced message runs
  // after it on its ranks or ranks they wait for (schedule sets it): a Put of the
  // reduce-scatter, not a Gather.
  bool put = false;
  // Whether it belongs to the reduce-scatter: a Reduce or a Put.
  bool reduce_phase() const { return reduce || put; }
};

struct Dataflow {
  std::vector<FlatStep> steps;
  std::vector<Message> messages;
};

// "gpu R, tb T, step S (type)" for messages.
std::string describe(const Algo& algo, const FlatStep& s);

// Each message's lockstep step (from 1): a send reads at the start of its step, a receive
// lands at its end, a threadblock sends (and receives) at most one message a step, and every
// step runs after its threadblock's previous step and its dependency. Marks every message
// that is not reduced but has a reduced one after it as a Put (Message::put); every Reduce
// and Put gets a step before every Gather (a plan's two phases). `explain` describes a
// flattened step. InputError for a deadlock.
std::vector<uint32_t> schedule(Dataflow& flow,
                               const std::function<std::string(uint32_t)>& explain);

}  // namespace mt::msccl
