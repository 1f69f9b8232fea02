// Lockstep steps for an MSCCL program's messages: the earliest step each can take (a longest
// path through the program's order), with every Reduce and Put (a stored message a reduced
// one runs after) before every Gather.
//
// Times count half steps: step k's sends read at 2k, its receives land at 2k + 1, so a send
// that follows a receive on its rank goes a step later and a receive that follows a send may
// share its step. A local step (cpy, nop) takes no time.
#include <algorithm>

#include <fmt/format.h>

#include "common/error.hpp"
#include "interop/msccl_dataflow.hpp"

namespace mt::msccl {
namespace {

enum class Dir : uint8_t { kSend, kRecv, kLocal };

struct Event {
  uint32_t unit = 0;  // a message, or (from messages.size() on) a local step
  Dir dir = Dir::kLocal;
};

struct Edge {
  uint32_t from = 0, to = 0;  // events
  uint64_t gap = 0;           // half steps `to` is at least after `from`
};

// Edges run along the program's order: a threadblock's steps, dependencies, a fused step's
// receive before its send; a message's send and receive are tied to one step by the solver.
struct Graph {
  std::vector<Event> events;
  std::vector<Edge> edges;
  std::vector<uint32_t> first, last;  // each flattened step's first and last event
  std::vector<uint32_t> unit_step;    // a unit's flattened step (for messages, the sender)
};

Graph build_graph(const Dataflow& flow) {
  Graph g;
  const uint32_t m = static_cast<uint32_t>(flow.messages.size());
  g.unit_step.resize(m);
  for (uint32_t i = 0; i < m; ++i) g.unit_step[i] = flow.messages[i].send_step;
  for (uint32_t i = 0; i < flow.steps.size(); ++i) {
    const FlatStep& s = flow.steps[i];
    g.first.push_back(static_cast<uint32_t>(g.events.size()));
    if (s.recv_msg >= 0) g.events.push_back({static_cast<uint32_t>(s.recv_msg), Dir::kRecv});
    if (s.send_msg >= 0) g.events.push_back({static_cast<uint32_t>(s.send_msg), Dir::kSend});
    if (s.recv_msg < 0 && s.send_msg < 0) {
      g.events.push_back({static_cast<uint32_t>(g.unit_step.size()), Dir::kLocal});
      g.unit_step.push_back(i);
    }
    g.last.push_back(static_cast<uint32_t>(g.events.size() - 1));
    if (g.last.back() != g.first.back()) g.edges.push_back({g.first.back(), g.last.back(), 0});
  }
  for (uint32_t i = 0; i < flow.steps.size(); ++i) {
    const FlatStep& s = flow.steps[i];
    if (s.dep >= 0) {
      // Two receives into the same chunks land in one step only when both add.
      const uint32_t from = g.last[static_cast<size_t>(s.dep)], to = g.first[i];
      const Event& a = g.events[from];
      const Event& b = g.events[to];
      const bool both_add = a.dir == Dir::kRecv && b.dir == Dir::kRecv &&
                            flow.messages[a.unit].reduce && flow.messages[b.unit].reduce;
      const bool overwrite = a.dir == Dir::kRecv && b.dir == Dir::kRecv && !both_add;
      g.edges.push_back({from, to, overwrite ? 1u : 0u});
    }
    if (!s.next_in_tb) continue;
    // A threadblock's connection carries one message at a time.
    const Dir a = g.events[g.last[i]].dir, b = g.events[g.first[i + 1]].dir;
    g.edges.push_back({g.last[i], g.first[i + 1], a == b && a != Dir::kLocal ? 1u : 0u});
  }
  return g;
}

// Events in an order that respects every edge (Kahn); InputError naming a step on a cycle
// (the program deadlocks).
std::vector<uint32_t> event_order(const Graph& g, const Dataflow& flow,
                                  const std::function<std::string(uint32_t)>& explain) {
  std::vector<std::vector<uint32_t>> out(g.events.size());
  std::vector<uint32_t> indegree(g.events.size(), 0);
  for (uint32_t e = 0; e < g.edges.size(); ++e) {
    out[g.edges[e].from].push_back(g.edges[e].to);
    ++indegree[g.edges[e].to];
  }
  std::vector<uint32_t> order;
  for (uint32_t v = 0; v < g.events.size(); ++v) {
    if (indegree[v] == 0) order.push_back(v);
  }
  for (size_t i = 0; i < order.size(); ++i) {
    for (uint32_t w : out[order[i]]) {
      if (--indegree[w] == 0) order.push_back(w);
    }
  }
  if (order.size() == g.events.size()) return order;
  for (uint32_t v = 0; v < g.events.size(); ++v) {
    if (indegree[v] == 0) continue;
    const Event& ev = g.events[v];
    const uint32_t step = ev.dir == Dir::kLocal ? g.unit_step[ev.unit]
                          : ev.dir == Dir::kSend ? flow.messages[ev.unit].send_step
                                                 : flow.messages[ev.unit].recv_step;
    throw InputError(fmt::format("the program deadlocks: {} never runs (it waits on a cycle of "
                                 "steps, each waiting for the next through its threadblock's "
                                 "order, a dependency or a message)", explain(step)));
  }
  return order;
}

// Marks the Puts: the messages not reduced that a reduced message runs after (through the
// program's order on either end's rank). A plan's Gathers come after its last Reduce, so a
// store with a Reduce after it writes a partial sum in the reduce-scatter: a Put.
void mark_puts(const Graph& g, Dataflow& flow, const std::vector<uint32_t>& order) {
  std::vector<std::vector<uint32_t>> out(g.events.size());
  for (const Edge& e : g.edges) out[e.from].push_back(e.to);
  std::vector<bool> before_reduce(g.events.size(), false);  // a reduced message runs after it
  for (auto v = order.rbegin(); v != order.rend(); ++v) {
    for (uint32_t w : out[*v]) {
      const Event& next = g.events[w];
      const bool reduced = next.dir != Dir::kLocal && flow.messages[next.unit].reduce;
      before_reduce[*v] = before_reduce[*v] || before_reduce[w] || reduced;
    }
    const Event& ev = g.events[*v];
    if (ev.dir != Dir::kLocal && before_reduce[*v] && !flow.messages[ev.unit].reduce) {
      flow.messages[ev.unit].put = true;
    }
  }
}

// The earliest half-step times: every edge kept, a send at an even time (2k, k >= 1, k >=
// `floor` for a Gather), its receive exactly one later. Passes in event order
// until nothing moves; a receive that must land later than its send's step pulls the send
// along, which a lockstep plan may not allow (InputError).
std::vector<uint32_t> solve(const Graph& g, const Dataflow& flow, const std::vector<uint32_t>& order,
                            uint32_t floor, const std::function<std::string(uint32_t)>& explain) {
  std::vector<std::vector<const Edge*>> in(g.events.size());
  for (const Edge& e : g.edges) in[e.to].push_back(&e);
  std::vector<uint64_t> time(g.events.size(), 0);
  const uint64_t bound = 2 * (uint64_t{g.events.size()} + floor + 2);
  for (bool moved = true; moved;) {
    moved = false;
    for (uint32_t v : order) {
      const Event& ev = g.events[v];
      uint64_t t = time[v];
      for (const Edge* e : in[v]) t = std::max(t, time[e->from] + e->gap);
      if (ev.dir != Dir::kLocal) {
        const Message& m = flow.messages[ev.unit];
        const uint32_t s = g.last[m.send_step], r = g.first[m.recv_step];
        const uint64_t earliest = ev.dir == Dir::kSend ? (t + 1) / 2 : t / 2;  // 2k >= t, 2k + 1 >= t
        const uint64_t k = std::max({earliest, uint64_t{m.reduce_phase() ? 1 : std::max(1u, floor)},
                                     time[s] / 2, time[r] / 2});
        moved = moved || 2 * k != time[s] || 2 * k + 1 != time[r];
        time[s] = 2 * k;
        time[r] = 2 * k + 1;
        if (time[r] > bound) {
          throw InputError(fmt::format("{}: no lockstep step fits its message: its receive "
                                       "waits for steps that wait for its send",
                                       explain(m.recv_step)));
        }
      } else if (t != time[v]) {
        time[v] = t;
        moved = true;
      }
    }
  }
  std::vector<uint32_t> steps(flow.messages.size());
  for (uint32_t i = 0; i < steps.size(); ++i) {
    steps[i] = static_cast<uint32_t>(time[g.last[flow.messages[i].send_step]] / 2);
  }
  return steps;
}

}  // namespace

std::string describe(const Algo& algo, const FlatStep& s) {
  return fmt::format("gpu {}, tb {}, step {} ({})", s.gpu, algo.gpus[s.gpu].tbs[s.tb].id, s.index,
                     step_type_name(s.type));
}

std::vector<uint32_t> schedule(Dataflow& flow,
                               const std::function<std::string(uint32_t)>& explain) {
  const Graph g = build_graph(flow);
  const std::vector<uint32_t> order = event_order(g, flow, explain);
  mark_puts(g, flow, order);
  const std::vector<uint32_t> steps = solve(g, flow, order, 0, explain);
  uint32_t reduced = 0;  // R: the last step of a Reduce or Put
  for (size_t i = 0; i < steps.size(); ++i) {
    if (flow.messages[i].reduce_phase()) reduced = std::max(reduced, steps[i]);
  }
  return solve(g, flow, order, reduced + 1, explain);
}

}  // namespace mt::msccl
