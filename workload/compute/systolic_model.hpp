// SCALE-Sim's analytical runtime of a GEMM on an output-stationary systolic array.
//
// Output stationary (Samajdar et al., "SCALE-Sim: Systolic CNN Accelerator Simulator",
// arXiv:1811.02883, §III-A "Output Stationary"): each PE of the R x C array owns one element of
// the output; the left edge streams rows of A (for a convolution, the ifmap's convolution
// windows), the top edge streams columns of B (the filters), and each PE accumulates its dot
// product in place. For C[m x n] = A[m x k] * B[k x n] the spatial dimensions are
// S_R = m (output rows: ofmap pixels) and S_C = n (output columns: filters) and the temporal
// dimension is T = k (the dot-product length: the convolution window).
//
// Runtime (Samajdar et al., "A Systematic Methodology for Characterizing Scalability of DNN
// Accelerators using SCALE-Sim", ISPASS 2020, its analytical runtime model): an S_R x S_C output
// that fits the array takes 2 S_R + S_C + T - 2 cycles (the operands skew in over S_R + S_C - 2
// cycles, T cycles of accumulation, S_R cycles to drain the outputs); a larger one is computed
// in ceil(S_R / R) * ceil(S_C / C) folds of R x C outputs, each taking the full array's
// 2R + C + T - 2 cycles:
//
//   cycles = (2R + C + T - 2) * ceil(S_R / R) * ceil(S_C / C)
//
// scale-sim-v2's cycle-level compute model (scalesim/compute/systolic_compute_os.py) counts
// R + C + T - 2 cycles per fold, R fewer; this model uses the published formula.
#pragma once

#include <cstdint>

namespace mt::workload {

// C[m x n] = A[m x k] * B[k x n].
struct Gemm {
  uint64_t m = 0, k = 0, n = 0;
};

struct OsRuntime {
  uint64_t row_folds = 0;        // ceil(m / R)
  uint64_t col_folds = 0;        // ceil(n / C)
  uint64_t cycles_per_fold = 0;  // 2R + C + k - 2
  uint64_t cycles = 0;           // cycles_per_fold * row_folds * col_folds
};

// The runtime of `g` on an array of `rows` x `cols` PEs (all positive); InputError when a count
// does not fit in 64 bits.
OsRuntime os_runtime(const Gemm& g, uint64_t rows, uint64_t cols);

}  // namespace mt::workload
