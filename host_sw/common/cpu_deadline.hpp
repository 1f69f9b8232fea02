// A limit on the processor time a piece of work may take, checked by the work itself at points
// where stopping is cheap. Processor time, not wall time, so that a loaded machine does not
// turn a plan that fits into a refusal.
#pragma once

#include <ctime>

namespace mt {

class CpuDeadline {
 public:
  // seconds 0: no limit.
  explicit CpuDeadline(double seconds) : seconds_(seconds), start_(std::clock()) {}
  double seconds() const { return seconds_; }
  bool passed() const {
    return seconds_ > 0 && double(std::clock() - start_) / CLOCKS_PER_SEC > seconds_;
  }

 private:
  double seconds_;
  std::clock_t start_;
};

}  // namespace mt
