#include <unistd.h>

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "algorithms/algorithms.hpp"
#include "common/error.hpp"
#include "interop/msccl.hpp"

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

bool image_algorithm(const std::string& name) {
  const std::vector<std::string>& names = algorithm_names();
  return name == "msccl" || std::find(names.begin(), names.end(), name) != names.end();
}

const std::vector<std::string>& algorithm_names() {
  static const std::vector<std::string> names{"multitree", "multitree-opt", "ring", "ring-bi",
                                              "ring2d", "ring2d-paper", "dbtree", "hdrm",
                                              "flexreduce", "blueconnect", "mtree", "ps", "ina",
                                              "netreduce"};
  return names;
}

namespace {

double physical_memory() {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? static_cast<double>(pages) * static_cast<double>(page) : 0;
}

double gib(double bytes) { return bytes / double(1ull << 30); }

bool quadratic(const std::string& algorithm) {
  return algorithm == "multitree" || algorithm == "multitree-opt" || algorithm == "ring" ||
         algorithm == "ring-bi";
}

// MultiTree (a tree per node over every node, both phases) and the rings (2(N-1) steps of N
// transfers, both directions for ring-bi) plan about 4 N^2 transfers; a plan, its index, its
// tables and the verifier hold a few hundred bytes for each. Refuse up front what this machine
// cannot hold, rather than running for minutes into the allocator.
void check_quadratic_plan_fits(const std::string& spec, const TopologySize& size,
                               const std::string& algorithm, double physical) {
  const double n = static_cast<double>(size.nodes);
  const double transfers = 4.0 * n * (n - 1), bytes_per_transfer = 200;
  const double need = transfers * bytes_per_transfer;
  if (need > physical) {
    throw InputError(fmt::format(
        "topology {}: a {} plan on {} nodes has about {:.2g} transfers and needs about {:.0f} "
        "GiB of memory; this machine has {:.0f} GiB", spec, algorithm, size.nodes,
        transfers, gib(need), gib(physical)));
  }
}

// What a breadth-first search through the whole network visits: every vertex and link.
double search_visits(const TopologySize& size) {
  return static_cast<double>(size.nodes + size.switches + size.links);
}

double ceil_log2(double n) { return std::ceil(std::log2(std::max(2.0, n))); }

// A plan's size, estimated from the shape of each algorithm (its .cpp here) before anything is
// built. Tables hold an entry (a send or a NOP) for every step up to each node's last send and
// one for each further send in a step: about max(N * 2T, transfers) entries, T the steps per
// phase (ring2d on torus:512x512 has 5e8).
struct PlanSize {
  double transfers = 0, steps_per_phase = 0, entries = 0;
  double extra_seconds = 0;  // work that does not scale with the two (plan_seconds)
};

// MultiTree and the rings: a Reduce and a Gather for every node but one per chunk, and a chunk
// per node or per 16-byte grain, whichever is fewer (a 64-byte buffer has 4 non-empty chunks).
void estimate_quadratic(const TopologySize& size, const std::string& algorithm,
                        const PlanOptions& opt, PlanSize& p) {
  const double n = static_cast<double>(size.nodes);
  const double grains = std::ceil(static_cast<double>(opt.bytes) / kChunkGrainBytes);
  const double chunks = std::min(n, grains);
  p.transfers = 2 * (n - 1) * chunks;
  p.steps_per_phase = n - 1;
  if (algorithm == "ring-bi") {  // half of the grains each way round
    const double half = grains / 2;
    p.transfers = 2 * (n - 1) * (std::min(n, std::ceil(half)) + std::min(n, std::floor(half)));
  } else if (algorithm == "multitree") {
    // Every tree is built, its chunk empty or not: a node takes in a tree a link a step, at
    // least (N - 1) / degree steps, and N (N - 1) tree edges, each one found by a search
    // through the free switches in a switch network: about 2 ns a vertex and link searched
    // (fattree:32x2 3.5 s idle, 10 s loaded; bigraph:16x32 5 s idle), about 0.1 us an edge in
    // a direct one (torus:64x64, 2 s).
    const double degree = std::max(1u, size.min_node_degree), edges = n * (n - 1);
    p.steps_per_phase = std::max(1.0, std::ceil((n - 1) / degree));
    const double searched = search_visits(size);
    p.extra_seconds = size.switches == 0 ? edges * 0.1e-6 : edges * searched * 2e-9;
    // --prioritize-height: every step, a search from every tree for its remaining height,
    // about 2 ns a vertex and link (torus:32x32, 2.7 s).
    if (opt.prioritize_height) p.extra_seconds += p.steps_per_phase * n * searched * 2e-9;
  } else if (algorithm == "multitree-opt") {
    // On a torus or ring one tree searched for (multitree_opt.cpp), then moved to every root;
    // on a switch network trees laid out without a search (multitree_opt_switch.cpp).
    const double degree = std::max(1u, size.min_node_degree);
    p.steps_per_phase = std::max(1.0, std::ceil((n - 1) / degree));
    if (size.switches == 0) p.extra_seconds = multitree_opt_search_seconds(n, p.steps_per_phase);
  }
}

PlanSize estimate_size(const TopologySize& size, const std::string& algorithm,
                       const PlanOptions& opt) {
  const double n = static_cast<double>(size.nodes);
  const double grains = std::ceil(static_cast<double>(opt.bytes) / kChunkGrainBytes);
  PlanSize p;
  if (quadratic(algorithm)) {
    estimate_quadratic(size, algorithm, opt, p);
  } else if (algorithm == "ring2d" || algorithm == "ring2d-paper") {
    const double w = size.width, h = size.height, side = std::max(w, h);
    if (w == 0 || h == 0) return p;  // not a grid: build_ring2d says so
    const bool both_orders = w > 1 && h > 1;
    const double shares = (both_orders ? 2 : 1) * (w != 2 && h != 2 ? 2 : 1);
    // Steps that move data: ring2d's two stages per phase; ring2d-paper's whole all-reduce per
    // dimension (its all-gather phase uses only the second stage's steps).
    const double moving = both_orders ? 4 * (side - 1) : 2 * (w + h - 2);
    p.steps_per_phase = algorithm == "ring2d" ? moving / 2 : both_orders ? 3 * (side - 1)
                                                                          : 2 * (w - 1) + h - 1;
    // Per share: each stage's step moves every line's non-empty pieces.
    const double per_share = std::min(n, grains / shares);
    p.transfers = shares * moving * per_share;
    // Each transfer spans about side / 2 of the buffer's segments, which the verifier's sums
    // go through one by one at about 57 ns (torus:256x256: 1.3e8 of them, twice).
    p.extra_seconds = p.transfers * side / 2 * 57e-9;
  } else if (algorithm == "dbtree") {
    const double levels = ceil_log2(n);
    const double chunks = dbtree_chunks(opt, static_cast<uint32_t>(levels));
    p.steps_per_phase = levels + chunks - 1;
    p.transfers = 4 * (n - 1) * chunks;
    // Routes where they are searched for (files, BiGraph): a search from every node to its
    // tree neighbours, far apart in the network, for the plan and again for its tables, about
    // 2 ns a vertex and link (a 20,000-node switch network given as a file, 11 s).
    if (size.kind == TopologyKind::kFile || size.kind == TopologyKind::kBiGraph) {
      p.extra_seconds = 2 * n * search_visits(size) * 2e-9;
    }
  } else if (algorithm == "ps" || algorithm == "ina") {
    p.steps_per_phase = algorithm == "ps" ? std::ceil((n - 1) / 4) : 1;
    p.transfers = 2 * n;
    // ina: a breadth-first search over the network from every switch for the tree's top.
    if (algorithm == "ina") {
      p.extra_seconds = static_cast<double>(size.switches) * search_visits(size) * 2e-9;
    }
  } else if (algorithm == "netreduce") {
    // A ring of n in each machine and a tree per chunk: about 2 N transfers a chunk.
    const double machines = static_cast<double>(size.switches > 1 ? size.switches - 1 : 1);
    const double per_machine = n / machines;
    p.steps_per_phase = per_machine;
    p.transfers = 2 * n * per_machine;
  } else if (algorithm == "hdrm") {
    p.steps_per_phase = ceil_log2(n);
    p.transfers = 2 * n * p.steps_per_phase;
    // Halving and doubling: a node's sends in a phase span its buffer's segments twice over
    // (n / 2 + n / 4 + ...), min(N, grains) of them, each a merge of contributor sets in the
    // verifier's sums, about 65 ns; and about 10 ns a pair of nodes whatever the size. With
    // mtc on this 2-core machine, loaded: bigraph:64x64 at 1 MiB 16.5 s, bigraph:64x128 71 s,
    // bigraph:128x128 at 64 bytes 10.5 s.
    p.extra_seconds = n * n * 10e-9 + 4 * n * std::min(n, grains) * 65e-9;
  }
  p.entries = std::max(n * 2 * p.steps_per_phase, p.transfers);
  return p;
}

void check_memory(const std::string& spec, const TopologySize& size, const std::string& algorithm,
                  const PlanSize& p) {
  const double physical = physical_memory();
  if (physical <= 0) return;
  if (quadratic(algorithm)) {
    check_quadratic_plan_fits(spec, size, algorithm, physical);
    return;
  }
  // A table entry in memory, with its vector's slack: about 100 bytes; a transfer with its
  // index, route and the verifier's records: about 200.
  const double need = p.entries * 100 + p.transfers * 200;
  if (need > physical) {
    throw InputError(fmt::format(
        "topology {}: a {} plan on {} nodes has about {:.2g} transfers and {:.2g} table entries "
        "({:.0f} steps per phase) and needs about {:.0f} GiB of memory; this machine has {:.0f} "
        "GiB", spec, algorithm, size.nodes, p.transfers, p.entries, p.steps_per_phase,
        gib(need), gib(physical)));
  }
}

// Building, verifying and compiling a plan, verifying its tables and printing them takes about
// 0.5 us a transfer (it is sent, checked and compiled into an entry, twice: the tables are
// checked before they are streamed out) and 0.2 us a further table entry (a NOP), with mtc on
// this 2-core machine. Measured as CPU seconds with the machine loaded (mtc's wall time on an
// idle core), tables streamed: multitree on torus:52x52 at 1 MiB (1.5e7 transfers, no NOPs)
// 6.6 s (its images on torus:64x64, 3.4e7 transfers, 26 to 31 s); dbtree on torus:700x700 at
// 4 KiB (3.9e6, 1.6e7 NOPs) 4.1 s; ring2d on torus:128x128 at 4 KiB 2.1 s. Before the tables
// were streamed (whole documents and a second verification of the whole set) torus:52x52
// took 10.2 s and dbtree on torus:700x700 6.8 s; wall times idle to loaded were 11 to 14 s
// and 6.4 to 7.7 s, dbtree on torus:1000x1000 (8e6, 3.4e7) 14.5 to 36 s and ring on a
// 4096-node file at 64 bytes (1.3e5, 2.5e7) 4.5 s. Plus the extra work of some algorithms
// (estimate_size).
double plan_seconds(const PlanSize& p) {
  return 0.5e-6 * p.transfers + 0.2e-6 * (p.entries - p.transfers) + p.extra_seconds;
}

void check_time(const std::string& spec, const TopologySize& size, const std::string& algorithm,
                const PlanSize& p, double limit) {
  const double seconds = plan_seconds(p);
  if (limit == 0 || seconds <= limit) return;
  // Whole seconds from 10 s on, else two significant digits: never "0 s" over a small limit.
  const std::string estimate =
      seconds >= 10 ? fmt::format("{:.0f}", seconds) : fmt::format("{:.2g}", seconds);
  throw InputError(fmt::format(
      "topology {}: a {} plan on {} nodes has about {:.2g} transfers and {:.2g} table entries "
      "({:.0f} steps per phase): about {} s to plan, verify and compile on this machine, "
      "more than the {:g} s limit (mtc and mtsim --time-limit set it)", spec, algorithm, size.nodes,
      p.transfers, p.entries, p.steps_per_phase, estimate, limit));
}

}  // namespace

