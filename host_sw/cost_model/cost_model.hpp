// Analytic cost models (alpha-beta) of the algorithms, as functions of the network: printed
// beside simulated results, never instead of them (DESIGN.md). One model per file here.
#pragma once

#include <optional>
#include <string>

#include "algorithms/mtree.hpp"
#include "plan/plan.hpp"
#include "topology/topology.hpp"

namespace mt {

struct CostParams {
  double link_latency = 150;          // cycles per link, where the network sets none
  double link_bytes_per_cycle = 16;   // one flit per cycle on each of a link's parallel links
  // A node's NI on a switch network has one port pair (systemc/ni/README.md, "Switch
  // networks"): it sends and receives one flit per cycle however wide its link is.
  double ni_bytes_per_cycle = 16;
};

struct Prediction {
  double cycles = 0;
  std::string model;  // e.g. "FlexReduce Eq. (6)"
};

// The FlexReduce paper's Eq. (2): a ring reduce-scatter of n bytes over d learners with links
// of w bytes per cycle and alpha cycles per message: (d - 1) (alpha + n / (d w)).
double ring_reduce_scatter(double n, double d, double w, double alpha);

// The models, each where it applies (nothing elsewhere):
double predict_flexreduce(const Topology& topo, uint64_t bytes, const CostParams& p);   // hier
double predict_blueconnect(const Topology& topo, uint64_t bytes, const CostParams& p);  // hier
double predict_ring_hier(const Topology& topo, uint64_t bytes, const CostParams& p);    // hier
// Eq. (3) of the NetReduce appendix on a hierarchy of equal machines (netreduce_plan.cpp).
double predict_netreduce(const Topology& topo, uint64_t bytes, const CostParams& p);
// mtree_solve's trees (algorithms/mtree.hpp) on a direct network.
double predict_mtree(const Topology& topo, const MtreeResult& r, const CostParams& p);

// The model of `algorithm` on `topo`, or nothing where none applies: FlexReduce, BlueConnect
// and the ring on hierarchies of machines, hierarchical NetReduce on hierarchies of equal
// machines, MTREE on direct networks.
std::optional<Prediction> predict_cycles(const Topology& topo, const std::string& algorithm,
                                         const PlanOptions& opt, const CostParams& p);

}  // namespace mt
