// Property: on random connected networks (direct or with switches, with wide links) every
// plan of every algorithm that accepts the network verifies, and so do its compiled tables.
#include <random>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include "algorithms/algorithms.hpp"
#include "common/error.hpp"
#include "table/schedule_table.hpp"
#include "verifier/table_check.hpp"
#include "verifier/verifier.hpp"

namespace mt {
namespace {

// A random spanning tree (so it is connected) plus extra random links; with switches, every
// node hangs on a random switch and the switches form the random graph.
std::string random_network(std::mt19937& rng, uint32_t nodes, uint32_t switches, uint32_t extra) {
  auto pick = [&](uint32_t n) { return std::uniform_int_distribution<uint32_t>(0, n - 1)(rng); };
  const std::string kind = switches ? "s" : "n";
  const uint32_t core = switches ? switches : nodes;
  std::set<std::pair<uint32_t, uint32_t>> pairs;
  for (uint32_t v = 1; v < core; ++v) pairs.insert({pick(v), v});
  for (uint32_t i = 0; i < extra && core > 2; ++i) {
    const uint32_t a = pick(core), b = pick(core);
    if (a != b) pairs.insert({std::min(a, b), std::max(a, b)});
  }
  std::vector<std::string> links;
  for (const auto& [a, b] : pairs) {
    links.push_back(fmt::format(R"({{"a": "{}{}", "b": "{}{}", "width": {}}})", kind, a, kind, b,
                                1 + pick(3)));
  }
  for (uint32_t v = 0; switches && v < nodes; ++v) {
    links.push_back(fmt::format(R"({{"a": "n{}", "b": "s{}"}})", v, pick(switches)));
  }
  std::string node_ids, switch_ids;
  for (uint32_t v = 0; v < nodes; ++v) node_ids += fmt::format("{}{}", v ? ", " : "", v);
  for (uint32_t s = 0; s < switches; ++s) switch_ids += fmt::format("{}{}", s ? ", " : "", s);
  return fmt::format(R"({{"nodes": [{}], "switches": [{}], "links": [{}]}})", node_ids, switch_ids,
                     fmt::join(links, ", "));
}

TEST(RandomTopology, EveryAcceptedPlanVerifies) {
  std::mt19937 rng(20261121u);  // fixed seed: the same networks every run
  size_t plans = 0;
  for (int trial = 0; trial < 60; ++trial) {
    const uint32_t nodes = 2 + static_cast<uint32_t>(rng() % 14);
    const uint32_t switches = trial % 3 == 0 ? 1 + static_cast<uint32_t>(rng() % 4) : 0;
    const std::string json = random_network(rng, nodes, switches, static_cast<uint32_t>(rng() % (2 * nodes)));
    const Topology topo = parse_topology_json(json, fmt::format("file:random{}.json", trial));
    PlanOptions opt;
    opt.bytes = 4 * (1 + rng() % 3000);
    opt.prioritize_height = trial % 2 == 1;
    for (const std::string& alg : algorithm_names()) {
      Plan plan;
      try {
        plan = build_plan(topo, alg, opt);
      } catch (const InputError&) {
        continue;  // ring2d and hdrm only take their own networks
      }
      SCOPED_TRACE(alg + " on " + json);
      const VerifyReport r = verify_plan(plan, topo);
      ASSERT_TRUE(r.ok()) << r.errors.front();
      TableOptions topt;
      topt.children_slots = 1 + static_cast<uint32_t>(trial % 4);
      if (plan.aggregations.empty()) {
        const VerifyReport t = verify_tables(compile_tables(plan, topt), topo);
        ASSERT_TRUE(t.ok()) << t.errors.front();
      } else {
        // In-network aggregation: each table against the proved plan (its sums are the
        // switches', which the tables alone do not hold), as mtc plan checks it.
        const PlanIndex index(plan);
        TableChecker check(plan, index, 0, 5);
        for (const ScheduleTable& t : compile_tables(plan, topt).tables) check.check(t);
        ASSERT_TRUE(check.ok()) << check.errors().front();
      }
      ++plans;
    }
  }
  EXPECT_GE(plans, 60u * 4);  // multitree, ring, ring-bi, dbtree on every network
}

}  // namespace
}  // namespace mt
