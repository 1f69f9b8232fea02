// Plan verifier: structure, link contention, wait rules, and symbolic execution of the sums.
#include "verifier/verifier.hpp"

#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "common/error.hpp"
#include "plan/plan_index.hpp"
#include "topology/routing.hpp"
#include "verifier/aggregation_check.hpp"
#include "verifier/aggregation_sums.hpp"
#include "verifier/check_sums.hpp"
#include "verifier/tree_links.hpp"
#include "verifier/wait_rules.hpp"

namespace mt {
namespace {

void check_structure(const Plan& plan, const Topology& topo, ErrorList& errors) {
  if (plan.nodes != topo.nodes()) {
    errors.add(fmt::format("plan is for {} nodes, topology {} has {}", plan.nodes, topo.spec(), topo.nodes()));
    return;
  }
  if (plan.steps_per_phase == 0 || plan.steps_per_phase >= (1u << 30)) {
    errors.add(fmt::format("plan has {} steps per phase; 1 to 2^30-1 are supported", plan.steps_per_phase));
  }
  if (plan.bytes == 0 || plan.bytes % kElementBytes != 0) {
    errors.add(fmt::format("plan buffer of {} bytes is not a positive multiple of {}", plan.bytes,
                    kElementBytes));
  }
  if (plan.flows.empty()) errors.add("plan has no flows");
  for (uint32_t f = 0; f < plan.flows.size(); ++f) {
    if (plan.flows[f].root >= plan.nodes) errors.add(fmt::format("flow {}: root {} is not a node", f, plan.flows[f].root));
  }
  for (uint32_t i = 0; i < plan.ranges.size(); ++i) {
    const ByteRange& b = plan.ranges[i];
    if (b.end() > plan.bytes || b.offset % kElementBytes || b.size % kElementBytes) {
      errors.add(fmt::format("range {} = bytes [{}, {}) is not element-aligned inside the {}-byte buffer",
                      i, b.offset, b.end(), plan.bytes));
    }
    if (b.size != 0 && b.offset % kChunkGrainBytes != 0) {
      errors.add(fmt::format("range {} = bytes [{}, {}) does not start at a multiple of {} bytes "
                             "(a flit's payload, which the NI's blocks are cut in)",
                             i, b.offset, b.end(), kChunkGrainBytes));
    }
  }
  if (!plan.routes.empty() && plan.routes.size() != plan.transfers.size()) {
    errors.add(fmt::format("plan has {} routes for {} transfers", plan.routes.size(), plan.transfers.size()));
    return;
  }
  const uint32_t T = plan.steps_per_phase;
  for (size_t i = 0; i < plan.transfers.size() && !errors.full(); ++i) {
    const Transfer& t = plan.transfers[i];
    auto at = [&] {
      return fmt::format("transfer {} (node {} -> {}, flow {}, step {})", i, t.src, t.dst, t.flow,
                         t.step);
    };
    if (t.src >= plan.nodes || t.dst >= plan.nodes || t.src == t.dst) {
      errors.add(fmt::format("{}: source and destination must be two different nodes of {}", at(), plan.nodes));
      continue;
    }
    if (t.flow >= plan.flows.size()) errors.add(fmt::format("{}: flow {} does not exist", at(), t.flow));
    if (t.range >= plan.ranges.size() || plan.ranges[t.range].size == 0) {
      errors.add(fmt::format("{}: carries no bytes (range {})", at(), t.range));
    }
    if (t.op == Op::kReduce && (t.step < 1 || t.step > T)) {
      errors.add(fmt::format("{}: a Reduce must be in reduce-scatter steps 1..{}", at(), T));
    } else if (t.op == Op::kGather && (t.step <= T || t.step > 2 * T)) {
      errors.add(fmt::format("{}: a Gather must be in all-gather steps {}..{}", at(), T + 1, 2 * T));
    } else if (t.op == Op::kPut && (t.step < 1 || t.step > 2 * T)) {
      errors.add(fmt::format("{}: a Put must be in steps 1..{}", at(), 2 * T));
    } else if (t.op == Op::kNop) {
      errors.add(fmt::format("{}: a NOP is not a transfer", at()));
    }
    if (plan.neighbour_only && !(topo.direct() && topo.adjacent(t.src, t.dst))) {
      errors.add(fmt::format("{}: nodes {} and {} are not neighbours in {}", at(), t.src, t.dst, topo.spec()));
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
      if (!ok || at_vertex != t.dst) errors.add(fmt::format("{}: its route is not a path from {} to {}", at(), t.src, t.dst));
    }
  }
}

// Notes link l carrying transfer `id` in step `step`; reports a clash on a promised plan.
class LinkCounter {
 public:
  LinkCounter(const Plan& plan, const Topology& topo, VerifyReport& r, ErrorList& errors)
      : plan_(plan), topo_(topo), r_(r), errors_(errors), count_(topo.links().size(), 0),
        stamp_(topo.links().size(), 0), first_(topo.links().size(), 0) {
    r_.link_bytes.assign(topo.links().size(), 0);
  }

