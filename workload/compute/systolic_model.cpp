#include "compute/systolic_model.hpp"

#include "spec/checked_math.hpp"

namespace mt::workload {

OsRuntime os_runtime(const Gemm& g, uint64_t rows, uint64_t cols) {
  const char* what = "output-stationary runtime";
  OsRuntime r;
  r.row_folds = ceil_div(g.m, rows);
  r.col_folds = ceil_div(g.n, cols);
  // 2R + C + T - 2 with R, C >= 1 and T >= 1: never below 2.
  r.cycles_per_fold =
      checked_add(checked_add(checked_mul(2, rows, what), cols, what), g.k, what) - 2;
  r.cycles = checked_mul(checked_mul(r.cycles_per_fold, r.row_folds, what), r.col_folds, what);
  return r;
}

}  // namespace mt::workload
