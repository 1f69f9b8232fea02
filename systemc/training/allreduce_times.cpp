#include "training/allreduce_times.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <set>
#include <string>
#include <utility>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common/error.hpp"
#include "traffic/child_process.hpp"

namespace mt::training {

namespace {

// One simulation in the child: its result as JSON, with its wall time.
std::function<std::string()> simulation_job(const noc::AllReduceOptions& opt) {
  return [opt] {
    const auto t0 = std::chrono::steady_clock::now();
    nlohmann::json j = noc::run_allreduce(opt);
    j["wall_seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return j.dump();
  };
}

SimulatedAllReduce parse_run(const noc::ChildResult& r, uint64_t bytes) {
  if (r.status == noc::ChildResult::Status::kInputError) throw InputError(r.text);
  if (!r.ok()) {
    throw std::runtime_error(fmt::format("the all-reduce of {} bytes: {}", bytes, r.text));
  }
  const nlohmann::json j = nlohmann::json::parse(r.text);
  SimulatedAllReduce run;
  run.result = j.get<noc::AllReduceResult>();
  run.wall_seconds = j.at("wall_seconds").get<double>();
  if (!run.result.verified) {
    throw AllReduceFailed(fmt::format("the all-reduce of {} bytes ({}, {}-based flow control) "
                                      "failed: {}", bytes, run.result.algorithm,
                                      run.result.flow_control, run.result.error));
  }
  return run;
}

}  // namespace

AllReduceTimes::AllReduceTimes(noc::AllReduceOptions base, unsigned parallel)
    : base_(std::move(base)), parallel_(std::max(1u, parallel)) {}

void AllReduceTimes::simulate(const std::vector<uint64_t>& sizes,
                              const SimulationProgress& progress) {
  std::vector<uint64_t> todo;  // distinct, ascending: each batch's runs take similar times
  for (uint64_t b : std::set<uint64_t>(sizes.begin(), sizes.end())) {
    if (runs_.count(b) == 0) todo.push_back(b);
  }
  // Batches of `parallel_` from this (the main) thread, so progress is told as they end.
  for (size_t first = 0; first < todo.size(); first += parallel_) {
    const size_t last = std::min(todo.size(), first + parallel_);
    std::vector<std::function<std::string()>> jobs;
    for (size_t i = first; i < last; ++i) {
      noc::AllReduceOptions opt = base_;
      opt.bytes = todo[i];
      opt.progress = base_.progress && parallel_ == 1;  // one progress line at a time
      jobs.push_back(simulation_job(opt));
    }
    const std::vector<noc::ChildResult> results =
        noc::run_in_children(jobs, static_cast<unsigned>(jobs.size()));
    for (size_t i = first; i < last; ++i) {
      const SimulatedAllReduce& run =
          runs_[todo[i]] = parse_run(results[i - first], todo[i]);
      if (progress) progress(run, i + 1, todo.size());
    }
  }
}

uint64_t accelerator_cycles(uint64_t network_cycles, uint64_t network_clock_ps,
                            double accelerator_hz) {
  __extension__ typedef unsigned __int128 U128;  // GCC/Clang extension, as in vc_mask.hpp
  constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
  const auto too_many = [&] {
    return InputError(fmt::format("{} network cycles are more than 2^64 - 1 cycles of the "
                                  "accelerator's {} Hz clock", network_cycles, accelerator_hz));
  };
  if (accelerator_hz >= 1 && accelerator_hz == std::floor(accelerator_hz) &&
      accelerator_hz < 18446744073709551616.0) {
    // A whole number of hertz: exactly ceil(cycles * ps * hz / 10^12) in 128 bits.
    const U128 ps_per_s = 1000000000000u, hz = static_cast<uint64_t>(accelerator_hz);
    const U128 num = static_cast<U128>(network_cycles) * network_clock_ps;
    const U128 whole = num / ps_per_s, rest = (num % ps_per_s * hz + ps_per_s - 1) / ps_per_s;
    if (whole > kMax / hz || whole * hz > kMax - rest) throw too_many();
    return static_cast<uint64_t>(whole * hz + rest);
  }
  const long double cycles = std::ceil(static_cast<long double>(network_cycles) *
                                       static_cast<long double>(network_clock_ps) *
                                       static_cast<long double>(accelerator_hz) / 1e12L);
  if (!(cycles <= static_cast<long double>(kMax))) throw too_many();
  return static_cast<uint64_t>(cycles);
}

}  // namespace mt::training
