// MSCCL program -> plan (docs/msccl.md, "Import"): each message a transfer of its chunks at
// the lockstep step msccl_schedule.cpp gives it.
#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "common/error.hpp"
#include "common/input_file.hpp"
#include "interop/msccl.hpp"
#include "interop/msccl_dataflow.hpp"
#include "interop/msccl_flows.hpp"
#include "topology/routing.hpp"

namespace mt {
namespace {

using namespace msccl;

// A plan's node holds one buffer, the all-reduce's: i and o both name it, s has no place.
void check_buffer(char buffer, const std::string& at) {
  if (buffer == 's') {
    throw InputError(fmt::format("{}: uses the scratch buffer; a plan's node has only the "
                                 "all-reduce buffer (which i and o both name)", at));
  }
}

uint32_t chunk_at(int64_t off, uint32_t cnt, const Algo& algo, const std::string& at) {
  if (off < 0 || off + cnt > algo.nchunksperloop) {
    throw InputError(fmt::format("{}: chunks [{}, {}) are outside the {} chunks of the buffer "
                                 "(nchunksperloop)", at, off, off + cnt, algo.nchunksperloop));
  }
  return static_cast<uint32_t>(off);
}

// The local chunks a step touches, as the MSCCL runtime reads its fields: a send reads src, a
// receive writes dst, an rrc adds src into dst (the same chunks here), rrs adds src and sends
// the sum on, rcs stores dst and sends it on.
void set_local_chunks(const Algo& algo, const Threadblock& tb, const Step& st, FlatStep& f,
                      const std::string& at) {
  if (st.type == StepType::kNop) return;
  if (st.type == StepType::kReduce) {
    throw InputError(fmt::format("{}: a local reduction has no place in a plan, whose nodes add "
                                 "only what they receive", at));
  }
  if (sends(st.type) && tb.send < 0) throw InputError(fmt::format("{}: sends, but its tb has send=-1", at));
  if (receives(st.type) && tb.recv < 0) throw InputError(fmt::format("{}: receives, but its tb has recv=-1", at));
  const bool reads = st.type == StepType::kSend || st.type == StepType::kRecvReduceSend;
  const bool writes = st.type == StepType::kRecv || st.type == StepType::kRecvCopySend;
  if (!writes) check_buffer(st.srcbuf, at);
  if (!reads) check_buffer(st.dstbuf, at);
  f.cnt = st.cnt;
  if (reads || writes) {
    f.first = chunk_at(reads ? st.srcoff : st.dstoff, st.cnt, algo, at);
    return;
  }
  f.first = chunk_at(st.srcoff, st.cnt, algo, at);
  if (chunk_at(st.dstoff, st.cnt, algo, at) != f.first) {
    throw InputError(fmt::format(
        "{}: {} chunks [{}, {}) into chunks [{}, {}); a plan keeps every chunk at its own place "
        "in the buffer", at, st.type == StepType::kCopy ? "copies" : "adds", st.srcoff,
        st.srcoff + st.cnt, st.dstoff, st.dstoff + st.cnt));
  }
}

// Every step flattened, in gpu, threadblock and step order, with its dependency resolved.
std::vector<FlatStep> flatten(const Algo& algo, const std::string& where) {
  std::vector<FlatStep> out;
  for (const Gpu& g : algo.gpus) {
    std::map<int32_t, std::pair<uint32_t, uint32_t>> tb_at;  // id -> (index, first flat step)
    uint32_t next = static_cast<uint32_t>(out.size());
    for (uint32_t b = 0; b < g.tbs.size(); ++b) {
      tb_at[g.tbs[b].id] = {b, next};
      next += static_cast<uint32_t>(g.tbs[b].steps.size());
    }
    for (uint32_t b = 0; b < g.tbs.size(); ++b) {
      const Threadblock& tb = g.tbs[b];
      for (uint32_t s = 0; s < tb.steps.size(); ++s) {
        const Step& st = tb.steps[s];
        FlatStep f;
        f.gpu = g.id;
        f.tb = b;
        f.index = s;
        f.type = st.type;
        f.next_in_tb = s + 1 < tb.steps.size();
        if (st.depid >= 0) f.dep = tb_at.at(st.depid).second + st.deps;
        set_local_chunks(algo, tb, st, f, fmt::format("{}: {}", where, describe(algo, f)));
        out.push_back(f);
      }
    }
  }
  return out;
}

using Connection = std::tuple<uint32_t, uint32_t, int32_t>;  // sender, receiver, channel

// The steps that send (or receive) on each connection, in threadblock order; one threadblock
// per rank, peer, channel and direction.
void connections(const Algo& algo, const std::vector<FlatStep>& steps, const std::string& where,
                 std::map<Connection, std::vector<uint32_t>>& out,
                 std::map<Connection, std::vector<uint32_t>>& in) {
  std::set<std::tuple<uint32_t, uint32_t, int32_t, bool>> owner;
  for (const Gpu& g : algo.gpus) {
    for (const Threadblock& tb : g.tbs) {
      for (const auto& [peer, sending] : {std::pair{tb.send, true}, std::pair{tb.recv, false}}) {
        if (peer >= 0 && !owner.emplace(g.id, peer, tb.chan, sending).second) {
          throw InputError(fmt::format("{}: gpu {}: two threadblocks {} {} on channel {}; MSCCL "
                                       "gives a connection one threadblock", where, g.id,
                                       sending ? "send to" : "receive from", peer, tb.chan));
        }
      }
    }
  }
  for (uint32_t i = 0; i < steps.size(); ++i) {
    const Threadblock& tb = algo.gpus[steps[i].gpu].tbs[steps[i].tb];
    const uint32_t me = steps[i].gpu;
    if (sends(steps[i].type)) out[{me, static_cast<uint32_t>(tb.send), tb.chan}].push_back(i);
    if (receives(steps[i].type)) in[{static_cast<uint32_t>(tb.recv), me, tb.chan}].push_back(i);
  }
}

// The k-th send on a connection is the k-th receive on it; both name the same chunks.
Dataflow match(const Algo& algo, std::vector<FlatStep> steps, const std::string& where) {
  std::map<Connection, std::vector<uint32_t>> out, in;
  connections(algo, steps, where, out, in);
  for (const auto& [c, _] : out) in[c];
  Dataflow flow;
  for (const auto& [c, recvs] : in) {
    const std::vector<uint32_t>& sent = out[c];
    const auto [src, dst, chan] = c;
    if (sent.size() != recvs.size()) {
      throw InputError(fmt::format("{}: gpu {} sends {} message(s) to gpu {} on channel {} and "
                                   "gpu {} receives {}", where, src, sent.size(), dst, chan, dst,
                                   recvs.size()));
    }
    for (size_t k = 0; k < sent.size(); ++k) {
      FlatStep& s = steps[sent[k]];
      FlatStep& r = steps[recvs[k]];
      if (s.first != r.first || s.cnt != r.cnt) {
        throw InputError(fmt::format(
            "{}: {} sends chunks [{}, {}) and its receiver, {}, takes them as chunks [{}, {}); a "
            "plan's transfer keeps its bytes' place", where, describe(algo, s), s.first,
            s.first + s.cnt, describe(algo, r), r.first, r.first + r.cnt));
      }
      s.send_msg = r.recv_msg = static_cast<int64_t>(flow.messages.size());
      flow.messages.push_back({sent[k], recvs[k], src, dst, s.first, s.cnt, reduces(r.type)});
    }
  }
  flow.steps = std::move(steps);
  return flow;
}

// The messages as transfers, a transfer per non-empty chunk (flow and range c for chunk c, until
// assign_msccl_flows gives each its tree's flow), in step order: Reduces and Puts keep their
// steps 1..R, Gathers move to T+1..2T.
void add_transfers(Plan& plan, const Dataflow& flow, const std::vector<uint32_t>& steps) {
  uint32_t reduced = 0, last = 0;
  for (size_t i = 0; i < steps.size(); ++i) {
    last = std::max(last, steps[i]);
    if (flow.messages[i].reduce_phase()) reduced = std::max(reduced, steps[i]);
  }
  plan.steps_per_phase = std::max({1u, reduced, last - reduced});
  const uint32_t shift = plan.steps_per_phase - reduced;
  for (size_t i = 0; i < steps.size(); ++i) {
    const Message& m = flow.messages[i];
    const uint32_t step = m.reduce_phase() ? steps[i] : steps[i] + shift;
    const Op op = m.reduce ? Op::kReduce : m.put ? Op::kPut : Op::kGather;
    for (uint32_t c = m.first; c < m.first + m.cnt; ++c) {
      if (plan.ranges[c].size == 0) continue;  // fewer 16-byte grains than chunks
      plan.transfers.push_back({c, m.src, m.dst, c, step, op});
    }
  }
  std::stable_sort(plan.transfers.begin(), plan.transfers.end(),
                   [](const Transfer& a, const Transfer& b) { return a.step < b.step; });
}

// One hop where every transfer joins neighbours of a direct network; then contention-free
// where no two transfers share a sender, receiver and step (the verifier holds it to that).
void set_links(Plan& plan, const Topology& topo) {
  plan.neighbour_only = topo.direct();
  std::set<std::tuple<uint32_t, uint32_t, uint32_t>> used;
  plan.contention_free = true;
  for (const Transfer& t : plan.transfers) {
    plan.neighbour_only = plan.neighbour_only && topo.adjacent(t.src, t.dst);
    plan.contention_free = plan.contention_free && used.emplace(t.src, t.dst, t.step).second;
  }
  plan.contention_free = plan.contention_free && plan.neighbour_only;
  if (!topo.direct()) plan.routes = Router(topo).routes(plan.transfers);
}

}  // namespace

bool is_msccl_algorithm(const std::string& algorithm) {
  return algorithm.rfind(kMscclPrefix, 0) == 0;
}

std::string msccl_path(const std::string& algorithm) {
  const std::string path = algorithm.substr(std::string(kMscclPrefix).size());
  if (path.empty()) throw InputError("algorithm \"msccl:\": give the MSCCL XML file, msccl:PATH");
  return path;
}

std::vector<RunFile> algorithm_inputs(const std::string& algorithm, const std::string& option) {
  if (!is_msccl_algorithm(algorithm)) return {};
  return {{option, msccl_path(algorithm)}};
}

Plan msccl_to_plan(const Algo& algo, const Topology& topo, const PlanOptions& opt,
                   const std::string& where) {
  if (algo.coll != "allreduce") {
    throw InputError(fmt::format("{}: coll=\"{}\"; only an allreduce imports as a plan", where, algo.coll));
  }
  if (algo.ngpus != topo.nodes()) {
    throw InputError(fmt::format("{}: the algorithm has {} ranks (ngpus), topology {} has {} nodes",
                                 where, algo.ngpus, topo.spec(), topo.nodes()));
  }
  constexpr uint32_t kMaxChunks = 1u << 20;  // a flow each
  if (algo.nchunksperloop > kMaxChunks) {
    throw InputError(fmt::format("{}: nchunksperloop={}; at most {} chunks import", where,
                                 algo.nchunksperloop, kMaxChunks));
  }
  Dataflow flow = match(algo, flatten(algo, where), where);
  if (flow.messages.empty()) throw InputError(fmt::format("{}: the algorithm sends nothing", where));
  const std::vector<uint32_t> steps = schedule(flow, [&](uint32_t s) {
    return fmt::format("{}: {}", where, describe(algo, flow.steps[s]));
  });
  Plan plan;
  plan.algorithm = "msccl";
  plan.topology = topo.spec();
  plan.nodes = topo.nodes();
  plan.bytes = opt.bytes;
  plan.dtype = opt.dtype;
  plan.ranges = split_bytes(opt.bytes, algo.nchunksperloop);
  add_transfers(plan, flow, steps);
  assign_msccl_flows(plan, algo.nchunksperloop);
  set_links(plan, topo);
  return plan;
}

Plan import_msccl(const std::string& algorithm, const Topology& topo, const PlanOptions& opt) {
  const std::string path = msccl_path(algorithm);
  const Algo algo = parse_xml(read_input_file(path), path);
  return msccl_to_plan(algo, topo, opt, path);
}

}  // namespace mt
