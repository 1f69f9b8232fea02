// GOST, MTREE's tree builder (the seed's §III-A): GBST (Algorithm 1) grows spanning trees like
// Prim's algorithm, widest available edge first, with GRTH (Algorithm 2) tracking the height of
// the tree from every possible root; ITH (Algorithm 3) searches for the least height bound that
// keeps the total rate.
//
// Two points the listing leaves open, as settled here (docs/mtc.md):
// - Line 3 starts each tree at a random vertex; here tree t starts at vertex t mod n, so that
//   plans are reproducible.
// - Line 12 bounds max_i D_j[i] by d = 2H, the tree's diameter, and line 20 roots the tree at
//   the vertex of least height. With weighted edges the centre of the diameter path need not be
//   a vertex, so that height can exceed H; to keep the trees' contract (weighted height at most
//   H) an edge is also admissible only if some vertex still roots the grown tree within H
//   (min_i D_j[i] <= H). Heights only grow as edges are added, so the final root's is at most H.
#include <algorithm>
#include <deque>
#include <numeric>

#include "algorithms/mtree.hpp"

namespace mt {

std::vector<uint64_t> mtree_grth(uint32_t u, uint32_t v, uint64_t latency,
                                 const std::vector<std::vector<MtreeNeighbour>>& adjacent,
                                 const std::vector<uint64_t>& d_star) {
  std::vector<uint64_t> d = d_star;                         // line 2
  std::vector<bool> visited(d.size(), false);
  std::deque<std::pair<uint32_t, uint64_t>> q{{u, latency}};  // line 4: <u, L_{v,u}>
  visited[u] = true;
  uint64_t ell = 0;
  d[u] = std::max(d[u], latency);  // u's height grows to reach v too (line 8 for u itself)
  while (!q.empty()) {                                      // lines 5-10
    const auto [p, t] = q.front();
    q.pop_front();
    ell = std::max(ell, t);
    for (const MtreeNeighbour& next : adjacent[p]) {
      if (visited[next.vertex]) continue;
      d[next.vertex] = std::max(d[next.vertex], t + next.latency);
      q.push_back({next.vertex, t + next.latency});
      visited[next.vertex] = true;
    }
  }
  d[v] = ell;                                               // line 11
  return d;
}

namespace {

// One tree of GBST (lines 3-21) on the available capacities b, or nothing where it fails.
struct Grown {
  std::vector<uint32_t> edges;
  std::vector<uint64_t> d_star;
  std::vector<bool> in;
};

bool grow_tree(const MtreeGraph& g, const std::vector<double>& b, uint32_t start,
               uint64_t height, double min_rate, Grown& out) {
  std::vector<bool> in(g.n, false);
  in[start] = true;                                         // line 3
  std::vector<std::vector<MtreeNeighbour>> adjacent(g.n);  // M
  std::vector<uint64_t> d_star(g.n, 0);                     // line 6
  std::vector<uint32_t> order(g.edges.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t x, uint32_t y) { return b[x] > b[y]; });
  for (uint32_t added = 1; added < g.n; ++added) {
    int64_t kappa = -1;                                     // line 8
    uint64_t d_kappa = 2 * height;
    std::vector<uint64_t> best;
    for (uint32_t j : order) {                              // line 9: E_c, widest first
      const MtreeEdge& e = g.edges[j];
      if (in[e.u] == in[e.v] || b[j] < min_rate) continue;  // lines 5 and 18
      if (kappa >= 0 && b[j] < b[static_cast<size_t>(kappa)]) break;  // line 10
      const uint32_t u = in[e.u] ? e.u : e.v, v = in[e.u] ? e.v : e.u;
      std::vector<uint64_t> dj = mtree_grth(u, v, e.latency, adjacent, d_star);  // line 11
      uint64_t hi = 0, lo = UINT64_MAX;
      for (uint32_t i = 0; i < g.n; ++i) {
        if (!in[i] && i != v) continue;
        hi = std::max(hi, dj[i]);
        lo = std::min(lo, dj[i]);
      }
      if (hi <= d_kappa && lo <= height) {                  // line 12 (and the root's H)
        kappa = j;                                          // line 13
        best = std::move(dj);
        d_kappa = hi;
      }
    }
    if (kappa < 0) return false;                            // line 14; line 19 when E_c is empty
    const MtreeEdge& e = g.edges[static_cast<size_t>(kappa)];
    const uint32_t u = in[e.u] ? e.u : e.v, v = in[e.u] ? e.v : e.u;
    in[v] = true;                                           // lines 15-17
    adjacent[u].push_back({v, e.latency});
    adjacent[v].push_back({u, e.latency});
    out.edges.push_back(static_cast<uint32_t>(kappa));
    d_star = std::move(best);
  }
  out.d_star = std::move(d_star);
  out.in = std::move(in);
  return true;
}

// Line 21: the tree of `edges` rooted at tau, every vertex's parent and the weighted height.
MtreeTree rooted(const MtreeGraph& g, const std::vector<uint32_t>& edges, uint32_t tau) {
  MtreeTree t;
  t.root = tau;
  t.edges = edges;
  t.parent.assign(g.n, tau);
  std::vector<std::vector<uint32_t>> incident(g.n);
  for (uint32_t j : edges) {
    incident[g.edges[j].u].push_back(j);
    incident[g.edges[j].v].push_back(j);
  }
  std::vector<uint64_t> depth(g.n, 0);
  std::vector<bool> seen(g.n, false);
  std::deque<uint32_t> q{tau};
  seen[tau] = true;
  while (!q.empty()) {
    const uint32_t p = q.front();
    q.pop_front();
    for (uint32_t j : incident[p]) {
      const uint32_t c = g.edges[j].u == p ? g.edges[j].v : g.edges[j].u;
      if (seen[c]) continue;
      seen[c] = true;
      t.parent[c] = p;
      depth[c] = depth[p] + g.edges[j].latency;
      t.height = std::max(t.height, depth[c]);
      q.push_back(c);
    }
  }
  return t;
}

}  // namespace

