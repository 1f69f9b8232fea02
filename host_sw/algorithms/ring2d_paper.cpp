// The paper's 2D-Ring (Huang et al. §II-C and §VI, after Ying et al.): a whole ring all-reduce
// along one dimension, then a whole ring all-reduce of those line sums along the other. Every
// node sends about twice the data of a bandwidth-optimal all-reduce (the paper's 2N(N-1)
// against N^2-1 on an N x N torus); ring2d (ring2d.cpp) is the bandwidth-optimal variant,
// whose second stage moves only the first stage's owned piece.
//
// It uses every link as ring2d does: the buffer in shares, half of them rows-then-columns and
// half columns-then-rows, each order in both ring directions (one direction when a side is
// 2, one order when a side is 1). In a share's own coordinates (a along its first dimension,
// size A; b along its second, size B; rings a -> a+1 and b -> b+1; a reversed share mirrors
// both physical coordinates):
//   First all-reduce, in every line b: the share's bytes in A pieces. Reduce-scatter steps
//     s = 1..A-1: node a adds piece (a - s) mod A into node a+1, so node (p, b) ends with
//     line b's sum of piece p. All-gather steps L1+s: node a Puts piece (a - s + 1) mod A to
//     node a+1, which writes it without adding its own value (its value is in that sum
//     already). Every node of line b then holds the line's sum of the whole share.
//   Second all-reduce, in every line a, steps 2*L1+1 .. 2*L1+L2 and T+1 .. T+L2 (T = 2*L1 + L2):
//     the share's bytes in B pieces, the same ring schedule along b with Reduces (the line
//     sums are of disjoint sets of nodes) and Gathers of the complete sum.
// L1 and L2 are the longest first and second stages of all shares: with both orders
// L1 = L2 = max(W, H) - 1, so the two orders never use the same dimension in the same step
// (contention-free on a torus). The all-gather phase ends after its first L2 steps.
//
// Flows (the NI waits only for messages of the flow it sends): every piece of every line is
// its own chain of forwarding, so a send waits for the one message of its flow it forwards.
// First all-reduce, piece p of line b: flow first + p*B + b, root (p, b). Second all-reduce,
// piece q of line a: flow first + A*B + a*B + q, root (a, q). The last node of a line's Put
// chain forwards nothing; the table compiler gives it a terminal Put that waits for those
// bytes before it sends them on in the second all-reduce (table/schedule_table.hpp).
//
// What no wait orders: a line's last Puts against the first Reduces the other dimension's
// neighbour adds into the same bytes (VerifyReport::unordered_puts). The NI applies each
// message as it arrives, so a Put that lands after such a Reduce overwrites its sum; only the
// lines keeping step prevent it. On a torus every line is the same ring and they do (every
// run's sums are checked); on a mesh a line's closing multi-hop packet falls behind and the
// sums come out wrong, so ring2d-paper runs on tori only.

#include <fmt/format.h>

#include "algorithms/algorithms.hpp"
#include "algorithms/grid_rings.hpp"
#include "common/error.hpp"

namespace mt {
namespace {

using grid_rings::minus;

struct Share {
  grid_rings::Order order;
  uint32_t first = 0;  // its flows are [first, first + 2*W*H)
  ByteRange bytes;     // the bytes it reduces
};

struct Stages {
  uint32_t first = 0;   // L1: steps of the longest first-stage ring
  uint32_t second = 0;  // L2: steps of the longest second-stage ring
  uint32_t T() const { return 2 * first + second; }
};

class SharePlanner {
 public:
  SharePlanner(Plan& plan, const Topology& topo, const Share& share, const Stages& stages)
      : plan_(plan), topo_(topo), share_(share), stages_(stages),
        A_(share.order.rows_first ? topo.width() : topo.height()),
        B_(share.order.rows_first ? topo.height() : topo.width()) {}

  void build();

 private:
  uint32_t node(uint32_t a, uint32_t b) const;
  uint32_t first_flow(uint32_t p, uint32_t b) const { return share_.first + p * B_ + b; }
  uint32_t second_flow(uint32_t a, uint32_t q) const { return share_.first + A_ * B_ + a * B_ + q; }
  void add(uint32_t flow, uint32_t src, uint32_t dst, uint32_t step, Op op);
  void first_stage(uint32_t s, uint32_t step, Op op);
  void second_stage(uint32_t t, uint32_t step, Op op);

