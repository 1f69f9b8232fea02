// The flows of a plan imported from MSCCL (docs/msccl.md, "Import"): MSCCL has chunks, a plan
// has flows, and the NI keeps a flow's messages apart from every other's (a node sends a
// flow's Reduce once and waits for a flow's Gather or Put from one parent).
#pragma once

#include <cstdint>

#include "plan/plan.hpp"

namespace mt {

// Gives every transfer of `plan` (flow and range c for chunk c of `chunks`) its flow: a chunk
// has as many flows as all-reduce trees move it. At each node, in step order (a step's sends
// before its receives), a Reduce it sends joins the Reduces it received of the chunk since its
// last Reduce of it (its children); a Gather or Put it sends joins the last Gather or Put it
// received of the chunk since then (its parent), or, with none, the Reduces it summed (it is
// the root). A Reduce it receives after a Gather or Put, or after sending the sum, starts
// another tree. A chunk moved by one tree keeps flow c when every chunk is; otherwise the flows
// are numbered chunk by chunk, each chunk's trees in the order of their first transfers.
// Fills plan.flows (a chunk no transfer moves keeps a flow with root 0): a flow's root is the
// node that sends its Gathers or Puts and receives none, else the last to receive its Reduces.
void assign_msccl_flows(Plan& plan, uint32_t chunks);

}  // namespace mt
