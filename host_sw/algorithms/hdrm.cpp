// Halving-doubling with rank mapping (EFLOPS, Dong et al. HPCA'20) on the BiGraph: recursive
// halving reduce-scatter, then recursive doubling all-gather, with ranks placed on nodes so
// that no switch-to-switch link carries two exchanges in one step.
//
// BiGraph: 2*S switches (upper [0, S), lower [S, 2S)), K nodes each, one link between every
// upper and every lower switch. Two nodes on different switches of one half talk through a
// switch of the other half (4 links), so good steps pair a node with one on its own switch
// (2 links) or with one in the other half (3 links) whose switch differs for every node of
// its switch. With S = 2^b, K = 2^a, N = 2^(a+b+1), rank bits (most significant first):
//   w: max(a-b, 0) bits   node-local: partners share a switch
//   v: min(a, b) bits     crossing: partners are in opposite halves
//   u: b bits             crossing
//   p: 1 bit              crossing
// Half h = p ^ parity(u) ^ parity(v); upper node = switch u, local (w, v); lower node = switch
// S + (u ^ v), local (w, v). Flipping a u, v or p bit always changes h, and the K nodes of a
// switch reach K/2^|w| different switches of the other half, so the crossing steps are
// contention-free when K <= S (EFLOPS' "every pair is one upper and one lower node"; the
// paper, §II-C). When K > S a switch has more nodes than links to the other half, so crossing
// steps must share links; the w steps then come first, on the same switch, while the data is
// largest. (With K <= S no step can stay on a switch: a bit that kept partners on one switch
// would send both nodes of every such pair over the same link in each crossing step.)
//
// Step i flips rank bit m-i (m = log2 N), so chunk c is owned by rank c and the block a node
// sends is contiguous: the chunks that agree with its rank on the bits already flipped and
// with its partner's on bit m-i.
//
// Labels. A node's arrival at step i overlaps everything it sends later, so the NI must wait
// for it before its next send: the arrival carries the flow of the receiver's next non-empty
// send (or the receiver's own chunk after the last step, which its root Gather waits for).
// Without empty blocks that is rank r's send at step i labelled r ^ (2^(m-i+1) - 1): one flow
// per node and step, each sent up once. All-gather transfers mirror the reduce-scatter ones
// (reversed, same bytes, same label), so each Gather waits for the arrival that completes the
// block it sends.
#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "algorithms/algorithms.hpp"
#include "common/error.hpp"
#include "topology/routing.hpp"

