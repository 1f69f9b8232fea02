// One all-reduce, end to end: plan (or image set) -> every NI loaded through its TLM
// configuration target -> the router mesh runs it -> every node's buffer checked against the
// exact sum. The system itself is allreduce_system.hpp's top module; this is its front door.
// SystemC elaborates once per process, so call run_allreduce once per process (mtsim runs each
// simulation in a child).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "aggregation/aggregation_table.hpp"
#include "allreduce/data_sample.hpp"
#include "plan/plan.hpp"
#include "memory/accel_memory.hpp"
#include "ni/ni_config.hpp"
#include "ni/ni_model.hpp"
#include "ni/reduction_unit.hpp"
#include "noc/noc_config.hpp"
#include "plan/plan.hpp"
#include "table/schedule_table.hpp"

namespace mt::noc {

class NetworkInterface;

struct AllReduceOptions {
  std::string topology = "torus:4x4";  // empty with `images`: the image set's
  std::string algorithm = "multitree";
  uint64_t bytes = 1u << 20;
  DType dtype = DType::kFp32;
  bool prioritize_height = false;
  uint32_t dbtree_chunks = 0;           // PlanOptions::chunks (0: dbtree's default)
  MtreeOptions mtree;                   // PlanOptions::mtree
  double max_plan_seconds = PlanOptions{}.max_plan_seconds;  // 0: no limit
  // Load the tables from this image set (mtc plan --out) instead of compiling the plan;
  // its manifest then fixes algorithm, bytes and dtype.
  std::string images;
  NocConfig noc;                // ni_ports is set to the tables' K
  NiConfig ni;
  MemoryConfig memory;          // base and bytes: set to the buffer's window
  ReductionConfig reduction;
  // The switches' aggregation units of an in-network aggregation plan (ina; its dtype is the
  // plan's).
  AggregationConfig aggregation;
  uint64_t seed = 1;            // data each node starts with
  DataMode data = DataMode::kFull;  // what the memories store and the check covers
  // Test hook (mtsim --inject-fault): adds 1 to `element` of node `node`'s initial data, so
  // the run must end with a wrong sum there (mt::InputError if that element is not checked).
  struct Fault {
    uint32_t node = 0;
    uint64_t element = 0;
  };
  std::optional<Fault> fault;
  // The NI model of `rtl_nodes` (every node with `rtl_all`): what `rtl_ni` builds (mtsim
  // --rtl: the Verilated RTL NI of cosim/); every other node has the SystemC NI.
  std::vector<uint32_t> rtl_nodes;
  bool rtl_all = false;
  NiBuilder rtl_ni;
  // A .vcd file of the NI state of trace_nodes (mtsim converts it to .fst). Those of them that
  // are RTL NIs also write all their signals to <rtl_waves>.rtl_node_<n>.fst.
  std::string trace;
  std::string rtl_waves;
  std::vector<uint32_t> trace_nodes;
  bool progress = false;        // a progress line on stderr while it runs
  // Every node advances one cycle at a time with all the others. Off (the default), each
  // node's router and NI run a link's latency ahead alone when no RTL NI, trace or memory
  // clock of its own needs SystemC's time to follow every cycle (CycleScheduler "Groups and
  // lookahead"): the same results, from a cache that holds one node at a time.
  bool lockstep = false;
  // Check image sets with the plan verifier before running them. Off, a broken table runs
  // and shows what the NI does with it (the watchdog names what deadlocks).
  bool verify_images = true;
  bool record_issues = false;   // fill AllReduceResult::issues
  // Called with every node's SystemC NI once it is built and bound, before the simulation
  // starts: test benches attach observers (tb/network_interface_test.cpp records a node's
  // inputs).
  std::function<void(uint32_t node, NetworkInterface& ni)> on_ni;
};

// A table entry issuing at an NI (Fig. 6 ②).
struct IssueRecord {
  uint32_t node = 0;
  size_t index = 0;  // entry index in the node's table
  TableEntry entry;
  uint64_t cycle = 0;
};

// Cycles at which the NIs entered a step: the first and the last of them.
struct StepSpan {
  uint32_t step = 0;
  uint64_t first_cycle = 0, last_cycle = 0;
};

struct LinkUse {
  uint32_t from = 0, to = 0;
  std::string port;
  uint64_t flits = 0;
  double utilisation = 0;  // flits / cycles
};

struct AllReduceResult {
  std::string topology, algorithm, flow_control, dtype;
  uint32_t nodes = 0, steps_per_phase = 0;
  uint32_t children_slots = 0;  // the tables' K: NI port pairs per node
  uint64_t bytes = 0;
  uint64_t cycles = 0;          // start to the last node's last byte in memory
  double bandwidth_gbps = 0;    // bytes / time (GB/s)
  uint64_t bound_cycles = 0;    // per-node lower bound (topology/physical_bound.hpp)
  double bound_ratio = 0;       // bound_cycles / cycles
  std::string bound_basis;      // how the bound is derived (text reports; not in the JSON)
  uint64_t cut_bound_cycles = 0;  // the weakest cut's lower bound (topology/cut_bound.hpp)
  std::string cut_bound_basis;    // the weakest cut and how it was found (text; not in the JSON)
  bool verified = false;        // every node holds the exact sum
  std::string error;            // why not: first wrong element, or the stall report
  uint64_t flits = 0, head_flits = 0;
  double head_overhead = 0;     // head flits / flits injected
  std::vector<StepSpan> steps;
  std::vector<LinkUse> links;
  uint64_t router_cycles = 0;   // router pipeline evaluations (simulation effort)
  std::vector<uint32_t> rtl_nodes;  // nodes that ran the RTL NI
  std::vector<IssueRecord> issues;  // with AllReduceOptions::record_issues, in issue order
  // What the memories stored and the check covered (mtsim's JSON has them with --data
  // sampled only): elements checked per node, and the bytes held for data (every node's
  // stored bytes and the expected sums).
  DataMode data = DataMode::kFull;
  uint64_t checked_elements = 0, data_bytes = 0;
  // The most each NiConfig queue bound held in one NI at once, over the nodes that ran the
  // SystemC NI (none if every node ran the RTL NI); mtsim's JSON has it as `ni_peaks`.
  std::optional<NiPeaks> ni_peaks;
};

// The JSON of mtsim --json (every field but `issues`, `data`, `checked_elements` and
// `data_bytes`).
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(StepSpan, step, first_cycle, last_cycle)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(LinkUse, from, to, port, flits, utilisation)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(NiPeaks, block_slots, reducing_blocks, waiting_blocks,
                                   memory_requests, flows, table_entries, packet_messages,
                                   open_messages)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(AllReduceResult, topology, algorithm, flow_control, dtype,
                                   nodes, steps_per_phase, children_slots, bytes, cycles,
                                   bandwidth_gbps, bound_cycles, cut_bound_cycles, bound_ratio,
                                   verified, error, flits, head_flits, head_overhead, steps,
                                   links, router_cycles, rtl_nodes)

// Throws mt::InputError for bad options (topology, algorithm, size, images).
AllReduceResult run_allreduce(const AllReduceOptions& opt);

}  // namespace mt::noc
