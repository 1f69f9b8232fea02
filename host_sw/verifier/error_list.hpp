// The errors a verifier check collects, up to a cap (a broken plan can have millions).
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace mt {

class ErrorList {
 public:
  ErrorList(std::vector<std::string>& out, size_t max) : out_(out), max_(max) {}
  bool full() const { return out_.size() >= max_; }
  void add(std::string msg) {
    if (!full()) out_.push_back(std::move(msg));
  }

 private:
  std::vector<std::string>& out_;
  size_t max_;
};

}  // namespace mt
