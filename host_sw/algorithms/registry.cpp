#include <unistd.h>

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "algorithms/algorithms.hpp"
#include "common/error.hpp"

namespace mt {

Plan plan_header(const std::string& algorithm, const Topology& topo, const PlanOptions& opt) {
  Plan plan;
  plan.algorithm = algorithm;
  plan.topology = topo.spec();
  plan.nodes = topo.nodes();
  plan.bytes = opt.bytes;
  plan.dtype = opt.dtype;
  return plan;
}

const std::vector<std::string>& algorithm_names() {
  static const std::vector<std::string> names{"multitree", "ring", "ring-bi", "ring2d", "dbtree",
                                              "hdrm"};
  return names;
}

namespace {

double physical_memory() {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? static_cast<double>(pages) * static_cast<double>(page) : 0;
}

double gib(double bytes) { return bytes / double(1ull << 30); }

// MultiTree (a tree per node over every node, both phases) and the rings (2(N-1) steps of N
// transfers, both directions for ring-bi) plan about 4 N^2 transfers; a plan, its index, its
// tables and the verifier hold a few hundred bytes for each. Refuse up front what this machine
// cannot hold, rather than running for minutes into the allocator.
void check_quadratic_plan_fits(const Topology& topo, const std::string& algorithm, double physical) {
  const double n = topo.nodes();
  const double transfers = 4.0 * n * (n - 1), bytes_per_transfer = 200;
  const double need = transfers * bytes_per_transfer;
  if (need > physical) {
    throw InputError(fmt::format(
        "topology {}: a {} plan on {} nodes has about {:.2g} transfers and needs about {:.0f} "
        "GiB of memory; this machine has {:.0f} GiB", topo.spec(), algorithm, topo.nodes(),
        transfers, gib(need), gib(physical)));
  }
}

double ceil_log2(double n) { return std::ceil(std::log2(std::max(2.0, n))); }

// ring2d, dbtree and hdrm plan fewer transfers, but their tables hold an entry (a send or a
// NOP) for every step up to each node's last send: about N * 2T entries, T the steps per
// phase (2 (max(W, H) - 1) for ring2d, so torus:512x512 has 5e8 entries). Estimated from the
// shape of each algorithm (ring2d.cpp, dbtree.cpp, hdrm.cpp) before anything is built.
struct PlanSize {
  double transfers = 0, steps_per_phase = 0;
};

PlanSize estimate_size(const Topology& topo, const std::string& algorithm, const PlanOptions& opt) {
  const double n = topo.nodes(), elements = static_cast<double>(opt.bytes / kElementBytes);
  PlanSize p;
  if (algorithm == "ring2d") {
    const double w = topo.width(), h = topo.height(), side = std::max(w, h);
    if (w == 0 || h == 0) return p;  // not a grid: build_ring2d says so
    const bool both_orders = w > 1 && h > 1;
    const double shares = (both_orders ? 2 : 1) * (w != 2 && h != 2 ? 2 : 1);
    p.steps_per_phase = both_orders ? 2 * (side - 1) : w + h - 2;
    // Per share and phase: each stage's step moves every line's non-empty pieces.
    const double per_share = std::min(n, elements / shares);
    p.transfers = 2 * shares * p.steps_per_phase * per_share;
  } else if (algorithm == "dbtree") {
    const double levels = ceil_log2(n);
    const double chunks = dbtree_chunks(opt, static_cast<uint32_t>(levels));
    p.steps_per_phase = levels + chunks - 1;
    p.transfers = 4 * (n - 1) * chunks;
  } else if (algorithm == "hdrm") {
    p.steps_per_phase = ceil_log2(n);
    p.transfers = 2 * n * p.steps_per_phase;
  }
  return p;
}

void check_plan_fits(const Topology& topo, const std::string& algorithm, const PlanOptions& opt) {
  const double physical = physical_memory();
  if (physical <= 0) return;
  if (algorithm == "multitree" || algorithm == "ring" || algorithm == "ring-bi") {
    check_quadratic_plan_fits(topo, algorithm, physical);
    return;
  }
  const PlanSize p = estimate_size(topo, algorithm, opt);
  const double entries = topo.nodes() * 2 * p.steps_per_phase + p.transfers;
  // A table entry in memory, with its vector's slack: about 100 bytes; a transfer with its
  // index, route and the verifier's records: about 200.
  const double need = entries * 100 + p.transfers * 200;
  if (need > physical) {
    throw InputError(fmt::format(
        "topology {}: a {} plan on {} nodes has about {:.2g} transfers and {:.2g} table entries "
        "({:.0f} steps per phase) and needs about {:.0f} GiB of memory; this machine has {:.0f} "
        "GiB", topo.spec(), algorithm, topo.nodes(), p.transfers, entries, p.steps_per_phase,
        gib(need), gib(physical)));
  }
}

}  // namespace

Plan build_plan(const Topology& topo, const std::string& algorithm, const PlanOptions& opt) {
  if (opt.bytes == 0 || opt.bytes % kElementBytes != 0) {
    throw InputError(fmt::format("bytes {}: must be a positive multiple of the {}-byte element",
                                 opt.bytes, kElementBytes));
  }
  check_plan_fits(topo, algorithm, opt);
  if (algorithm == "multitree") return build_multitree(topo, opt);
  if (algorithm == "ring") return build_ring(topo, opt);
  if (algorithm == "ring-bi") return build_ring_bi(topo, opt);
  if (algorithm == "ring2d") return build_ring2d(topo, opt);
  if (algorithm == "dbtree") return build_dbtree(topo, opt);
  if (algorithm == "hdrm") return build_hdrm(topo, opt);
  throw InputError(fmt::format("algorithm \"{}\": unknown (multitree, ring, ring-bi, ring2d, "
                               "dbtree, hdrm)", algorithm));
}

}  // namespace mt
