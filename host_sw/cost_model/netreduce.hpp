// The NetReduce appendix's alpha-beta models (../shared/seeds/002_cc2f5659e8e87c3f.txt,
// Appendices A and B): P learners (GPUs) on machines of n, a message of M bytes, intra- and
// inter-machine bandwidths and a per-message latency alpha. One model per file here; each
// returns seconds. Errata and the algebra: docs/mtc.md, "Analytic models of the NetReduce
// appendix".
#pragma once

#include <cstdint>

namespace mt {

struct AlphaBetaParams {
  int64_t learners = 32;      // P, every GPU of the job
  int64_t per_machine = 8;    // n, GPUs per machine
  double bytes = 100e6;       // M, the gradient
  double b_intra = 150e9;     // B_intra, bytes per second (NVLink)
  double b_inter = 12.5e9;    // B_inter, bytes per second (100 Gb/s Ethernet)
  double alpha = 10e-6;       // alpha, seconds per message
};

// Throws InputError naming the first parameter out of range: P >= 2, 1 <= n <= P / 2 (at
// least 2 machines), P a multiple of n, M > 0, both bandwidths > 0, alpha >= 0, all finite (the message shows
// bandwidths in GB/s and alpha in microseconds, the units of mtc model).
void check_alpha_beta(const AlphaBetaParams& p);

// Eq. (1): the flat ring over all P learners at B_inter.
double t_flat_ring(const AlphaBetaParams& p);

// Eq. (2), Tencent's hierarchical all-reduce, as its closed form. n a power of 2.
double t_tencent(const AlphaBetaParams& p);
// Eq. (2) as the sum of its three printed brackets, which differs from the closed form in the
// intra-machine bandwidth term (the erratum).
double t_tencent_brackets(const AlphaBetaParams& p);
// Whether Eq. (2) applies: n a power of 2, as the seed assumes.
bool tencent_applies(const AlphaBetaParams& p);

// Appendix A: in-network aggregation of one learner per machine, alpha + M / B_inter.
double t_ina(const AlphaBetaParams& p);

// Eq. (3): hierarchical NetReduce, a ring reduce-scatter in each machine, in-network
// aggregation across machines, a ring all-gather in each machine.
double t_netreduce_hier(const AlphaBetaParams& p);

// Eq. (4), T_tr - T_nh, and Eq. (5), T_fr - T_nh, as printed (not as differences of the
// functions above, so that a test can check that they are).
double dt_tencent_netreduce(const AlphaBetaParams& p);
double dt_ring_netreduce(const AlphaBetaParams& p);
// The bandwidth coefficient of Eq. (5), d(T_fr - T_nh)/dM in seconds per byte: it changes sign
// at B_intra / B_inter = eq5_exact_ratio.
double dt_ring_netreduce_per_byte(const AlphaBetaParams& p);

// Eq. (6): 2P / (P - 2), the relaxed sufficient ratio B_intra / B_inter (P > n >= 2).
double eq6_ratio(int64_t learners);
// The ratio at which Eq. (5)'s bandwidth term is zero: 2 (n - 1) P / (n (P - 2)).
double eq5_exact_ratio(int64_t learners, int64_t per_machine);

}  // namespace mt