  Plan& plan_;
  const Topology& topo_;
  const Share share_;
  const Stages stages_;
  const uint32_t A_, B_;
};

uint32_t SharePlanner::node(uint32_t a, uint32_t b) const {
  return grid_rings::node(topo_, share_.order, a, b);
}

// A transfer of its flow's chunk; a chunk with no bytes (fewer grains than pieces) moves none.
void SharePlanner::add(uint32_t flow, uint32_t src, uint32_t dst, uint32_t step, Op op) {
  if (plan_.ranges[flow].size == 0) return;
  plan_.transfers.push_back({flow, src, dst, flow, step, op});
}

void SharePlanner::first_stage(uint32_t s, uint32_t step, Op op) {
  for (uint32_t b = 0; b < B_; ++b) {
    for (uint32_t a = 0; a < A_; ++a) {
      const uint32_t p = minus(a, op == Op::kReduce ? s : s - 1, A_);
      add(first_flow(p, b), node(a, b), node((a + 1) % A_, b), step, op);
    }
  }
}

void SharePlanner::second_stage(uint32_t t, uint32_t step, Op op) {
  for (uint32_t a = 0; a < A_; ++a) {
    for (uint32_t b = 0; b < B_; ++b) {
      const uint32_t q = minus(b, op == Op::kReduce ? t : t - 1, B_);
      add(second_flow(a, q), node(a, b), node(a, (b + 1) % B_), step, op);
    }
  }
}

void SharePlanner::build() {
  const std::vector<ByteRange> first = split_bytes(share_.bytes.size, A_);
  const std::vector<ByteRange> second = split_bytes(share_.bytes.size, B_);
  auto shifted = [&](ByteRange r) { return ByteRange{share_.bytes.offset + r.offset, r.size}; };
  for (uint32_t p = 0; p < A_; ++p) {
    for (uint32_t b = 0; b < B_; ++b) plan_.flows.push_back({node(p, b), shifted(first[p])});
  }
  for (uint32_t a = 0; a < A_; ++a) {
    for (uint32_t q = 0; q < B_; ++q) plan_.flows.push_back({node(a, q), shifted(second[q])});
  }
  for (uint32_t f = share_.first; f < plan_.flows.size(); ++f) plan_.ranges.push_back(plan_.flows[f].chunk);
  const uint32_t L1 = stages_.first, T = stages_.T();
  for (uint32_t s = 1; s < A_; ++s) first_stage(s, s, Op::kReduce);
  for (uint32_t s = 1; s < A_; ++s) first_stage(s, L1 + s, Op::kPut);
  for (uint32_t t = 1; t < B_; ++t) second_stage(t, 2 * L1 + t, Op::kReduce);
  for (uint32_t t = 1; t < B_; ++t) second_stage(t, T + t, Op::kGather);
}

// The shares of a W x H grid, one per order of its rings (as ring2d's), each an equal part of
// the buffer.
std::vector<Share> shares_of(uint32_t W, uint32_t H, uint64_t bytes) {
  const std::vector<grid_rings::Order> orders = grid_rings::orders(W, H);
  const std::vector<ByteRange> parts = split_bytes(bytes, static_cast<uint32_t>(orders.size()));
  std::vector<Share> shares;
  for (size_t i = 0; i < orders.size(); ++i) {
    shares.push_back({orders[i], static_cast<uint32_t>(i) * 2 * W * H, parts[i]});
  }
  return shares;
}

}  // namespace

Plan build_ring2d_paper(const Topology& topo, const PlanOptions& opt) {
  if (topo.kind() != TopologyKind::kTorus) {
    throw InputError(fmt::format("ring2d-paper: topology {} is not a 2D torus (ring2d-paper "
                                 "runs whole rings along its rows and columns, which on a mesh "
                                 "fall out of step: ring2d_paper.cpp)", topo.spec()));
  }
  if (!topo.failed_links().empty()) {
    throw InputError(fmt::format("ring2d-paper: topology {} has failed links (a line whose "
                                 "hop goes round a failed link as a multi-hop packet falls out "
                                 "of step, as on a mesh, and its Puts overwrite sums: "
                                 "ring2d_paper.cpp; ring2d plans around them)", topo.spec()));
  }
  const uint32_t W = topo.width(), H = topo.height();
  const std::vector<Share> shares = shares_of(W, H, opt.bytes);
  const grid_rings::StageSteps steps = grid_rings::stage_steps(W, H);
  const Stages stages{steps.first, steps.second};
  if (stages.T() == 0) {
    throw InputError(fmt::format("ring2d-paper: topology {} has one node; there is nothing to "
                                 "all-reduce", topo.spec()));
  }
  Plan plan = plan_header("ring2d-paper", topo, opt);
  plan.steps_per_phase = stages.T();
  for (const Share& s : shares) SharePlanner(plan, topo, s, stages).build();

  plan.neighbour_only = true;  // torus rings are one-link hops
  plan.contention_free = true;
  return plan;
}

}  // namespace mt
