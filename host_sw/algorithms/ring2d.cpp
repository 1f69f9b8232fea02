// 2D-ring all-reduce (Ying et al., TPU pods; paper §II-C), using every link of a torus: half of
// the data goes rows-then-columns and the other half columns-then-rows, concurrently, and each
// half is split again over the rings in both directions (+x/+y and -x/-y). So a node sends on
// all four of its links in every step of both phases.
//
// Each of these shares (four on a torus whose sides are all larger than 2) is one
// hierarchical ring all-reduce: ring reduce-scatter along its first dimension, then along its
// second, then all-gather back along the second and the first. In the share's own
// coordinates (a along its first dimension, size A; b along its second, size B; rings
// a -> a+1 and b -> b+1; a reversed share mirrors both physical coordinates):
//   Data: A*B chunks, flow F(p, b) = first + p*B + b owns chunk first + p*B + b; piece p is
//     the contiguous run of chunks [p*B, p*B + B).
//   First-dimension reduce-scatter (steps 1..A-1): in line b, step s, node a sends piece
//     (a - s) mod A, so node (p, b) ends with line b's sum of piece p.
//   Second-dimension reduce-scatter (steps L1+1 ..): in line p, step t, node b sends
//     sub-chunk (b - t + 1) mod B of piece p, so F(p, c) ends at (p, c - 1).
//   All-gather: the same rings in the same direction, second dimension (steps T+1 ..) then
//     first (steps T+L2+1 ..).
// L1 and L2 are the longest first and second stages of all shares: with both orders on a
// W x H grid, L1 = L2 = max(W, H) - 1, so rows-first and columns-first shares never use the
// same dimension in the same step (contention-free on a torus even when W != H). A 2-wide
// dimension has one link per direction, which both ring directions would share, so then
// the shares run one direction only; a 1-wide grid is a plain ring (one order).
//
// Labels (the NI only waits for messages named by an entry of the flow it sends):
//   - A first-stage reduce-scatter transfer of piece p in line b is labelled with the flow of
//     the first non-empty second-stage send of the piece owner (p, b): F(p, b) when that
//     sub-chunk has bytes, since node b's first second-stage send is sub-chunk b. That Reduce
//     entry then waits for the first-stage arrival, and every later send of the owner comes
//     after it in the table. Every line node forwards the piece under the same label, so it
//     waits for it too.
//   - Second-stage transfers of sub-chunk c are labelled F(p, c): a node forwards at step t
//     what arrived at step t-1.
//   - A first-stage all-gather transfer of piece p in line b is labelled with the flow of the
//     last non-empty second-stage all-gather arrival at the owner (p, b): its Gather entry
//     waits for that message, the earlier arrivals were forwarded (so waited for) by earlier
//     entries, and the sub-chunk the owner is root of was waited for by its root Gather. Line
//     nodes forward the piece under the same label; its reduce-scatter bytes were waited for
//     by their Reduces.
// With fewer 16-byte grains than chunks some sub-chunks are empty; the "first/last
// non-empty" rules keep every wait on a message that is really sent. Shares own disjoint bytes and flows.

#include <fmt/format.h>

#include "algorithms/algorithms.hpp"
#include "algorithms/grid_rings.hpp"
#include "common/error.hpp"

namespace mt {
namespace {

using grid_rings::minus;

struct Share {
  grid_rings::Order order;
  uint32_t first = 0;  // its flows and chunk ranges are [first, first + W*H)
};

struct Stages {
  uint32_t first = 0;   // L1: steps of the longest first stage
  uint32_t second = 0;  // L2: steps of the longest second stage
  uint32_t T() const { return first + second; }
};

class ShareBuilder {
 public:
  ShareBuilder(Plan& plan, const Topology& topo, const Share& share, const Stages& stages)
      : plan_(plan), topo_(topo), share_(share), stages_(stages),
        A_(share.order.rows_first ? topo.width() : topo.height()),
        B_(share.order.rows_first ? topo.height() : topo.width()) {}

  void build();

 private:
  uint32_t node(uint32_t a, uint32_t b) const;
  uint32_t flow(uint32_t p, uint32_t b) const { return share_.first + p * B_ + b; }
  bool has(uint32_t p, uint32_t b) const { return plan_.ranges[flow(p, b)].size > 0; }
  uint32_t rs_label(uint32_t p, uint32_t b) const;
  uint32_t ag_label(uint32_t p, uint32_t b) const;
  void add_pieces();
  void first_stage(uint32_t s, uint32_t step, Op op);
  void second_stage(uint32_t t, uint32_t step, Op op);

