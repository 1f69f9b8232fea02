#include "plan/plan_index.hpp"

#include <algorithm>
#include <stdexcept>

namespace mt {
namespace {

// Ids 0..n-1 grouped by node (key), plan order within a node, then each node's ids put in
// step order by a counting sort (skipped where they already are).
void by_node_then_step(const Plan& plan, bool by_src, std::vector<uint64_t>& start,
                       std::vector<uint32_t>& ids) {
  const size_t n = plan.transfers.size();
  auto node_of = [&](uint32_t id) {
    const Transfer& t = plan.transfers[id];
    return std::min(by_src ? t.src : t.dst, plan.nodes);  // out of range: last bucket
  };
  start.assign(plan.nodes + 2, 0);
  for (uint32_t id = 0; id < n; ++id) ++start[node_of(id) + 1];
  for (uint32_t v = 0; v <= plan.nodes; ++v) start[v + 1] += start[v];
  ids.resize(n);
  {
    std::vector<uint64_t> next(start.begin(), start.end() - 1);
    for (uint32_t id = 0; id < n; ++id) ids[next[node_of(id)]++] = id;
  }
  const uint32_t steps = plan.total_steps();
  auto step_of = [&](uint32_t id) { return std::min(plan.transfers[id].step, steps + 1); };
  std::vector<uint32_t> count, scratch;
  for (uint32_t v = 0; v <= plan.nodes; ++v) {
    uint32_t* first = ids.data() + start[v];
    uint32_t* last = ids.data() + start[v + 1];
    if (std::is_sorted(first, last, [&](uint32_t a, uint32_t b) { return step_of(a) < step_of(b); })) {
      continue;
    }
    count.assign(steps + 3, 0);
    for (uint32_t* i = first; i != last; ++i) ++count[step_of(*i) + 1];
    for (size_t s = 1; s < count.size(); ++s) count[s] += count[s - 1];
    scratch.resize(static_cast<size_t>(last - first));
    for (uint32_t* i = first; i != last; ++i) scratch[count[step_of(*i)]++] = *i;
    std::copy(scratch.begin(), scratch.end(), first);
  }
}

}  // namespace

PlanIndex::PlanIndex(const Plan& plan) {
  if (plan.transfers.size() > UINT32_MAX) throw std::length_error("plan has more than 2^32 transfers");
  by_node_then_step(plan, true, send_start_, sends_);
  by_node_then_step(plan, false, recv_start_, recvs_);
}

StepOrder::StepOrder(const Plan& plan) {
  const uint32_t steps = plan.total_steps();
  auto step_of = [&](const Transfer& t) { return std::min(t.step, steps + 1); };
  start.assign(steps + 3, 0);
  for (const Transfer& t : plan.transfers) ++start[step_of(t) + 1];
  for (size_t s = 1; s < start.size(); ++s) start[s] += start[s - 1];
  ids.resize(plan.transfers.size());
  std::vector<uint64_t> next(start.begin(), start.end() - 1);
  for (uint32_t id = 0; id < plan.transfers.size(); ++id) ids[next[step_of(plan.transfers[id])]++] = id;
}

void ArrivalsBy::load(uint32_t node) {
  const size_t keys = key_ == Key::kFlow ? plan_.flows.size() : plan_.ranges.size();
  auto key_of = [&](const Transfer& t) {
    return static_cast<uint32_t>(std::min<size_t>(key_ == Key::kFlow ? t.flow : t.range, keys));
  };
  const PlanIndex::Span received = index_.receives(node);
  // A counting sort over every key costs the key space per node: quadratic when a node
  // receives few of many keys (ring2d on torus:128x128, 65536 flows, a few hundred arrivals
  // per node). Then the node's arrivals are sorted by key instead and looked up by search.
  dense_ = keys <= 4 * received.size() + 64;
  arrivals_.resize(received.size());
  if (!dense_) {
    sparse_.clear();
    for (uint32_t i = 0; i < received.size(); ++i) {
      sparse_.push_back({key_of(plan_.transfers[received.first[i]]), i});
    }
    // (key, position): stable, so each key keeps the (step, plan) order of receives().
    std::sort(sparse_.begin(), sparse_.end());
    keys_.resize(sparse_.size());
    for (size_t i = 0; i < sparse_.size(); ++i) {
      const uint32_t id = received.first[sparse_[i].second];
      const Transfer& t = plan_.transfers[id];
      keys_[i] = sparse_[i].first;
      arrivals_[i] = {id, t.src, t.step, t.flow, t.op};
    }
    return;
  }
  // Counting sort: stable, so each key keeps the (step, plan) order of receives().
  start_.assign(keys + 2, 0);
  for (uint32_t id : received) ++start_[key_of(plan_.transfers[id]) + 1];
  for (size_t k = 0; k <= keys; ++k) start_[k + 1] += start_[k];
  next_.assign(start_.begin(), start_.end() - 1);
  for (uint32_t id : received) {
    const Transfer& t = plan_.transfers[id];
    arrivals_[next_[key_of(t)]++] = {id, t.src, t.step, t.flow, t.op};
  }
}

ArrivalsBy::Arrivals ArrivalsBy::of(uint32_t k) const {
  if (!dense_) {
    const auto [lo, hi] = std::equal_range(keys_.begin(), keys_.end(), k);
    return {arrivals_.data() + (lo - keys_.begin()), arrivals_.data() + (hi - keys_.begin())};
  }
  if (k + 1 >= start_.size()) return {nullptr, nullptr};
  return {arrivals_.data() + start_[k], arrivals_.data() + start_[k + 1]};
}

}  // namespace mt