namespace mt {
namespace {

uint32_t log2_exact(uint32_t x) {
  uint32_t k = 0;
  while ((1u << k) < x) ++k;
  return k;
}

bool power_of_two(uint32_t x) { return x != 0 && (x & (x - 1)) == 0; }

uint32_t parity(uint32_t x) { return static_cast<uint32_t>(__builtin_popcount(x) & 1); }

}  // namespace

Plan build_hdrm(const Topology& topo, const PlanOptions& opt) {
  if (topo.kind() != TopologyKind::kBiGraph) {
    throw InputError(fmt::format("hdrm: topology {} is not a BiGraph (hdrm is EFLOPS' "
                                 "rank mapping for bigraph:SxK)", topo.spec()));
  }
  const uint32_t n = topo.nodes();
  if (!power_of_two(n)) {
    throw InputError(fmt::format("hdrm: topology {} has {} nodes; halving-doubling needs a power "
                                 "of two", topo.spec(), n));
  }
  const uint32_t half = topo.switches() / 2, k_nodes = n / topo.switches();
  const uint32_t a = log2_exact(k_nodes), b = log2_exact(half), m = log2_exact(n);
  const uint32_t v_bits = std::min(a, b);

  // Rank -> node (the rank mapping).
  std::vector<uint32_t> node_of(n);
  for (uint32_t r = 0; r < n; ++r) {
    const uint32_t p = r & 1u;
    const uint32_t u = (r >> 1) & (half - 1);
    const uint32_t v = (r >> (1 + b)) & ((1u << v_bits) - 1);
    const uint32_t w = r >> (1 + b + v_bits);
    const uint32_t local = (w << v_bits) | v;
    const uint32_t sw = (p ^ parity(u) ^ parity(v)) == 0 ? u : half + (u ^ v);
    node_of[r] = sw * k_nodes + local;
  }

  Plan plan = plan_header("hdrm", topo, opt);
  plan.steps_per_phase = m;
  plan.neighbour_only = false;  // every exchange goes through switches
  plan.ranges = split_bytes(opt.bytes, n);
  for (uint32_t c = 0; c < n; ++c) plan.flows.push_back({node_of[c], plan.ranges[c]});

  // The block rank r sends at step i (1-based): `len` chunks from `first`.
  auto partner = [&](uint32_t r, uint32_t i) { return r ^ (1u << (m - i)); };
  auto block_first = [&](uint32_t r, uint32_t i) { return partner(r, i) & ~((1u << (m - i)) - 1); };
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> block_range;
  auto range_of = [&](uint32_t first, uint32_t len) {
    if (len == 1) return first;  // one chunk: the flow's own range
    auto [it, fresh] = block_range.emplace(std::make_pair(first, len),
                                           static_cast<uint32_t>(plan.ranges.size()));
    if (fresh) {
      const ByteRange& lo = plan.ranges[first];
      const ByteRange& hi = plan.ranges[first + len - 1];
      plan.ranges.push_back({lo.offset, hi.end() - lo.offset});
    }
    return it->second;
  };
  auto sends = [&](uint32_t r, uint32_t i) {
    const uint32_t first = block_first(r, i), len = 1u << (m - i);
    return plan.ranges[first + len - 1].end() > plan.ranges[first].offset;
  };

  // label[i][r]: flow of rank r's send at step i; next[r]: flow of r's next non-empty send
  // after the step being filled (its own chunk after the last one). Filled backwards.
  std::vector<std::vector<uint32_t>> label(m + 1, std::vector<uint32_t>(n, 0));
  std::vector<uint32_t> next(n);
  for (uint32_t r = 0; r < n; ++r) next[r] = r;
  for (uint32_t i = m; i >= 1; --i) {
    for (uint32_t r = 0; r < n; ++r) label[i][r] = next[partner(r, i)];
    for (uint32_t r = 0; r < n; ++r) {
      if (sends(r, i)) next[r] = label[i][r];
    }
  }

  for (uint32_t i = 1; i <= m; ++i) {  // recursive halving
    for (uint32_t r = 0; r < n; ++r) {
      if (!sends(r, i)) continue;
      const uint32_t range = range_of(block_first(r, i), 1u << (m - i));
      plan.transfers.push_back({label[i][r], node_of[r], node_of[partner(r, i)], range, i,
                                Op::kReduce});
    }
  }
  for (uint32_t k = 1; k <= m; ++k) {  // recursive doubling: step i = m-k+1 reversed
    const uint32_t i = m - k + 1;
    for (uint32_t r = 0; r < n; ++r) {
      const uint32_t q = partner(r, i);  // r returns the block q reduced into it
      if (!sends(q, i)) continue;
      const uint32_t range = range_of(block_first(q, i), 1u << (m - i));
      plan.transfers.push_back({label[i][q], node_of[r], node_of[q], range, m + k, Op::kGather});
    }
  }
  Router router(topo);
  plan.routes = router.routes(plan.transfers);

  // Promise contention freedom only if the exchange pattern has it (every pair, every step).
  std::vector<uint32_t> load(topo.links().size(), 0);
  plan.contention_free = true;
  for (uint32_t i = 1; i <= m && plan.contention_free; ++i) {
    std::fill(load.begin(), load.end(), 0);
    for (uint32_t r = 0; r < n; ++r) {
      for (uint32_t l : router.route(node_of[r], node_of[partner(r, i)])) {
        plan.contention_free = plan.contention_free && ++load[l] <= 1;
      }
    }
  }
  return plan;
}

}  // namespace mt
