// A plan is the algorithm-independent form of an all-reduce: which node sends which byte range
// of the buffer to which node at which step, and whether the receiver adds it (Reduce) or
// takes it (Gather, Put). Every algorithm produces one; the verifier proves it; the table
// compiler turns it into per-node schedule tables.
//
// Semantics (lockstep): steps run 1..2T. A transfer at step s carries the sender's values as
// they are at the start of step s and lands by the end of step s. A Reduce adds into the
// receiver's partial sum (steps 1..T); a Gather overwrites the receiver's copy with the final
// sum (steps T+1..2T); a Put overwrites the receiver's copy with the sender's partial sum,
// whatever it holds, without adding the receiver's own value (any step): the receiver then
// holds exactly the sender's set of contributions, and a later Reduce of it must add a
// disjoint set. A Gather and a Put are received alike (written, not added); only what they
// carry differs, which the verifier tracks.
//
// Flows are the dependency groups the NI tracks (the FlowID field): one per tree in
// MultiTree. A node waits for messages of the same flow only, so every transfer a node needs
// before it sends must be of the flow it sends, or awaited by an earlier entry of its table.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "ni_formats.hpp"

namespace mt {

// Codes from format/ni_formats.json: the table images and the flits carry them.
enum class Op : uint8_t {
  kNop = format::op::kNop,
  kReduce = format::op::kReduce,
  kGather = format::op::kGather,
  kPut = format::op::kPut,
};
// Whether the receiver writes what the op carries (Gather, Put) rather than adding it: the
// NI keeps one arrival row per flow for these (table/schedule_table.hpp).
constexpr bool writes(Op op) { return op == Op::kGather || op == Op::kPut; }
enum class DType : uint8_t { kInt32 = format::dtype::kInt32, kFp32 = format::dtype::kFp32 };

const char* op_name(Op op);
const char* dtype_name(DType t);
DType parse_dtype(const std::string& s);  // "int32" | "fp32", else InputError
constexpr uint32_t kElementBytes = 4;    // both supported element types are 32-bit
// Every chunk starts at a multiple of a flit's payload (format/ni_formats.json), so the NI
// receives whole flits of 16 aligned bytes and cuts blocks at 256-byte lines between flits
// (systemc/ni/README.md, "Read-after-write interlock"); the plan verifier checks it. Where the
// buffer has a line for every chunk, chunks are whole lines: then no two chunks share a line,
// which the NI's interlock would otherwise serialise.
constexpr uint32_t kChunkGrainBytes = format::flit::kPayloadBytes;
constexpr uint32_t kChunkLineBytes = format::flit::kLineBytes;

struct ByteRange {
  uint64_t offset = 0;  // from the start of the all-reduce buffer
  uint64_t size = 0;
  uint64_t end() const { return offset + size; }
};

struct Flow {
  uint32_t root = 0;    // node that holds the full sum after reduce-scatter
  ByteRange chunk;      // the bytes this flow finally owns
};

struct Transfer {
  uint32_t flow = 0;
  uint32_t src = 0;
  uint32_t dst = 0;
  uint32_t range = 0;   // index into Plan::ranges (the bytes carried)
  uint32_t step = 0;    // 1..2T
  Op op = Op::kReduce;
};

// In-network aggregation (the ina algorithm, docs/ina.md): switch `vertex`'s part in the
// aggregation tree of flow `flow`. Its children (nodes or switches, each one link away) send
// it their sums of the flow's chunk; it adds them and sends the sum to `parent` (a switch one
// link away), or, at the top of the tree (parent kTop), the full sum back down to every child.
// A switch below the top copies the full sum from its parent down to every child.
struct SwitchAggregation {
  static constexpr uint32_t kTop = std::numeric_limits<uint32_t>::max();
  uint32_t flow = 0;
  uint32_t vertex = 0;
  std::vector<uint32_t> children;
  uint32_t parent = kTop;
};

struct Plan {
  std::string algorithm;
  std::string topology;          // spec string of the topology it was built for
  uint32_t nodes = 0;
  uint32_t steps_per_phase = 0;  // T: reduce-scatter 1..T, all-gather T+1..2T
  uint64_t bytes = 0;
  DType dtype = DType::kFp32;
  // True when every transfer is between adjacent nodes of a direct network (one hop, source
  // routed). False for plans that use multi-hop normal packets (dimension-order routing).
  bool neighbour_only = true;
  // True when the algorithm promises no directed link carries two transfers in one step; the
  // verifier then enforces it. Plans that do not promise it get their link load reported.
  bool contention_free = true;
  std::vector<Flow> flows;
  std::vector<ByteRange> ranges;  // ranges[f] == flows[f].chunk for f < flows.size()
  std::vector<Transfer> transfers;
  // Indirect networks only: the directed link ids each transfer occupies (same index as
  // transfers). Empty for direct networks, where the link is implied by src and dst.
  std::vector<std::vector<uint32_t>> routes;
  // In-network aggregation only (algorithms/ina.cpp, netreduce.cpp): the switches'
  // aggregation tables. Then a node's Reduce of a flow with a tree goes into the tree at its
  // first switch, whatever node it names (its route's first link is the one into the tree),
  // and its Gather of the flow comes back from the network in the name of the node it names
  // (verifier/aggregation_check.hpp). Flows without a tree move between nodes as in any plan.
  std::vector<SwitchAggregation> aggregations;

