#include "plan/plan_index.hpp"

#include <algorithm>
#include <stdexcept>

namespace mt {
namespace {

// Counting sort of transfer ids by a key; ids within a key stay in plan order.
void bucket(size_t keys, const std::vector<uint32_t>& key_of, const std::vector<uint32_t>& order,
            std::vector<uint64_t>& start, std::vector<uint32_t>& ids) {
  start.assign(keys + 1, 0);
  for (uint32_t id : order) ++start[key_of[id] + 1];
  for (size_t k = 0; k < keys; ++k) start[k + 1] += start[k];
  ids.resize(order.size());
  std::vector<uint64_t> next(start.begin(), start.end() - 1);
  for (uint32_t id : order) ids[next[key_of[id]]++] = id;
}

}  // namespace

PlanIndex::PlanIndex(const Plan& plan) {
  const size_t n = plan.transfers.size();
  if (n > UINT32_MAX) throw std::length_error("plan has more than 2^32 transfers");
  std::vector<uint32_t> key(n), all(n);
  const uint32_t steps = plan.total_steps();
  for (uint32_t i = 0; i < n; ++i) {
    all[i] = i;
    // Out-of-range steps go to bucket 0 here; the verifier reports them.
    const uint32_t s = plan.transfers[i].step;
    key[i] = s <= steps ? s : 0;
  }
  bucket(steps + 1, key, all, step_start_, by_step_);
  // Sorting the step-ordered ids by node keeps (step, plan order) within a node.
  for (uint32_t i = 0; i < n; ++i) key[i] = std::min(plan.transfers[i].src, plan.nodes);
  bucket(plan.nodes + 1, key, by_step_, send_start_, sends_);
  for (uint32_t i = 0; i < n; ++i) key[i] = std::min(plan.transfers[i].dst, plan.nodes);
  bucket(plan.nodes + 1, key, by_step_, recv_start_, recvs_);
}

void ArrivalsBy::load(uint32_t node) {
  auto key_of = [&](uint32_t id) {
    return key_ == Key::kFlow ? plan_.transfers[id].flow : plan_.transfers[id].range;
  };
  const size_t keys = key_ == Key::kFlow ? plan_.flows.size() : plan_.ranges.size();
  // Counting sort: stable, so each key keeps the (step, plan) order of receives().
  start_.assign(keys + 2, 0);
  for (uint32_t id : index_.receives(node)) ++start_[std::min<size_t>(key_of(id), keys) + 1];
  for (size_t k = 0; k <= keys; ++k) start_[k + 1] += start_[k];
  ids_.resize(start_.back());
  next_.assign(start_.begin(), start_.end() - 1);
  for (uint32_t id : index_.receives(node)) ids_[next_[std::min<size_t>(key_of(id), keys)]++] = id;
}

PlanIndex::Span ArrivalsBy::of(uint32_t k) const {
  if (k + 1 >= start_.size()) return {nullptr, nullptr};
  return {ids_.data() + start_[k], ids_.data() + start_[k + 1]};
}

}  // namespace mt
