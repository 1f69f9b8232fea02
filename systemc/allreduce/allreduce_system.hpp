// The all-reduce system as one top module (the Accellera TLM examples' shape): the router mesh
// (network/), one accelerator memory and one NI per node, the host that loads the tables and
// starts the NIs, and the monitor that stops the simulation. Each node's NI is the SystemC
// model or, for AllReduceOptions::rtl_nodes, the RTL NI that AllReduceOptions::rtl_ni builds;
// both are NiModels and bind the same way. Elaborated by the constructor; run with sc_start;
// read with result().
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "allreduce/allreduce_sim.hpp"
#include "allreduce/gradient_data.hpp"
#include "allreduce/host.hpp"
#include "allreduce/monitor.hpp"
#include "allreduce/switch_paths.hpp"
#include "network/network.hpp"
#include "memory/accel_memory.hpp"
#include "ni/ni_model.hpp"
#include "topology/topology.hpp"

namespace mt::noc {

class AllReduceSystem : public sc_core::sc_module {
 public:
  // `set` and `images` are the tables and node n's image bytes; `noc` has ni_ports set to the
  // tables' K and `memory` the window the tables touch; `plan` (null for an image set) gives
  // the switch paths of messages on a switch network. Throws mt::InputError for options the
  // system cannot build (a node out of range, an RTL node without `opt.rtl_ni` or on a switch
  // network, a planned path the network cannot carry).
  AllReduceSystem(sc_core::sc_module_name name, const Topology& topo, const TableSet& set,
                  std::vector<std::vector<uint8_t>> images, const AllReduceOptions& opt,
                  const NocConfig& noc, const MemoryConfig& memory, const Plan* plan);
  ~AllReduceSystem() override;

  // The loading error of an NI, if the host stopped the simulation (empty otherwise).
  const std::string& host_error() const { return host_->error(); }
  // After sc_start: cycles, timeline, link loads, and every node's buffer checked.
  AllReduceResult result() const;
  // Why the run failed, the first of: a table entry an NI could not execute, a deadlock, a
  // wrong sum; empty when every node holds the exact sum.
  std::string failure() const;

 private:
  std::unique_ptr<NiModel> build_ni(uint32_t n, const AllReduceOptions& opt);
  void observe(NiModel& ni, bool record_issues);
  // Node n's initial data into its memory, with opt.fault if it is at node n.
  void fill(uint32_t n, const AllReduceOptions& opt);

  const Topology& topo_;
  TableSet set_;
  std::vector<std::vector<uint8_t>> images_;
  NocConfig noc_;
  FlowControl flow_control_;
  std::vector<uint32_t> rtl_nodes_;
  Network net_;
  std::unique_ptr<SwitchPaths> switch_paths_;  // switch networks only
  DataMode data_mode_;
  std::shared_ptr<const SampledLines> sample_;  // --data sampled only
  GradientData data_;
  std::vector<std::unique_ptr<AccelMemory>> memories_;
  std::vector<std::unique_ptr<NiModel>> nis_;
  std::unique_ptr<Host> host_;
  std::unique_ptr<Monitor> monitor_;
  std::map<uint32_t, StepSpan> spans_;
  std::vector<IssueRecord> issues_;
  sc_core::sc_trace_file* trace_ = nullptr;
};

}  // namespace mt::noc
