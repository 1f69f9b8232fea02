// What a system needs of one node's NI, whichever model it is: the SystemC NI
// (network_interface.hpp) or the Verilated RTL NI behind its transactor
// (cosim/rtl_network_interface.hpp). The all-reduce system (systemc/allreduce/
// allreduce_system.hpp) binds these sockets, loads the table through `config()`, starts the NI
// and watches it only through this interface, so the two models are interchangeable per node.
//
// Timing contract, both models: flits leave on flit_out(i) and credits on flit_in(i)'s backward
// path with the local link latency (NocConfig::local_latency); a flit or credit that arrives is
// used in the cycle it becomes usable; every memory access is one b_transport on memory(),
// called in the cycle the NI hands it to the memory (accel_memory.hpp's contract).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include <systemc>
#include <tlm>

#include "flit/source_route.hpp"
#include "link/flit_protocol.hpp"
#include "ni/ni_config.hpp"
#include "ni/reduction_unit.hpp"
#include "noc/noc_config.hpp"
#include "router/dor_route.hpp"
#include "table/schedule_table.hpp"

namespace mt::noc {

// Where a node sits: what the NI needs of the network to route its sends.
struct NiPlace {
  uint32_t node = 0;
  uint32_t nodes = 0;
  GridPlace grid;
  std::array<uint32_t, kPorts> neighbour{};  // node across each router port (grids)
  // Switch networks only (empty on a grid): the Route field (flit/source_route.hpp) of this
  // node's message to `dest` of `flow` and `op`: the switch path the host planner chose for
  // that transfer. Every send leaves by NI port 0, the node's one link; a message's sender is
  // its head's Src.
  std::function<uint32_t(uint32_t dest, uint32_t flow, Op op)> switch_route;
  RouteHopCode hop_code;  // how the Route field names this node's router's links
  // A direct network given as a file (routed by tables, like a switch network): switch_route
  // is the tables' first hop alone; as on a grid, a message to a neighbour is one hop and
  // any other send is normal packets, and a send leaves by the NI port of its first link.
  bool direct = false;
};

// Everything an NI model is built from.
struct NiSetup {
  NiPlace place;
  NocConfig noc;
  NiConfig ni;
  ReductionConfig reduction;
  DType dtype = DType::kFp32;
  // Waves of the model's own signals (the RTL's FST); empty: none.
  std::string waves;
};

class NiModel {
 public:
  using FlitOut = tlm::tlm_initiator_socket<kFlitBits, FlitProtocol>;
  using FlitIn = tlm::tlm_target_socket<kFlitBits, FlitProtocol>;
  virtual ~NiModel() = default;

  // Network port i (0..ports-1): bind flit_out(i) to Network::inject(node, i) and
  // Network::eject(node, i) to flit_in(i).
  virtual FlitOut& flit_out(uint32_t port) = 0;
  virtual FlitIn& flit_in(uint32_t port) = 0;
  // Bind to the node's AccelMemory.
  virtual tlm::tlm_initiator_socket<>& memory() = 0;
  // The host's table writes (the register map of format/ni_formats.json "config").
  virtual tlm::tlm_target_socket<>& config() = 0;
  // The table's STATUS register (format::table_status) and, when it says error, why.
  virtual uint32_t table_status() const = 0;
  virtual std::string table_error() const = 0;

  // The host starts the all-reduce after loading the table; the NI runs from the next cycle.
  virtual void start() = 0;
  // Table executed, every send injected, every message that arrived in memory (see
  // NetworkInterface::done), and the cycle it last became so.
  virtual bool done() const = 0;
  virtual uint64_t done_cycle() const = 0;
  // Grows whenever something happens (a flit moves, an access completes, an entry issues).
  virtual uint64_t progress() const = 0;
  // The lockstep counter is counting down in cycle `now` (waiting, not stalled).
  virtual bool counting(uint64_t now) const = 0;
  virtual uint64_t flits_injected() const = 0;
  virtual uint64_t flits_ejected() const = 0;
  virtual uint64_t head_flits_injected() const = 0;
  // The bounds' peaks so far; none where the model does not count them (the RTL NI, whose
  // queues stop the run with an error where they would overflow).
  virtual std::optional<NiPeaks> peaks() const = 0;
  // One line on what the NI waits for, for a stall report.
  virtual std::string status() const = 0;
  // Registers the NI's state with a SystemC trace file.
  virtual void trace(sc_core::sc_trace_file* tf) const = 0;
  // Why the NI stopped the run: a table entry it cannot execute, found when it came to it
  // (what the RTL NI signals on error_o), naming the node and the entry; empty while it runs.
  // A run with a fault has failed (mtsim's exit 3), like one with a wrong sum or a deadlock.
  const std::string& fault() const { return fault_; }

  // Observers: the timestep becoming `step` (at start: 0), and table entry `index` issuing.
  std::function<void(uint32_t node, uint32_t step, uint64_t cycle)> on_step;
  std::function<void(uint32_t node, size_t index, const TableEntry& entry, uint64_t cycle)>
      on_issue;

 protected:
  // Records the first fault and stops the simulation at the end of this delta cycle.
  void fail(std::string why) {
    if (!fault_.empty()) return;
    fault_ = std::move(why);
    sc_core::sc_stop();
  }

 private:
  std::string fault_;
};

// Builds one node's NI model (named `name`) from `setup`.
using NiBuilder =
    std::function<std::unique_ptr<NiModel>(const std::string& name, const NiSetup& setup)>;

}  // namespace mt::noc
