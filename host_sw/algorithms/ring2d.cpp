// 2D-ring all-reduce (Ying et al., TPU pods; paper §II-C): ring reduce-scatter along every row,
// then along every column, then all-gather back along the columns and the rows.
//
// Data: W*H chunks, flow F(p, b) = p*H + b owns chunk p*H + b; piece p is the contiguous run of
// chunks [p*H, p*H + H). Rows are rings x -> x+1, columns rings y -> y+1 (the closing hop of a
// mesh row or column is a multi-hop packet).
//   Row reduce-scatter (steps 1..W-1): in row y, step s, node x sends piece (x - s) mod W, so
//     node (p, y) ends with row y's sum of piece p.
//   Column reduce-scatter (W-1 more steps ... H-1 of them): in column p, column step t, node y
//     sends sub-chunk b = (y - t + 1) mod H of piece p, so F(p, b) ends at (p, b - 1).
//   Column all-gather, then row all-gather: the same rings in the same direction.
//
// Labels (the NI only waits for messages named by an entry of the flow it sends):
//   - A row reduce-scatter transfer of piece p in row y is labelled with the flow of the first
//     non-empty column send of the piece owner (p, y): F(p, y) when that sub-chunk has bytes,
//     since node y's first column send is sub-chunk y. That Reduce entry then waits for the
//     row arrival, and every later send of the owner comes after it in the table. Every row
//     node forwards the piece under the same label, so it waits for it too.
//   - Column transfers of sub-chunk b are labelled F(p, b): a node forwards at step t what
//     arrived at step t-1.
//   - A row all-gather transfer of piece p in row y is labelled with the flow of the last
//     non-empty column all-gather arrival at the owner (p, y): its Gather entry waits for that
//     message, the earlier arrivals were forwarded (so waited for) by earlier entries, and the
//     sub-chunk the owner is root of was waited for by its root Gather. Row nodes forward the
//     piece under the same label; its reduce-scatter bytes were waited for by their Reduces.
// With fewer elements than chunks some sub-chunks are empty; the "first/last non-empty" rules
// keep every wait on a message that is really sent.
#include <fmt/format.h>

#include "algorithms/algorithms.hpp"
#include "common/error.hpp"

namespace mt {

Plan build_ring2d(const Topology& topo, const PlanOptions& opt) {
  if (topo.kind() != TopologyKind::kTorus && topo.kind() != TopologyKind::kMesh) {
    throw InputError(fmt::format("ring2d: topology {} is not a 2D torus or mesh (ring2d runs "
                                 "rings along its rows and columns)", topo.spec()));
  }
  const uint32_t W = topo.width(), H = topo.height();
  Plan plan = plan_header("ring2d", topo, opt);
  const uint32_t T = (W - 1) + (H - 1);
  plan.steps_per_phase = T;
  plan.ranges = split_bytes(opt.bytes, W * H);

  auto node = [&](uint32_t x, uint32_t y) { return y * W + x; };
  auto flow = [&](uint32_t p, uint32_t b) { return p * H + b; };
  auto has = [&](uint32_t p, uint32_t b) { return plan.ranges[flow(p, b)].size > 0; };
  // (a - k) mod m for k <= 2m.
  auto minus = [](uint32_t a, uint32_t k, uint32_t m) { return (a + 2 * m - k) % m; };

  for (uint32_t p = 0; p < W; ++p) {
    for (uint32_t b = 0; b < H; ++b) plan.flows.push_back({node(p, minus(b, 1, H)), plan.ranges[flow(p, b)]});
  }
  // One range per piece; a piece of one chunk is that chunk's range.
  std::vector<uint32_t> piece(W);
  for (uint32_t p = 0; p < W; ++p) {
    if (H == 1) {
      piece[p] = p;
      continue;
    }
    const ByteRange& first = plan.ranges[flow(p, 0)];
    const ByteRange& last = plan.ranges[flow(p, H - 1)];
    piece[p] = static_cast<uint32_t>(plan.ranges.size());
    plan.ranges.push_back({first.offset, last.end() - first.offset});
  }
  auto piece_empty = [&](uint32_t p) { return plan.ranges[piece[p]].size == 0; };

  // Row reduce-scatter label of piece p in row y: the owner's first non-empty column send,
  // else the sub-chunk it is root of.
  auto row_rs_label = [&](uint32_t p, uint32_t y) {
    for (uint32_t t = 1; t < H; ++t) {
      const uint32_t b = minus(y, t - 1, H);
      if (has(p, b)) return flow(p, b);
    }
    return flow(p, (y + 1) % H);
  };
  // Row all-gather label of piece p in row y: the owner's last non-empty column all-gather
  // arrival (sub-chunk y + 1 - t at column step t), else the sub-chunk it is root of.
  auto row_ag_label = [&](uint32_t p, uint32_t y) {
    for (uint32_t t = H - 1; t >= 1; --t) {
      const uint32_t b = minus(y + 1, t, H);
      if (has(p, b)) return flow(p, b);
    }
    return flow(p, (y + 1) % H);
  };

  auto row_step = [&](uint32_t s, uint32_t step, Op op) {
    for (uint32_t y = 0; y < H; ++y) {
      for (uint32_t x = 0; x < W; ++x) {
        const uint32_t p = minus(x, op == Op::kReduce ? s : s - 1, W);
        if (piece_empty(p)) continue;
        const uint32_t f = op == Op::kReduce ? row_rs_label(p, y) : row_ag_label(p, y);
        plan.transfers.push_back({f, node(x, y), node((x + 1) % W, y), piece[p], step, op});
      }
    }
  };
  auto column_step = [&](uint32_t t, uint32_t step, Op op) {
    for (uint32_t p = 0; p < W; ++p) {
      for (uint32_t y = 0; y < H; ++y) {
        // Reduce-scatter: sub-chunk y - t + 1; all-gather: the root's y + 1, then forwarded.
        const uint32_t b = op == Op::kReduce ? minus(y, t - 1, H) : minus(y + 1, t - 1, H);
        if (!has(p, b)) continue;
        plan.transfers.push_back({flow(p, b), node(p, y), node(p, (y + 1) % H), flow(p, b), step, op});
      }
    }
  };

  for (uint32_t s = 1; s < W; ++s) row_step(s, s, Op::kReduce);
  for (uint32_t t = 1; t < H; ++t) column_step(t, (W - 1) + t, Op::kReduce);
  for (uint32_t t = 1; t < H; ++t) column_step(t, T + t, Op::kGather);
  for (uint32_t s = 1; s < W; ++s) row_step(s, T + (H - 1) + s, Op::kGather);

  // Torus rings are all one-link hops; a mesh row or column longer than 2 closes with a
  // multi-hop packet.
  plan.neighbour_only = true;
  for (const Transfer& t : plan.transfers) {
    plan.neighbour_only = plan.neighbour_only && topo.adjacent(t.src, t.dst);
  }
  plan.contention_free = plan.neighbour_only;
  return plan;
}

}  // namespace mt
