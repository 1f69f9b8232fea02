// Plan -> MSCCL program (docs/msccl.md, "Export").
#include <algorithm>
#include <map>
#include <numeric>
#include <optional>
#include <tuple>

#include <fmt/format.h>

#include "common/error.hpp"
#include "interop/msccl.hpp"

namespace mt {
namespace {

using msccl::Step;
using msccl::StepType;

// The MSCCL chunks a plan range covers: [first, first + count).
struct ChunkRun {
  uint32_t first = 0, count = 0;
};

// Where each range lies on the grid split_bytes(bytes, chunks), if every used range starts and
// ends on a boundary of its non-empty chunks.
std::optional<std::vector<ChunkRun>> runs_on_grid(const Plan& plan, uint64_t chunks) {
  const std::vector<ByteRange> grid = split_bytes(plan.bytes, static_cast<uint32_t>(chunks));
  std::map<uint64_t, uint32_t> start, end;
  for (uint32_t i = 0; i < grid.size(); ++i) {
    if (grid[i].size == 0) continue;
    start[grid[i].offset] = i;
    end[grid[i].end()] = i;
  }
  std::vector<ChunkRun> runs(plan.ranges.size());
  for (const Transfer& t : plan.transfers) {
    const ByteRange& r = plan.ranges[t.range];
    const auto a = start.find(r.offset), b = end.find(r.end());
    if (a == start.end() || b == end.end() || b->second < a->second) return std::nullopt;
    runs[t.range] = {a->second, b->second - a->second + 1};
  }
  return runs;
}

// The grid: as many chunks as the ranges cut the buffer into, else the ranges' common divisor.
std::pair<uint32_t, std::vector<ChunkRun>> chunk_grid(const Plan& plan) {
  std::vector<uint64_t> cuts{0, plan.bytes};
  for (const Transfer& t : plan.transfers) {
    cuts.push_back(plan.ranges[t.range].offset);
    cuts.push_back(plan.ranges[t.range].end());
  }
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  uint64_t g = 0;
  for (uint64_t c : cuts) g = std::gcd(g, c);
  constexpr uint64_t kMaxChunks = uint64_t{1} << 20;
  for (uint64_t chunks : {uint64_t{cuts.size() - 1}, plan.bytes / g}) {
    if (chunks > kMaxChunks) break;
    if (auto runs = runs_on_grid(plan, chunks)) return {static_cast<uint32_t>(chunks), *runs};
  }
  throw InputError(fmt::format(
      "plan {} on {}: its byte ranges do not fall on a grid of at most {} equal MSCCL chunks "
      "(split_bytes({}, C) for C = {} pieces or {} grains of {} bytes); MSCCL addresses a "
      "buffer in equal chunks only", plan.algorithm, plan.topology, kMaxChunks, plan.bytes,
      cuts.size() - 1, plan.bytes / g, g));
}

// One send or receive of a rank, before it has a place in its threadblock.
struct LocalOp {
  uint32_t step = 0, kind = 0, id = 0;  // order: step, sends before receives, plan order
  uint32_t tb = 0;                      // index into the rank's threadblocks
  ChunkRun run;
  StepType type = StepType::kSend;
  std::vector<uint32_t> deps;           // indices into the rank's LocalOps
  uint32_t position = 0;                // its step index in the threadblock
  auto key() const { return std::tie(step, kind, id); }
};

struct RankOps {
  std::vector<msccl::Threadblock> tbs;
  std::vector<LocalOp> ops;
};

// A threadblock per peer a rank receives from (send -1), then one per peer it sends to (recv
// -1), by peer, all on channel 0: one connection each, as MSCCL wants.
std::vector<RankOps> threadblocks(const Plan& plan) {
  std::vector<std::map<uint32_t, uint32_t>> to(plan.nodes), from(plan.nodes);
  for (const Transfer& t : plan.transfers) {
    to[t.src][t.dst] = 0;
    from[t.dst][t.src] = 0;
  }
  std::vector<RankOps> ranks(plan.nodes);
  for (uint32_t v = 0; v < plan.nodes; ++v) {
    for (auto& [peer, tb] : from[v]) {
      tb = static_cast<uint32_t>(ranks[v].tbs.size());
      ranks[v].tbs.push_back({static_cast<int32_t>(tb), -1, static_cast<int32_t>(peer), 0, {}});
    }
    for (auto& [peer, tb] : to[v]) {
      tb = static_cast<uint32_t>(ranks[v].tbs.size());
      ranks[v].tbs.push_back({static_cast<int32_t>(tb), static_cast<int32_t>(peer), -1, 0, {}});
    }
  }
  for (uint32_t id = 0; id < plan.transfers.size(); ++id) {
    const Transfer& t = plan.transfers[id];
    LocalOp send{t.step, 0, id, to[t.src][t.dst], {}, StepType::kSend, {}, 0};
    LocalOp recv{t.step, 1, id, from[t.dst][t.src], {}, StepType::kRecv, {}, 0};
    // A Reduce adds what arrives (rrc); a Gather and a Put store it over the chunk (r).
    if (t.op == Op::kReduce) recv.type = StepType::kRecvReduceCopy;
    ranks[t.src].ops.push_back(send);
    ranks[t.dst].ops.push_back(recv);
  }
  return ranks;
}

// In the plan's order (a send reads the bytes as they are at the start of its step, a receive
// lands at its end), each step waits for the last write of every chunk it touches and a write
// also for every read since; of those, the latest in each other threadblock is kept (a
// threadblock runs its steps in order).
void add_dependencies(RankOps& rank, const std::vector<ChunkRun>& runs, const Plan& plan,
                      uint32_t chunks) {
  std::vector<LocalOp>& ops = rank.ops;
  std::sort(ops.begin(), ops.end(), [](const LocalOp& a, const LocalOp& b) { return a.key() < b.key(); });
  constexpr uint32_t kNone = ~0u;
  std::vector<uint32_t> writer(chunks, kNone);
  std::vector<std::vector<uint32_t>> readers(chunks);
  std::vector<uint32_t> latest(rank.tbs.size(), kNone);
  for (uint32_t i = 0; i < ops.size(); ++i) {
    LocalOp& op = ops[i];
    op.run = runs[plan.transfers[op.id].range];
    std::vector<uint32_t> before;
    for (uint32_t c = op.run.first; c < op.run.first + op.run.count; ++c) {
      if (writer[c] != kNone) before.push_back(writer[c]);
      if (op.kind == 0) {
        readers[c].push_back(i);
        continue;
      }
      before.insert(before.end(), readers[c].begin(), readers[c].end());
      readers[c].clear();
      writer[c] = i;
    }
    for (uint32_t d : before) {
      const uint32_t tb = ops[d].tb;
      if (tb != op.tb && (latest[tb] == kNone || latest[tb] < d)) latest[tb] = d;
    }
    for (uint32_t tb = 0; tb < latest.size(); ++tb) {
      if (latest[tb] != kNone) op.deps.push_back(latest[tb]);
      latest[tb] = kNone;
    }
  }
}

Step transfer_step(const LocalOp& op) {
  Step s;
  s.type = op.type;
  s.srcoff = s.dstoff = op.run.first;  // the same chunk on both ranks, in the input buffer
  s.cnt = op.run.count;
  return s;
}

// The threadblocks' steps: each op after a NOP for every dependency beyond its first (a step
// names one), then the dependencies by (threadblock, step).
msccl::Gpu emit(RankOps& rank, uint32_t id, uint32_t chunks) {
  for (LocalOp& op : rank.ops) {
    auto& steps = rank.tbs[op.tb].steps;
    for (size_t d = 1; d < op.deps.size(); ++d) {
      Step nop;
      nop.type = StepType::kNop;
      nop.cnt = 0;
      steps.push_back(nop);
    }
    op.position = static_cast<uint32_t>(steps.size());
    steps.push_back(transfer_step(op));
  }
  for (const LocalOp& op : rank.ops) {
    auto& steps = rank.tbs[op.tb].steps;
    for (size_t d = 0; d < op.deps.size(); ++d) {
      const LocalOp& on = rank.ops[op.deps[d]];
      Step& s = steps[op.position - op.deps.size() + 1 + d];
      s.depid = static_cast<int32_t>(on.tb);
      s.deps = static_cast<int32_t>(on.position);
      rank.tbs[on.tb].steps[on.position].hasdep = true;
    }
  }
  return msccl::Gpu{id, chunks, chunks, 0, std::move(rank.tbs)};
}

}  // namespace

msccl::Algo plan_to_msccl(const Plan& plan) {
  const auto [chunks, runs] = chunk_grid(plan);
  std::vector<RankOps> ranks = threadblocks(plan);
  msccl::Algo algo;
  algo.name = fmt::format("{} on {}", plan.algorithm, plan.topology);
  algo.nchunksperloop = chunks;
  algo.ngpus = plan.nodes;
  for (uint32_t v = 0; v < plan.nodes; ++v) {
    add_dependencies(ranks[v], runs, plan, chunks);
    algo.gpus.push_back(emit(ranks[v], v, chunks));
  }
  return algo;
}

std::string export_msccl(const Plan& plan) { return msccl::to_xml(plan_to_msccl(plan)); }

}  // namespace mt
