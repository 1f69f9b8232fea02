// What the co-simulation tests share: an all-reduce run in a child process, with the RTL NI
// at every node or at some, and the comparison with the all-SystemC run of the same options
// (cycles, per-step timeline, link loads, flit counts, every table entry's issue cycle, and
// the verified sums).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "allreduce/allreduce_sim.hpp"
#include "rtl_network_interface.hpp"
#include "traffic/child_process.hpp"

namespace mt::noc::cosim_test {

inline AllReduceOptions options(const std::string& topology, const std::string& algorithm,
                         FlowControl flow, uint64_t bytes) {
  AllReduceOptions o;
  o.topology = topology;
  o.algorithm = algorithm;
  o.ni.flow_control = flow;
  o.bytes = bytes;
  o.record_issues = true;
  o.noc.credit_latency = o.noc.link_latency;  // as mtsim sets it
  return o;
}

inline AllReduceOptions with_rtl(AllReduceOptions o, std::vector<uint32_t> nodes = {}) {
  o.rtl_all = nodes.empty();
  o.rtl_nodes = std::move(nodes);
  o.rtl_ni = cosim::build_rtl_ni;
  return o;
}

// The result's JSON with every table-entry issue added as [cycle, node, entry], sorted (the
// order of issues within a cycle is the order in which the kernel ran the NIs).
inline std::string run_json(const AllReduceOptions& o) {
  const AllReduceResult r = run_allreduce(o);
  std::vector<std::array<uint64_t, 3>> issues;
  for (const IssueRecord& i : r.issues) issues.push_back({i.cycle, i.node, i.index});
  std::sort(issues.begin(), issues.end());
  nlohmann::json j = r;
  j["issues"] = issues;
  return j.dump();
}

// Runs `runs` in parallel children; a failed child fails the test with its message.
inline std::vector<nlohmann::json> run(const std::vector<AllReduceOptions>& runs) {
  std::vector<std::function<std::string()>> jobs;
  for (const AllReduceOptions& o : runs) jobs.push_back([o] { return run_json(o); });
  std::vector<nlohmann::json> out;
  for (const ChildResult& c : run_in_children(jobs, 2)) {
    EXPECT_TRUE(c.ok()) << c.text;
    out.push_back(c.ok() ? nlohmann::json::parse(c.text) : nlohmann::json::object());
  }
  return out;
}

// Every key but what names the NI kinds and router_cycles, which counts router evaluations
// (simulation effort: it depends on the order in which SystemC runs processes within a cycle,
// not on what the hardware does).
inline void expect_same_run(nlohmann::json systemc, nlohmann::json rtl) {
  ASSERT_TRUE(systemc.value("verified", false)) << systemc.value("error", "no result");
  EXPECT_TRUE(rtl.value("verified", false)) << rtl.value("error", "no result");
  EXPECT_EQ(rtl["cycles"], systemc["cycles"]);
  for (nlohmann::json* j : {&systemc, &rtl}) {
    j->erase("rtl_nodes");
    j->erase("router_cycles");
  }
  for (const auto& [key, value] : systemc.items()) {
    EXPECT_EQ(rtl[key], value) << "key " << key;
  }
  EXPECT_EQ(rtl.size(), systemc.size());
}

inline void compare(const AllReduceOptions& o, std::vector<uint32_t> rtl_nodes = {}) {
  const std::vector<nlohmann::json> r = run({o, with_rtl(o, rtl_nodes)});
  expect_same_run(r[0], r[1]);
  const std::vector<uint32_t> ran = r[1].value("rtl_nodes", std::vector<uint32_t>{});
  if (rtl_nodes.empty()) {
    EXPECT_EQ(ran.size(), r[0].value("nodes", 0u)) << "every node runs the RTL NI";
  } else {
    EXPECT_EQ(ran, rtl_nodes);
  }
  std::printf("%s %s %s: %llu cycles SystemC, %llu RTL\n", o.topology.c_str(),
              o.algorithm.c_str(), flow_control_name(o.ni.flow_control),
              r[0].value("cycles", 0ull), r[1].value("cycles", 0ull));
}

}  // namespace mt::noc::cosim_test