MtreeTrees mtree_gbst(const MtreeGraph& g, uint64_t height, double min_rate) {
  MtreeTrees out;                                           // line 1
  out.height_bound = height;
  std::vector<double> b;
  for (const MtreeEdge& e : g.edges) b.push_back(e.capacity);
  for (uint32_t t = 0;; ++t) {                              // line 2
    Grown grown;
    if (!grow_tree(g, b, t % g.n, height, min_rate, grown)) return out;
    uint32_t tau = 0;                                       // line 20: argmin over V_s
    for (uint32_t i = 1; i < g.n; ++i) {
      if (grown.d_star[i] < grown.d_star[tau]) tau = i;
    }
    double r_star = 0;                                      // line 22: globally smallest b_j > 0
    for (double x : b) {
      if (x > 0 && (r_star == 0 || x < r_star)) r_star = x;
    }
    out.trees.push_back(rooted(g, grown.edges, tau));       // line 23
    out.rates.push_back(r_star);
    for (uint32_t j : grown.edges) b[j] -= r_star;          // lines 24-25
  }
}

MtreeTrees mtree_ith(const MtreeGraph& g, uint64_t height, double min_rate, double rho) {
  MtreeTrees best = mtree_gbst(g, height, min_rate);        // line 1
  const double r_rho = rho * best.total();                  // line 2
  uint64_t lo = 1, hi = height;                             // line 3
  while (lo < hi) {                                         // line 4
    const uint64_t mid = lo + (hi - lo) / 2;                // line 5
    MtreeTrees t = mtree_gbst(g, mid, min_rate);            // line 6
    if (t.total() >= r_rho) {                               // lines 7-8
      hi = mid;
      best = std::move(t);
    } else {
      lo = mid + 1;                                         // line 10
    }
  }
  best.height_bound = hi;
  return best;
}

}  // namespace mt
