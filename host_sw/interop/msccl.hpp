// MSCCL interop (docs/msccl.md): any plan written as an MSCCL XML algorithm, and an MSCCL
// all-reduce read back as a plan, which the plan verifier then proves or refuses.
#pragma once

#include <string>
#include <vector>

#include "common/run_files.hpp"
#include "interop/msccl_program.hpp"
#include "plan/plan.hpp"
#include "topology/topology.hpp"

namespace mt {

// The algorithm name that imports an MSCCL file: "msccl:PATH".
constexpr const char* kMscclPrefix = "msccl:";
bool is_msccl_algorithm(const std::string& algorithm);
// PATH of "msccl:PATH"; InputError when it is empty.
std::string msccl_path(const std::string& algorithm);
// The file an algorithm name reads (none but for msccl:PATH), for check_run_files.
std::vector<RunFile> algorithm_inputs(const std::string& algorithm, const std::string& option);

// The plan as an MSCCL program: every transfer a send on the sender and a receive (rrc for a
// Reduce, r for a Gather) on the receiver, a threadblock per peer and direction, dependencies
// for every byte a step reads or writes after another step of the rank. InputError when the
// plan's byte ranges do not fall on a grid of equal chunks.
msccl::Algo plan_to_msccl(const Plan& plan);
std::string export_msccl(const Plan& plan);

// The program as a plan of `opt.bytes` on `topo` (chunk c is split_bytes(bytes, nchunksperloop)
// [c]), each transfer at the earliest lockstep step its dependencies allow. InputError naming
// the step for what a plan cannot express, a send without its receive, or a deadlock. The
// plan is not verified here. `where` names the input in the messages.
Plan msccl_to_plan(const msccl::Algo& algo, const Topology& topo, const PlanOptions& opt,
                   const std::string& where);
// Reads the file of "msccl:PATH" and imports it.
Plan import_msccl(const std::string& algorithm, const Topology& topo, const PlanOptions& opt);

}  // namespace mt
