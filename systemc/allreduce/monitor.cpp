#include "allreduce/monitor.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>

#include <fmt/format.h>

namespace mt::noc {
namespace {
constexpr uint64_t kPeriod = 256;  // cycles between checks
}  // namespace

Monitor::Monitor(sc_core::sc_module_name name, const std::vector<NiModel*>& nis,
                 const Network& net, uint64_t clock_ps, uint64_t watchdog_cycles,
                 uint64_t hidden_cycles, bool progress)
    : sc_module(name), nis_(nis), net_(net), clock_ps_(clock_ps), watchdog_(watchdog_cycles),
      hidden_(hidden_cycles), progress_(progress && isatty(STDERR_FILENO)),
      last_print_(std::chrono::steady_clock::now()) {
  // A method that triggers itself every kPeriod cycles (a method runs on the kernel's stack:
  // no thread stack for a sanitizer to lose); its run at initialization, at time 0, only sets
  // the first.
  SC_METHOD(watch);
}

void Monitor::watch() {
  const sc_core::sc_time cycle(static_cast<double>(clock_ps_), sc_core::SC_PS);
  const sc_core::sc_time period = static_cast<double>(kPeriod) * cycle;
  if (sc_core::sc_time_stamp() == sc_core::SC_ZERO_TIME) {
    next_trigger(period);
    return;
  }
  const uint64_t now = sc_core::sc_time_stamp().value() / cycle.value();
  uint64_t activity = net_.router_cycles(), done = 0, injected = 0, ejected = 0;
  bool counting = false;
  for (const NiModel* ni : nis_) {
    activity += ni->progress();
    done += ni->done();
    injected += ni->flits_injected();
    ejected += ni->flits_ejected();
    counting = counting || ni->counting(now);
  }
  if (done == nis_.size() && injected == ejected) {
    if (progress_) std::fprintf(stderr, "\r%60s\r", "");
    sc_core::sc_stop();
    return;
  }
  if (stalled(now, done, activity, counting)) {
    sc_core::sc_stop();
    return;
  }
  if (progress_) print_progress(now, done);
  next_trigger(period);
}

bool Monitor::stalled(uint64_t now, uint64_t done, uint64_t activity, bool counting) {
  // A lockstep counter counting down is waiting, not stalled.
  quiet_ = activity == last_activity_ && !counting ? quiet_ + kPeriod : 0;
  last_activity_ = activity;
  if (watchdog_ == 0 || quiet_ < watchdog_ + hidden_) return false;
  // Whatever is under way (on a link, in a memory, in an adder) wakes a router or NI later.
  if (net_.scheduler().next_request() != CycleScheduler::kNever) return false;
  stall_ = fmt::format("deadlock: nothing moved for {} cycles and nothing is under way (cycle "
                       "{}); {} of {} nodes done", quiet_, now, done, nis_.size());
  for (const NiModel* ni : nis_) {
    if (!ni->done()) stall_ += "\n  " + ni->status();
  }
  if (net_.flits_buffered() != 0) stall_ += "\n" + net_.state_report();
  return true;
}

void Monitor::print_progress(uint64_t now, uint64_t done) {
  const auto t = std::chrono::steady_clock::now();
  if (t - last_print_ <= std::chrono::milliseconds(500)) return;
  last_print_ = t;
  std::fprintf(stderr, "\rmtsim: cycle %llu, %llu of %zu nodes done",
               static_cast<unsigned long long>(now), static_cast<unsigned long long>(done),
               nis_.size());
}

}  // namespace mt::noc
