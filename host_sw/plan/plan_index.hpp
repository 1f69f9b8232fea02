// Per-node view of a plan: the transfers each node sends and receives, in table order
// (step, then plan order). Built once, shared by the table compiler and the verifier.
// Linear in the plan: one bucketing pass per side, then a small sort by step per node.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "plan/plan.hpp"

namespace mt {

class PlanIndex {
 public:
  explicit PlanIndex(const Plan& plan);

  struct Span {
    const uint32_t* first;
    const uint32_t* last;
    const uint32_t* begin() const { return first; }
    const uint32_t* end() const { return last; }
    size_t size() const { return static_cast<size_t>(last - first); }
  };
  Span sends(uint32_t node) const { return span(sends_, send_start_, node); }
  Span receives(uint32_t node) const { return span(recvs_, recv_start_, node); }

 private:
  static Span span(const std::vector<uint32_t>& ids, const std::vector<uint64_t>& start,
                   uint32_t key) {
    return {ids.data() + start[key], ids.data() + start[key + 1]};
  }
  std::vector<uint64_t> send_start_, recv_start_;
  std::vector<uint32_t> sends_, recvs_;
};

// One node's arrivals ordered by a key (flow or range), then step and plan order, for
// looking up "the arrivals of flow f" or "the arrivals that carry range r".
class ArrivalsBy {
 public:
  enum class Key { kFlow, kRange };
  // The fields of an arriving transfer that waits are matched on, copied so that a node's
  // lookups stay in a small array.
  struct Arrival {
    uint32_t id, src, step, flow;
    Op op;
  };
  struct Arrivals {
    const Arrival* first;
    const Arrival* last;
    const Arrival* begin() const { return first; }
    const Arrival* end() const { return last; }
  };
  ArrivalsBy(const Plan& plan, const PlanIndex& index, Key key)
      : plan_(plan), index_(index), key_(key) {}
  // Indexes `node`'s arrivals (reusing the buffers of the previous node).
  void load(uint32_t node);
  // Arrivals whose key is k, in (step, plan) order.
  Arrivals of(uint32_t k) const;

 private:
  const Plan& plan_;
  const PlanIndex& index_;
  Key key_;
  bool dense_ = true;  // indexed by a counting sort over all keys, else sorted by key
  std::vector<uint32_t> next_;
  std::vector<uint32_t> start_;  // dense: arrivals_ of key k are [start_[k], start_[k+1])
  std::vector<uint32_t> keys_;   // sparse: the key of each of arrivals_, ascending
  std::vector<std::pair<uint32_t, uint32_t>> sparse_;  // sparse: (key, position) to sort
  std::vector<Arrival> arrivals_;
};

// Transfer ids in step order (plan order within a step): ids[start[s] .. start[s+1]).
struct StepOrder {
  explicit StepOrder(const Plan& plan);
  std::vector<uint64_t> start;
  std::vector<uint32_t> ids;
};

}  // namespace mt
