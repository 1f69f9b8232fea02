// The all-reduce algorithms: each turns a topology into a Plan.
#pragma once

#include <string>
#include <vector>

#include "plan/plan.hpp"
#include "topology/topology.hpp"

namespace mt {

// Algorithm 1 of the paper, with the indirect-network extension of §III-C3.
Plan build_multitree(const Topology& topo, const PlanOptions& opt);
// MultiTree with one tree moved to every root, at the step lower bound where its search finds
// it; tori and rings only.
Plan build_multitree_opt(const Topology& topo, const PlanOptions& opt);
// The processor time its tree search may take on `nodes` nodes, every attempt made.
double multitree_opt_search_seconds(double nodes, double steps_per_phase);
// Unidirectional ring all-reduce over a Hamiltonian cycle (multi-hop links where none exists).
Plan build_ring(const Topology& topo, const PlanOptions& opt);
// The same cycle in both directions, half of the data each way.
Plan build_ring_bi(const Topology& topo, const PlanOptions& opt);
// 2D-ring (Ying et al.) on every link: half of the data rows-then-columns, half
// columns-then-rows, both ways round; torus and mesh only.
Plan build_ring2d(const Topology& topo, const PlanOptions& opt);
// The paper's 2D-Ring: a whole ring all-reduce per dimension (about twice ring2d's data, the
// row sums spread with Puts), on every link as ring2d; tori only.
Plan build_ring2d_paper(const Topology& topo, const PlanOptions& opt);
// NCCL's double binary tree, topology-oblivious (multi-hop normal packets).
Plan build_dbtree(const Topology& topo, const PlanOptions& opt);
// Its chunks per tree for trees of `levels` levels (opt.chunks, or the default: dbtree.cpp).
uint32_t dbtree_chunks(const PlanOptions& opt, uint32_t levels);
// Halving-doubling with rank mapping (EFLOPS), for BiGraph.
Plan build_hdrm(const Topology& topo, const PlanOptions& opt);
// FlexReduce's uneven hierarchical reduce-scatter and all-gather, on hierarchies of machines.
Plan build_flexreduce(const Topology& topo, const PlanOptions& opt);
// BlueConnect's level-by-level rings on a symmetric hierarchy of machines; the ring otherwise.
Plan build_blueconnect(const Topology& topo, const PlanOptions& opt);
// MTREE's rate-weighted, pipelined spanning trees on a direct network with link capacities
// and latencies (algorithms/mtree.hpp).
Plan build_mtree(const Topology& topo, const PlanOptions& opt);
// Parameter server: every worker sends its buffer to node 0, which sends the sum back (ps.cpp).
Plan build_ps(const Topology& topo, const PlanOptions& opt);
// In-network aggregation: the switches add the nodes' buffers along a tree (ina.cpp).
Plan build_ina(const Topology& topo, const PlanOptions& opt);
// Hierarchical NetReduce on machines of equal size: ring reduce-scatter in each machine, the
// switches' aggregation across machines, ring all-gather in each machine (netreduce.cpp).
Plan build_netreduce(const Topology& topo, const PlanOptions& opt);

// A plan with the fields every algorithm fills the same way: name, topology, sizes.
Plan plan_header(const std::string& algorithm, const Topology& topo, const PlanOptions& opt);

// Names accepted by build_plan, in the order --help lists them; build_plan also takes
// "msccl:PATH", an MSCCL XML all-reduce (interop/msccl.hpp).
const std::vector<std::string>& algorithm_names();
// A name an image set's manifest may carry: one of algorithm_names() or "msccl" (the name of
// an imported plan).
bool image_algorithm(const std::string& name);
// Throws InputError, with the estimate, when a plan of `algorithm` on a network of `size`
// would not fit this machine's memory, or would take more than about 10 s to build, verify and
// compile (its transfers and table entries, estimated from the algorithm's shape). build_plan
// checks the built topology; the tools check the spec's size first (topology_size), before
// building a network that large.
void check_plan_size(const std::string& spec, const TopologySize& size,
                     const std::string& algorithm, const PlanOptions& opt);
// Dispatches on the name; InputError for an unknown name or an unsupported topology.
Plan build_plan(const Topology& topo, const std::string& algorithm, const PlanOptions& opt);

}  // namespace mt