void check_plan_size(const std::string& spec, const TopologySize& size,
                     const std::string& algorithm, const PlanOptions& opt) {
  const PlanSize p = estimate_size(size, algorithm, opt);
  check_memory(spec, size, algorithm, p);
  check_time(spec, size, algorithm, p, opt.max_plan_seconds);
}

Plan build_plan(const Topology& topo, const std::string& algorithm, const PlanOptions& opt) {
  if (opt.bytes == 0 || opt.bytes % kElementBytes != 0) {
    throw InputError(fmt::format("bytes {}: must be a positive multiple of the {}-byte element",
                                 opt.bytes, kElementBytes));
  }
  check_plan_size(topo.spec(), topo.size(), algorithm, opt);
  if (is_msccl_algorithm(algorithm)) return import_msccl(algorithm, topo, opt);
  if (algorithm == "multitree") return build_multitree(topo, opt);
  if (algorithm == "multitree-opt") return build_multitree_opt(topo, opt);
  if (algorithm == "ring") return build_ring(topo, opt);
  if (algorithm == "ring-bi") return build_ring_bi(topo, opt);
  if (algorithm == "ring2d") return build_ring2d(topo, opt);
  if (algorithm == "ring2d-paper") return build_ring2d_paper(topo, opt);
  if (algorithm == "dbtree") return build_dbtree(topo, opt);
  if (algorithm == "hdrm") return build_hdrm(topo, opt);
  if (algorithm == "flexreduce") return build_flexreduce(topo, opt);
  if (algorithm == "blueconnect") return build_blueconnect(topo, opt);
  if (algorithm == "mtree") return build_mtree(topo, opt);
  if (algorithm == "ps") return build_ps(topo, opt);
  if (algorithm == "ina") return build_ina(topo, opt);
  if (algorithm == "netreduce") return build_netreduce(topo, opt);
  throw InputError(fmt::format("algorithm \"{}\": unknown (multitree, multitree-opt, ring, "
                               "ring-bi, ring2d, ring2d-paper, dbtree, hdrm, flexreduce, "
                               "blueconnect, mtree, ps, ina, netreduce, "
                               "msccl:PATH)", algorithm));
}

}  // namespace mt