  Plan& plan_;
  const Topology& topo_;
  const Share share_;
  const Stages stages_;
  const uint32_t A_, B_;
  std::vector<uint32_t> piece_;  // range of each piece
};

uint32_t ShareBuilder::node(uint32_t a, uint32_t b) const {
  return grid_rings::node(topo_, share_.order, a, b);
}

// First-stage reduce-scatter label of piece p in line b: the owner's first non-empty
// second-stage send, else the sub-chunk it is root of.
uint32_t ShareBuilder::rs_label(uint32_t p, uint32_t b) const {
  for (uint32_t t = 1; t < B_; ++t) {
    if (has(p, minus(b, t - 1, B_))) return flow(p, minus(b, t - 1, B_));
  }
  return flow(p, (b + 1) % B_);
}

// First-stage all-gather label of piece p in line b: the owner's last non-empty second-stage
// all-gather arrival (sub-chunk b + 1 - t at step t), else the sub-chunk it is root of.
uint32_t ShareBuilder::ag_label(uint32_t p, uint32_t b) const {
  for (uint32_t t = B_ - 1; t >= 1; --t) {
    if (has(p, minus(b + 1, t, B_))) return flow(p, minus(b + 1, t, B_));
  }
  return flow(p, (b + 1) % B_);
}

// One range per piece; a piece of one chunk is that chunk's range.
void ShareBuilder::add_pieces() {
  piece_.resize(A_);
  for (uint32_t p = 0; p < A_; ++p) {
    if (B_ == 1) {
      piece_[p] = flow(p, 0);
      continue;
    }
    const uint64_t begin = plan_.ranges[flow(p, 0)].offset;
    const uint64_t end = plan_.ranges[flow(p, B_ - 1)].end();
    piece_[p] = static_cast<uint32_t>(plan_.ranges.size());
    plan_.ranges.push_back({begin, end - begin});
  }
}

void ShareBuilder::first_stage(uint32_t s, uint32_t step, Op op) {
  for (uint32_t b = 0; b < B_; ++b) {
    for (uint32_t a = 0; a < A_; ++a) {
      const uint32_t p = minus(a, op == Op::kReduce ? s : s - 1, A_);
      if (plan_.ranges[piece_[p]].size == 0) continue;
      const uint32_t f = op == Op::kReduce ? rs_label(p, b) : ag_label(p, b);
      plan_.transfers.push_back({f, node(a, b), node((a + 1) % A_, b), piece_[p], step, op});
    }
  }
}

void ShareBuilder::second_stage(uint32_t t, uint32_t step, Op op) {
  for (uint32_t p = 0; p < A_; ++p) {
    for (uint32_t b = 0; b < B_; ++b) {
      // Reduce-scatter: sub-chunk b - t + 1; all-gather: the root's b + 1, then forwarded.
      const uint32_t c = op == Op::kReduce ? minus(b, t - 1, B_) : minus(b + 1, t - 1, B_);
      if (!has(p, c)) continue;
      plan_.transfers.push_back({flow(p, c), node(p, b), node(p, (b + 1) % B_), flow(p, c), step, op});
    }
  }
}

void ShareBuilder::build() {
  for (uint32_t p = 0; p < A_; ++p) {
    for (uint32_t b = 0; b < B_; ++b) plan_.flows.push_back({node(p, minus(b, 1, B_)), plan_.ranges[flow(p, b)]});
  }
  add_pieces();
  const uint32_t T = stages_.T();
  for (uint32_t s = 1; s < A_; ++s) first_stage(s, s, Op::kReduce);
  for (uint32_t t = 1; t < B_; ++t) second_stage(t, stages_.first + t, Op::kReduce);
  for (uint32_t t = 1; t < B_; ++t) second_stage(t, T + t, Op::kGather);
  for (uint32_t s = 1; s < A_; ++s) first_stage(s, T + stages_.second + s, Op::kGather);
}

// The shares of a W x H grid, one per order of its rings.
std::vector<Share> shares_of(uint32_t W, uint32_t H) {
  std::vector<Share> shares;
  for (const grid_rings::Order o : grid_rings::orders(W, H)) {
    shares.push_back({o, static_cast<uint32_t>(shares.size()) * W * H});
  }
  return shares;
}

}  // namespace

Plan build_ring2d(const Topology& topo, const PlanOptions& opt) {
  if (topo.kind() != TopologyKind::kTorus && topo.kind() != TopologyKind::kMesh) {
    throw InputError(fmt::format("ring2d: topology {} is not a 2D torus or mesh (ring2d runs "
                                 "rings along its rows and columns)", topo.spec()));
  }
  const uint32_t W = topo.width(), H = topo.height();
  const std::vector<Share> shares = shares_of(W, H);
  const grid_rings::StageSteps steps = grid_rings::stage_steps(W, H);
  const Stages stages{steps.first, steps.second};
  Plan plan = plan_header("ring2d", topo, opt);
  plan.steps_per_phase = stages.T();
  plan.ranges = split_bytes(opt.bytes, static_cast<uint32_t>(shares.size()) * W * H);
  for (const Share& s : shares) ShareBuilder(plan, topo, s, stages).build();

  // Torus rings are all one-link hops; a mesh row or column longer than 2 closes with a
  // multi-hop packet, and a hop across a failed link is one that goes round it.
  plan.neighbour_only = true;
  for (const Transfer& t : plan.transfers) {
    plan.neighbour_only = plan.neighbour_only && topo.adjacent(t.src, t.dst);
  }
  plan.contention_free = plan.neighbour_only;
  return plan;
}

}  // namespace mt
