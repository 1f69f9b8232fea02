// Runs jobs in forked child processes. SystemC 2.3.4 elaborates one design per process (the
// simulation context is a process-wide global and there is no supported reset), so every
// simulation that needs a fresh network runs in a child: the parent never elaborates, each
// child starts from the parent's untouched state, a crash or sc_stop in one run cannot leak
// into the next, and independent runs can go in parallel.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace mt::noc {

struct ChildResult {
  enum class Status { kOk, kInputError, kInternalError };
  Status status = Status::kInternalError;
  // kOk: the job's return value. Otherwise the error message (an exception's what(), or how
  // the child died).
  std::string text;
  bool ok() const { return status == Status::kOk; }
};

// Runs every job in a child of its own, at most `parallel` (>= 1) at a time, and returns
// their results in job order. In the child, a job that throws mt::InputError yields
// kInputError, any other exception or an abnormal exit kInternalError. Children write
// standard output to standard error, so chatter from SystemC cannot interleave with the
// parent's output; the parent flushes its streams before forking. A child dies with its
// parent, however the parent ends (SIGKILL included; Linux's PR_SET_PDEATHSIG), so call this
// from the thread that outlives the run (the main thread): the kernel ties a child to the
// thread that forked it. The signal that ends the parent is its exit status.
std::vector<ChildResult> run_in_children(const std::vector<std::function<std::string()>>& jobs,
                                         unsigned parallel = 1);

}  // namespace mt::noc
