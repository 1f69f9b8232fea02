#include <unistd.h>

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

// MultiTree (a tree per node over every node, both phases) and the rings (2(N-1) steps of N
// transfers, both directions for ring-bi) plan about 4 N^2 transfers; a plan, its index, its
// tables and the verifier hold a few hundred bytes for each. Refuse up front what this machine
// cannot hold, rather than running for minutes into the allocator.
void check_plan_fits(const Topology& topo, const std::string& algorithm) {
  if (algorithm != "multitree" && algorithm != "ring" && algorithm != "ring-bi") return;
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0) return;
  const double physical = static_cast<double>(pages) * static_cast<double>(page);
  const double n = topo.nodes();
  const double transfers = 4.0 * n * (n - 1), bytes_per_transfer = 200;
  const double need = transfers * bytes_per_transfer;
  if (need > physical) {
    throw InputError(fmt::format(
        "topology {}: a {} plan on {} nodes has about {:.2g} transfers and needs about {:.0f} "
        "GiB of memory; this machine has {:.0f} GiB", topo.spec(), algorithm, topo.nodes(),
        transfers, need / double(1ull << 30), physical / double(1ull << 30)));
  }
}

}  // namespace

Plan build_plan(const Topology& topo, const std::string& algorithm, const PlanOptions& opt) {
  if (opt.bytes == 0 || opt.bytes % kElementBytes != 0) {
    throw InputError(fmt::format("bytes {}: must be a positive multiple of the {}-byte element",
                                 opt.bytes, kElementBytes));
  }
  check_plan_fits(topo, algorithm);
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
