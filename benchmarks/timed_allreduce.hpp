// One whole all-reduce simulation (plan, verify, compile, load the NIs, simulate, check every
// sum) in a forked child (SystemC elaborates once per process), timed inside the child.
#pragma once

#include <sys/resource.h>

#include <chrono>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "allreduce/allreduce_sim.hpp"
#include "traffic/child_process.hpp"

namespace mt::bench {

struct TimedRun {
  double wall_s = 0;      // run_allreduce's wall time
  uint64_t cycles = 0;    // cycles the all-reduce took
  double peak_mib = 0;    // the child's peak resident memory
};

// Throws std::runtime_error with the child's message when the run fails or does not verify.
inline TimedRun timed_allreduce(const noc::AllReduceOptions& o) {
  const auto results = noc::run_in_children({[&o] {
    const auto t0 = std::chrono::steady_clock::now();
    const noc::AllReduceResult r = noc::run_allreduce(o);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!r.verified) throw std::runtime_error(r.error);
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return nlohmann::json{{"wall", s}, {"cycles", r.cycles}, {"maxrss_kib", u.ru_maxrss}}.dump();
  }});
  if (!results[0].ok()) throw std::runtime_error(results[0].text);
  const nlohmann::json j = nlohmann::json::parse(results[0].text);
  return {j.at("wall").get<double>(), j.at("cycles").get<uint64_t>(),
          j.at("maxrss_kib").get<double>() / 1024.0};
}

}  // namespace mt::bench
