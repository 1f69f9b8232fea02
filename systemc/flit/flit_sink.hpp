// Where a producer of flits (the NI's flit encoder) puts them: each flit starts as a copy of a
// prototype in its final place and is completed there, so no flit is built elsewhere and
// copied again. An endpoint's queue is one (Endpoint::append); a vector is another (tests).
#pragma once

#include <vector>

#include "flit/flit.hpp"

namespace mt::noc {

class FlitSink {
 public:
  // A new flit, a copy of `proto`, for the caller to complete; valid until the next append.
  virtual Flit& append(const Flit& proto) = 0;

 protected:
  ~FlitSink() = default;
};

// Appends to a vector.
class FlitVectorSink final : public FlitSink {
 public:
  explicit FlitVectorSink(std::vector<Flit>& out) : out_(out) {}
  Flit& append(const Flit& proto) override { return out_.emplace_back(proto); }

 private:
  std::vector<Flit>& out_;
};

}  // namespace mt::noc