  uint32_t total_steps() const { return 2 * steps_per_phase; }
};

// Splits `bytes` (a multiple of the element size) into `parts` chunks that cover it exactly,
// in grains of kChunkLineBytes when there are at least `parts` of them, else of
// kChunkGrainBytes (the last grain shorter when `bytes` is not a multiple of it): the first
// (grains % parts) chunks hold one grain more; with fewer grains than parts the last chunks
// are empty.
std::vector<ByteRange> split_bytes(uint64_t bytes, uint32_t parts);

// Parses sizes such as 1048576, 64KiB, 1MiB, 2GiB, 4096B (binary suffixes; kB/MB/GB decimal).
uint64_t parse_size(const std::string& s);

// Parses a whole unsigned decimal number for the option `what` (e.g. "--seed"), at most `max`:
// InputError naming the option for a sign, anything but digits, or a value above `max`.
uint64_t parse_unsigned(const std::string& s, const std::string& what,
                        uint64_t max = std::numeric_limits<uint64_t>::max());

// mtree's inputs (algorithms/mtree.hpp, docs/mtc.md): the seed's K, H and r_bar, and the chunks.
struct MtreeOptions {
  uint32_t trees = 10;    // K: at most this many trees carry data (the seed's "at most 10")
  uint64_t height = 0;    // H: weighted tree height bound in cycles of latency; 0: no bound
  double min_rate = 1;    // r_bar: least rate of a used tree, in links (16 bytes a cycle)
  uint32_t chunks = 0;    // lambda of every tree; 0: each tree's corrected lambda*
};

// Common inputs of every algorithm.
struct PlanOptions {
  uint64_t bytes = 1 << 20;
  DType dtype = DType::kFp32;
  bool prioritize_height = false;  // MultiTree: trees with larger remaining height go first
  uint32_t chunks = 0;  // dbtree: chunks per tree, pipelined; 0 picks the default (dbtree.cpp)
  // The run's flow control is message-based (one head flit per message), as mtsim's default;
  // multitree-opt's shallow trees on switch networks need it (multitree_opt_shallow.cpp).
  bool message_flow_control = true;
  // Plans estimated to take longer than this to build, verify and compile are refused up
  // front (check_plan_size), and MultiTree's tree building stops once it has taken this much
  // processor time; 0: no limit.
  double max_plan_seconds = 10;
  MtreeOptions mtree;
};

}  // namespace mt