  // `allowed`: parallel links that share the load (a bundle), or 1 for a named link.
  void add(uint32_t l, uint32_t id, uint32_t allowed) {
    const Transfer& t = plan_.transfers[id];
    if (stamp_[l] != t.step) {
      stamp_[l] = t.step;
      count_[l] = 0;
      first_[l] = id;
    }
    ++count_[l];
    r_.link_bytes[l] += plan_.ranges[t.range].size;
    r_.max_step_link_load = std::max(r_.max_step_link_load, (count_[l] + allowed - 1) / allowed);
    if (plan_.contention_free && count_[l] == allowed + 1) {
      const Transfer& a = plan_.transfers[first_[l]];
      const Link& link = topo_.links()[l];
      errors_.add(fmt::format(
          "step {}: link {} -> {} carries more than {} transfer(s): flow {} ({} -> {}) and flow "
          "{} ({} -> {}) among them", t.step, link.src, link.dst, allowed, a.flow, a.src, a.dst,
          t.flow, t.src, t.dst));
    }
  }

 private:
  const Plan& plan_;
  const Topology& topo_;
  VerifyReport& r_;
  ErrorList& errors_;
  std::vector<uint32_t> count_, stamp_, first_;
};

// Per step, how many transfers each directed link carries; bytes per link overall. A flow with
// a switch aggregation tree counts on the tree's links (tree_links.hpp).
void check_links(const Plan& plan, const Topology& topo, const PlanIndex& index, VerifyReport& r,
                 ErrorList& errors) {
  LinkCounter counter(plan, topo, r, errors);
  if (plan.neighbour_only && plan.routes.empty()) {
    // One hop: a sender's transfers only use its own links, so count sender by sender (its
    // sends are in step order), which keeps large plans in cache.
    for (uint32_t v = 0; v < plan.nodes; ++v) {
      for (uint32_t id : index.sends(v)) {
        const uint32_t dst = plan.transfers[id].dst;
        counter.add(topo.first_link(v, dst), id, topo.multiplicity(v, dst));
      }
    }
  } else {
    // Steps in order: the counter keeps one step's counts per link at a time.
    const StepOrder order(plan);
    Router router(topo);
    // Searched routes are found a source at a time, before the steps.
    const std::vector<std::vector<uint32_t>> searched =
        plan.routes.empty() && router.searches() ? router.routes(plan.transfers)
                                                 : std::vector<std::vector<uint32_t>>{};
    // A flow with a switch aggregation tree goes into the tree, not along its route.
    std::optional<TreeLinks> trees;
    if (!plan.aggregations.empty()) trees.emplace(plan, topo);
    for (uint64_t i = order.start[1]; i < order.start[plan.total_steps() + 1]; ++i) {
      const uint32_t id = order.ids[i];
      if (trees && trees->has_tree(plan.transfers[id].flow)) {
        for (const TreeLinks::Hop& h : trees->hops(id)) counter.add(h.link, id, h.parallel);
        continue;
      }
      if (!plan.routes.empty()) {
        for (uint32_t l : plan.routes[id]) counter.add(l, id, 1);
        continue;
      }
      // Dimension-order routes name the first link of a bundle.
      const Transfer& t = plan.transfers[id];
      for (uint32_t l : searched.empty() ? router.route(t.src, t.dst) : searched[id]) {
        counter.add(l, id, topo.multiplicity(topo.links()[l].src, topo.links()[l].dst));
      }
    }
  }
  for (uint64_t b : r.link_bytes) r.max_link_bytes = std::max(r.max_link_bytes, b);
}

// VerifyReport::unordered_puts: per node, each Put arrival against the node's Reduce arrivals.
uint64_t count_unordered_puts(const Plan& plan, const PlanIndex& index) {
  uint64_t count = 0;
  std::vector<uint32_t> puts, reduces;
  for (uint32_t v = 0; v < plan.nodes; ++v) {
    puts.clear();
    reduces.clear();
    for (const uint32_t id : index.receives(v)) {
      if (plan.transfers[id].op == Op::kPut) puts.push_back(id);
      if (plan.transfers[id].op == Op::kReduce) reduces.push_back(id);
    }
    for (const uint32_t p : puts) {
      const Transfer& a = plan.transfers[p];
      const ByteRange& ra = plan.ranges[a.range];
      for (const uint32_t r : reduces) {
        const Transfer& b = plan.transfers[r];
        const ByteRange& rb = plan.ranges[b.range];
        if (b.step > a.step && b.src != a.src && ra.offset < rb.end() && rb.offset < ra.end()) {
          ++count;
          break;
        }
      }
    }
  }
  return count;
}

VerifyReport verify(const Plan& plan, const Topology& topo, size_t max_errors,
                    const TableSet* tables, const PlanIndex* given_index) {
  VerifyReport r;
  r.steps_per_phase = plan.steps_per_phase;
  r.diameter = topo.diameter();
  r.transfers = plan.transfers.size();
  // The node with the fewest links receives N-1 chunks per phase through them.
  const uint32_t degree = std::max(1u, topo.min_node_degree());
  r.step_bound = std::max(r.diameter, (topo.nodes() - 1 + degree - 1) / degree);
  ErrorList errors(r.errors, max_errors);
  check_structure(plan, topo, errors);
  for (size_t n = 0; tables && n < tables->tables.size() && !errors.full(); ++n) {
    const std::string rule = table_rule_error(tables->tables[n]);
    if (!rule.empty()) errors.add(rule);
  }
  if (!r.ok()) return r;  // later checks index by the ids checked here
  if (!plan.aggregations.empty() && !mixed_aggregation(plan)) {
    // In-network aggregation: the switches sum; the node-to-node checks below do not apply.
    check_aggregation(plan, topo, errors);
    if (r.ok()) check_links(plan, topo, PlanIndex(plan), r, errors);
    return r;
  }
  std::optional<PlanIndex> own_index;
  const PlanIndex& index = given_index ? *given_index : own_index.emplace(plan);
  if (!plan.aggregations.empty()) {
    // Mixed: the trees as above, the NIs' waits across both kinds of flow, and the sums
    // with each tree's sum in place (aggregation_sums.hpp).
    check_aggregation(plan, topo, errors);
    if (!r.ok()) return r;
    check_links(plan, topo, index, r, errors);
    check_wait_rules(plan, index, tables, errors);
    check_mixed_sums(plan, errors);
    return r;
  }
  check_links(plan, topo, index, r, errors);
  check_wait_rules(plan, index, tables, errors);
  check_sums(plan, errors);
  if (std::any_of(plan.transfers.begin(), plan.transfers.end(),
                  [](const Transfer& t) { return t.op == Op::kPut; })) {
    r.unordered_puts = count_unordered_puts(plan, index);
  }
  return r;
}

}  // namespace

VerifyReport verify_plan(const Plan& plan, const Topology& topo, size_t max_errors) {
  return verify(plan, topo, max_errors, nullptr, nullptr);
}

VerifyReport verify_tables(const TableSet& tables, const Topology& topo, size_t max_errors) {
  if (tables.algorithm == "ina" || tables.algorithm == "netreduce") {
    // The NIs' half of an in-network aggregation: the sums are the switches' tables, which a
    // table set does not hold. verify_plan proves the plan, TableChecker its tables.
    VerifyReport r;
    r.errors.push_back(fmt::format("tables of {0}: each NI sends into the switches' "
                                   "aggregation tree and waits for its sum, and the switches' "
                                   "tables are not in a table set; the plan is proved where it "
                                   "is built (mtc plan -a {0}, mtsim -a {0})", tables.algorithm));
    return r;
  }
  Plan plan = plan_from_tables(tables);
  plan.neighbour_only = topo.direct();
  for (const Transfer& t : plan.transfers) {
    plan.neighbour_only = plan.neighbour_only && t.src < topo.nodes() && t.dst < topo.nodes() &&
                          topo.adjacent(t.src, t.dst);
  }
  // Tables are checked for what they express: that they perform a correct all-reduce (the
  // sums, and the wait rules that make every send wait for its data). Contention freedom is
  // not in them: it is a promise some algorithms make (multitree, one-hop rings) and others
  // never do (dbtree, even where all its tree edges happen to be one hop, as on ring:3), and
  // neither the tables, the images nor the manifest carry the promise or the routes it is
  // about (hdrm's go through switches). It is not needed for correctness either: the NI
  // waits for data, not for a step's link slot, so two transfers on a link in one step only
  // take longer. The promise is enforced where it is made, by verify_plan on every plan
  // before compile_tables, which keeps every transfer's nodes and step; here the link load is
  // only reported (max_step_link_load).
  plan.contention_free = false;
  return verify(plan, topo, max_errors, &tables, nullptr);
}

VerifyReport require_valid(const Plan& plan, const Topology& topo, const PlanIndex* index) {
  VerifyReport r = verify(plan, topo, 5, nullptr, index);
  if (r.ok()) return r;
  std::string msg = fmt::format("plan {} on {} does not verify:", plan.algorithm, plan.topology);
  for (const std::string& e : r.errors) msg += "\n  " + e;
  throw InputError(msg);
}

}  // namespace mt
