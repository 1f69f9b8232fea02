// Plan verifier: structure, link contention, wait rules, and symbolic execution of the sums.
#include "verifier/verifier.hpp"

#include <algorithm>
#include <unordered_map>

#include <fmt/format.h>

#include "common/error.hpp"
#include "plan/plan_index.hpp"
#include "topology/routing.hpp"
#include "verifier/wait_rules.hpp"

namespace mt {
namespace {

uint32_t neighbour_link(const Topology& topo, uint32_t a, uint32_t b) {
  for (uint32_t l : topo.out_links(a)) {
    if (topo.links()[l].dst == b) return l;
  }
  throw std::logic_error("verifier: neighbours without a link");
}

bool full(const VerifyReport& r, size_t max_errors) { return r.errors.size() >= max_errors; }

void check_structure(const Plan& plan, const Topology& topo, VerifyReport& r, size_t max_errors) {
  auto err = [&](std::string msg) {
    if (!full(r, max_errors)) r.errors.push_back(std::move(msg));
  };
  if (plan.nodes != topo.nodes()) {
    err(fmt::format("plan is for {} nodes, topology {} has {}", plan.nodes, topo.spec(), topo.nodes()));
    return;
  }
  if (plan.steps_per_phase == 0) err("plan has zero steps per phase");
  if (plan.bytes == 0 || plan.bytes % kElementBytes != 0) {
    err(fmt::format("plan buffer of {} bytes is not a positive multiple of {}", plan.bytes,
                    kElementBytes));
  }
  if (plan.flows.empty()) err("plan has no flows");
  for (uint32_t f = 0; f < plan.flows.size(); ++f) {
    if (plan.flows[f].root >= plan.nodes) err(fmt::format("flow {}: root {} is not a node", f, plan.flows[f].root));
  }
  for (uint32_t i = 0; i < plan.ranges.size(); ++i) {
    const ByteRange& b = plan.ranges[i];
    if (b.end() > plan.bytes || b.offset % kElementBytes || b.size % kElementBytes) {
      err(fmt::format("range {} = bytes [{}, {}) is not element-aligned inside the {}-byte buffer",
                      i, b.offset, b.end(), plan.bytes));
    }
  }
  if (!plan.routes.empty() && plan.routes.size() != plan.transfers.size()) {
    err(fmt::format("plan has {} routes for {} transfers", plan.routes.size(), plan.transfers.size()));
    return;
  }
  const uint32_t T = plan.steps_per_phase;
  for (size_t i = 0; i < plan.transfers.size() && !full(r, max_errors); ++i) {
    const Transfer& t = plan.transfers[i];
    auto at = [&] {
      return fmt::format("transfer {} (node {} -> {}, flow {}, step {})", i, t.src, t.dst, t.flow,
                         t.step);
    };
    if (t.src >= plan.nodes || t.dst >= plan.nodes || t.src == t.dst) {
      err(fmt::format("{}: source and destination must be two different nodes of {}", at(), plan.nodes));
      continue;
    }
    if (t.flow >= plan.flows.size()) err(fmt::format("{}: flow {} does not exist", at(), t.flow));
    if (t.range >= plan.ranges.size() || plan.ranges[t.range].size == 0) {
      err(fmt::format("{}: carries no bytes (range {})", at(), t.range));
    }
    if (t.op == Op::kReduce && (t.step < 1 || t.step > T)) {
      err(fmt::format("{}: a Reduce must be in reduce-scatter steps 1..{}", at(), T));
    } else if (t.op == Op::kGather && (t.step <= T || t.step > 2 * T)) {
      err(fmt::format("{}: a Gather must be in all-gather steps {}..{}", at(), T + 1, 2 * T));
    } else if (t.op == Op::kNop) {
      err(fmt::format("{}: a NOP is not a transfer", at()));
    }
    if (plan.neighbour_only && !(topo.direct() && topo.adjacent(t.src, t.dst))) {
      err(fmt::format("{}: nodes {} and {} are not neighbours in {}", at(), t.src, t.dst, topo.spec()));
    }
    if (!plan.routes.empty()) {
      const std::vector<uint32_t>& path = plan.routes[i];
      uint32_t at_vertex = t.src;
      bool ok = !path.empty();
      for (size_t h = 0; ok && h < path.size(); ++h) {
        ok = path[h] < topo.links().size() && topo.links()[path[h]].src == at_vertex &&
             (h == 0 || topo.forwards(at_vertex));
        if (ok) at_vertex = topo.links()[path[h]].dst;
      }
      if (!ok || at_vertex != t.dst) err(fmt::format("{}: its route is not a path from {} to {}", at(), t.src, t.dst));
    }
  }
}

// Per step, how many transfers each directed link carries; bytes per link overall.
void check_links(const Plan& plan, const Topology& topo, const PlanIndex& index, VerifyReport& r,
                 size_t max_errors) {
  const size_t links = topo.links().size();
  r.link_bytes.assign(links, 0);
  std::vector<uint32_t> count(links, 0), stamp(links, 0), first(links, 0);
  std::vector<uint32_t> path;
  for (uint32_t s = 1; s <= plan.total_steps(); ++s) {
    for (uint32_t id : index.by_step(s)) {
      const Transfer& t = plan.transfers[id];
      if (!plan.routes.empty()) {
        path = plan.routes[id];
      } else if (plan.neighbour_only) {
        path.assign(1, neighbour_link(topo, t.src, t.dst));
      } else {
        path = route(topo, t.src, t.dst);
      }
      for (uint32_t l : path) {
        if (stamp[l] != s) {
          stamp[l] = s;
          count[l] = 0;
          first[l] = id;
        }
        ++count[l];
        r.link_bytes[l] += plan.ranges[t.range].size;
        // Parallel links form one bundle in route(); explicit routes name each one.
        const Link& link = topo.links()[l];
        const uint32_t allowed = plan.routes.empty() ? topo.multiplicity(link.src, link.dst) : 1;
        r.max_step_link_load = std::max(r.max_step_link_load, (count[l] + allowed - 1) / allowed);
        if (plan.contention_free && count[l] == allowed + 1 && !full(r, max_errors)) {
          const Transfer& a = plan.transfers[first[l]];
          r.errors.push_back(fmt::format(
              "step {}: link {} -> {} carries more than {} transfer(s): flow {} ({} -> {}) and "
              "flow {} ({} -> {}) among them", s, link.src, link.dst, allowed, a.flow, a.src, a.dst,
              t.flow, t.src, t.dst));
        }
      }
    }
  }
  for (uint64_t b : r.link_bytes) r.max_link_bytes = std::max(r.max_link_bytes, b);
}

// Symbolic execution: every node's value of every byte segment is a set of contributing
// nodes (a bitset). Reduce adds a disjoint set; Gather copies a complete one.
void check_sums(const Plan& plan, const PlanIndex& index, VerifyReport& r, size_t max_errors) {
  std::vector<uint64_t> cuts{0, plan.bytes};
  for (const ByteRange& b : plan.ranges) {
    cuts.push_back(b.offset);
    cuts.push_back(b.end());
  }
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  const size_t segments = cuts.size() - 1;
  // Segments [first, last) each range covers.
  std::vector<std::pair<size_t, size_t>> span_of(plan.ranges.size());
  for (size_t i = 0; i < plan.ranges.size(); ++i) {
    auto at = [&](uint64_t offset) {
      return static_cast<size_t>(std::lower_bound(cuts.begin(), cuts.end(), offset) - cuts.begin());
    };
    span_of[i] = {at(plan.ranges[i].offset), at(plan.ranges[i].end())};
  }
  // Transfers touching each segment, in step order (compressed rows).
  std::vector<uint64_t> start(segments + 1, 0);
  auto for_segments = [&](auto&& fn) {
    for (uint32_t s = 1; s <= plan.total_steps(); ++s) {
      for (uint32_t id : index.by_step(s)) {
        const auto [first, last] = span_of[plan.transfers[id].range];
        for (size_t g = first; g < last; ++g) fn(g, id);
      }
    }
  };
  for_segments([&](size_t g, uint32_t) { ++start[g + 1]; });
  for (size_t g = 0; g < segments; ++g) start[g + 1] += start[g];
  std::vector<uint32_t> ids(start.back());
  {
    std::vector<uint64_t> next(start.begin(), start.end() - 1);
    for_segments([&](size_t g, uint32_t id) { ids[next[g]++] = id; });
  }

  const uint32_t n = plan.nodes;
  const size_t words = (n + 63) / 64;
  std::vector<uint64_t> state(static_cast<size_t>(n) * words), sent;
  auto set_of = [&](uint32_t v) { return state.data() + static_cast<size_t>(v) * words; };
  std::vector<uint64_t> all(words, ~0ull);
  if (n % 64) all.back() = (1ull << (n % 64)) - 1;
  // The first node missing from a set, or n when the set is complete.
  auto missing = [&](const uint64_t* bits) -> uint32_t {
    for (size_t w = 0; w < words; ++w) {
      if (const uint64_t gap = all[w] & ~bits[w]) {
        return static_cast<uint32_t>(w * 64 + static_cast<size_t>(__builtin_ctzll(gap)));
      }
    }
    return n;
  };
  auto err = [&](std::string msg) {
    if (!full(r, max_errors)) r.errors.push_back(std::move(msg));
  };
  for (size_t g = 0; g < segments && !full(r, max_errors); ++g) {
    if (cuts[g] >= plan.bytes) break;
    std::fill(state.begin(), state.end(), 0);
    for (uint32_t v = 0; v < n; ++v) set_of(v)[v / 64] = 1ull << (v % 64);
    for (uint64_t i = start[g]; i < start[g + 1];) {
      // One step at a time: all sends read the values from before the step's receives.
      const uint32_t step = plan.transfers[ids[i]].step;
      uint64_t j = i;
      while (j < start[g + 1] && plan.transfers[ids[j]].step == step) ++j;
      sent.resize((j - i) * words);
      for (uint64_t k = i; k < j; ++k) {
        const uint64_t* from = set_of(plan.transfers[ids[k]].src);
        std::copy(from, from + words, sent.data() + (k - i) * words);
      }
      for (uint64_t k = i; k < j; ++k) {
        const Transfer& t = plan.transfers[ids[k]];
        const uint64_t* in = sent.data() + (k - i) * words;
        uint64_t* to = set_of(t.dst);
        auto at = [&] {
          return fmt::format("node {}, flow {}, step {}, bytes [{}, {})", t.dst, t.flow, t.step,
                             cuts[g], cuts[g + 1]);
        };
        if (t.op == Op::kReduce) {
          for (size_t w = 0; w < words; ++w) {
            if (const uint64_t twice = to[w] & in[w]) {
              err(fmt::format("{}: the Reduce from node {} counts node {}'s contribution a second "
                              "time", at(), t.src, w * 64 + static_cast<size_t>(__builtin_ctzll(twice))));
              break;
            }
          }
          for (size_t w = 0; w < words; ++w) to[w] |= in[w];
        } else {
          const uint32_t u = missing(in);
          if (u < n) {
            err(fmt::format("{}: the Gather from node {} carries a partial sum without node {}'s "
                            "contribution", at(), t.src, u));
          }
          std::copy(in, in + words, to);
        }
      }
      i = j;
    }
    for (uint32_t v = 0; v < n && !full(r, max_errors); ++v) {
      const uint32_t u = missing(set_of(v));
      if (u < n) {
        uint32_t flow = 0;
        for (uint32_t f = 0; f < plan.flows.size(); ++f) {
          const ByteRange& c = plan.flows[f].chunk;
          if (c.offset <= cuts[g] && cuts[g] < c.end()) flow = f;
        }
        err(fmt::format("node {}, flow {}, bytes [{}, {}): ends the all-reduce without node {}'s "
                        "contribution", v, flow, cuts[g], cuts[g + 1], u));
        break;  // one node per segment says enough
      }
    }
  }
}

VerifyReport verify(const Plan& plan, const Topology& topo, size_t max_errors,
                    const TableSet* tables) {
  VerifyReport r;
  r.steps_per_phase = plan.steps_per_phase;
  r.diameter = topo.diameter();
  r.transfers = plan.transfers.size();
  // The node with the fewest links receives N-1 chunks per phase through them.
  const uint32_t degree = std::max(1u, topo.min_node_degree());
  r.step_bound = std::max(r.diameter, (topo.nodes() - 1 + degree - 1) / degree);
  check_structure(plan, topo, r, max_errors);
  if (!r.ok()) return r;  // later checks index by the ids checked here
  const PlanIndex index(plan);
  check_links(plan, topo, index, r, max_errors);
  check_wait_rules(plan, index, tables, r.errors, max_errors);
  check_sums(plan, index, r, max_errors);
  return r;
}

}  // namespace

VerifyReport verify_plan(const Plan& plan, const Topology& topo, size_t max_errors) {
  return verify(plan, topo, max_errors, nullptr);
}

VerifyReport verify_tables(const TableSet& tables, const Topology& topo, size_t max_errors) {
  Plan plan = plan_from_tables(tables);
  plan.neighbour_only = topo.direct();
  for (const Transfer& t : plan.transfers) {
    plan.neighbour_only = plan.neighbour_only && t.src < topo.nodes() && t.dst < topo.nodes() &&
                          topo.adjacent(t.src, t.dst);
  }
  // Tables do not carry routes; one-hop plans are held to contention freedom.
  plan.contention_free = plan.neighbour_only;
  return verify(plan, topo, max_errors, &tables);
}

void require_valid(const Plan& plan, const Topology& topo) {
  const VerifyReport r = verify_plan(plan, topo, 5);
  if (r.ok()) return;
  std::string msg = fmt::format("plan {} on {} does not verify:", plan.algorithm, plan.topology);
  for (const std::string& e : r.errors) msg += "\n  " + e;
  throw InputError(msg);
}

}  // namespace mt
