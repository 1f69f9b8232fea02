#include "training/allreduce_times.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
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

// A simulation's JSON (with its wall time) as a run; AllReduceFailed if it was not verified.
SimulatedAllReduce parse_json(const std::string& text, uint64_t bytes) {
  const nlohmann::json j = nlohmann::json::parse(text);
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

SimulatedAllReduce parse_run(const noc::ChildResult& r, uint64_t bytes) {
  if (r.status == noc::ChildResult::Status::kInputError) throw InputError(r.text);
  if (!r.ok()) {
    throw std::runtime_error(fmt::format("the all-reduce of {} bytes: {}", bytes, r.text));
  }
  return parse_json(r.text, bytes);
}

}  // namespace

AllReduceTimes::AllReduceTimes(noc::AllReduceOptions base, unsigned parallel,
                               const SimulationCache* cache)
    : base_(std::move(base)), parallel_(std::max(1u, parallel)), cache_(cache) {}

std::optional<SimulatedAllReduce> AllReduceTimes::cached_run(uint64_t bytes,
                                                             std::string& why) const {
  if (cache_ == nullptr) return std::nullopt;
  const std::optional<std::string> text = cache_->load(bytes, &why);
  if (!text) return std::nullopt;
  try {
    SimulatedAllReduce run = parse_json(*text, bytes);
    run.cached = true;
    return run;
  } catch (const std::exception& e) {  // a damaged entry: JSON, or a failed run's
    why = fmt::format("{}: unusable entry ({}); simulated again", cache_->path(bytes), e.what());
    return std::nullopt;
  }
}

void AllReduceTimes::simulate(const std::vector<uint64_t>& sizes,
                              const SimulationProgress& progress) {
  std::vector<uint64_t> todo;  // distinct, ascending: each batch's runs take similar times
  std::vector<uint64_t> cached;
  std::map<uint64_t, std::string> notes;  // sizes whose cache entry was not used, and why
  for (uint64_t b : std::set<uint64_t>(sizes.begin(), sizes.end())) {
    if (runs_.count(b) != 0) continue;
    std::string why;
    if (std::optional<SimulatedAllReduce> run = cached_run(b, why)) {
      runs_[b] = std::move(*run);
      cached.push_back(b);
      continue;
    }
    todo.push_back(b);
    if (!why.empty()) notes[b] = why;
  }
  const size_t total = cached.size() + todo.size();
  size_t done = 0;
  for (uint64_t b : cached) {
    if (progress) progress(runs_[b], ++done, total);
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
      SimulatedAllReduce& run = runs_[todo[i]] = parse_run(results[i - first], todo[i]);
      if (notes.count(todo[i]) != 0) run.cache_note = notes[todo[i]];
      if (cache_ != nullptr) cache_->store(todo[i], results[i - first].text);
      if (progress) progress(run, ++done, total);
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
