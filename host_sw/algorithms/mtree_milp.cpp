// MTREE's workload distribution (the seed's §III-B): the MILP (1a)-(1f), solved by GLPK's
// branch and cut (glp_intopt). Columns r_1..r_gamma (rates, continuous, >= 0) and
// y_1..y_gamma (binary); rows (1b) per edge, (1c) and (1d) per tree, and (1e).
#include <glpk.h>

#include <algorithm>
#include <memory>

#include <fmt/format.h>

#include "algorithms/mtree.hpp"
#include "common/error.hpp"

namespace mt {
namespace {

struct ProblemDeleter {
  void operator()(glp_prob* p) const { glp_delete_prob(p); }
};

// The constraint matrix in GLPK's 1-based triplets.
struct Triplets {
  std::vector<int> row{0}, col{0};
  std::vector<double> value{0};
  void add(int r, int c, double v) {
    row.push_back(r);
    col.push_back(c);
    value.push_back(v);
  }
};

int add_row(glp_prob* lp, int type, double lo, double hi) {
  const int r = glp_add_rows(lp, 1);
  glp_set_row_bnds(lp, r, type, lo, hi);
  return r;
}

}  // namespace

std::vector<double> mtree_milp(const MtreeGraph& g, const MtreeTrees& t, uint32_t k,
                               double min_rate) {
  const int gamma = static_cast<int>(t.trees.size());
  if (gamma == 0) return {};
  std::unique_ptr<glp_prob, ProblemDeleter> owner(glp_create_prob());
  glp_prob* lp = owner.get();
  glp_set_obj_dir(lp, GLP_MAX);                             // (1a)
  glp_add_cols(lp, 2 * gamma);
  double big_m = 0;  // M: no tree's rate exceeds the widest edge's capacity, by (1b)
  for (const MtreeEdge& e : g.edges) big_m = std::max(big_m, e.capacity);
  for (int i = 1; i <= gamma; ++i) {
    glp_set_col_bnds(lp, i, GLP_LO, 0, 0);                  // (1f): r_i >= 0
    glp_set_obj_coef(lp, i, 1);
    glp_set_col_kind(lp, gamma + i, GLP_BV);                // (1f): y_i binary
  }
  Triplets m;
  std::vector<std::vector<int>> trees_on(g.edges.size());  // a_ij
  for (int i = 0; i < gamma; ++i) {
    for (uint32_t j : t.trees[static_cast<size_t>(i)].edges) trees_on[j].push_back(i + 1);
  }
  for (size_t j = 0; j < g.edges.size(); ++j) {             // (1b)
    if (trees_on[j].empty()) continue;
    const int r = add_row(lp, GLP_UP, 0, g.edges[j].capacity);
    for (int i : trees_on[j]) m.add(r, i, 1);
  }
  for (int i = 1; i <= gamma; ++i) {
    const int c = add_row(lp, GLP_LO, min_rate - big_m, 0);  // (1c): r_i - M y_i >= r_bar - M
    m.add(c, i, 1);
    m.add(c, gamma + i, -big_m);
    const int d = add_row(lp, GLP_UP, 0, 0);                 // (1d): r_i - M y_i <= 0
    m.add(d, i, 1);
    m.add(d, gamma + i, -big_m);
  }
  const int e = add_row(lp, GLP_UP, 0, k);                   // (1e)
  for (int i = 1; i <= gamma; ++i) m.add(e, gamma + i, 1);
  glp_load_matrix(lp, static_cast<int>(m.row.size()) - 1, m.row.data(), m.col.data(),
                  m.value.data());
  glp_iocp parm;
  glp_init_iocp(&parm);
  parm.presolve = GLP_ON;
  parm.msg_lev = GLP_MSG_OFF;
  const int rc = glp_intopt(lp, &parm);
  if (rc != 0 || glp_mip_status(lp) != GLP_OPT) {
    throw InputError(fmt::format("mtree: GLPK found no optimum of the MILP (1) over {} trees "
                                 "(glp_intopt {}, status {})", gamma, rc, glp_mip_status(lp)));
  }
  std::vector<double> rates;
  for (int i = 1; i <= gamma; ++i) {
    const bool used = glp_mip_col_val(lp, gamma + i) > 0.5;
    rates.push_back(used ? glp_mip_col_val(lp, i) : 0);
  }
  return rates;
}

}  // namespace mt
