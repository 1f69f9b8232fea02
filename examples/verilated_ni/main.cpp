// The Verilated RTL NI driven from a C++ test bench of your own, built against the installed
// MultiTreeNI package: the driver the project's benches and mtsim --rtl use (clocked_model.hpp,
// cfg_port.hpp, ni_straps.hpp, ni_flit_pins.hpp). The program plans MultiTree on mesh:2x1,
// straps the RTL NI as node 0, loads its table image through the table-write port as the host
// would, starts it and runs it against a memory and a network written here (each access
// completes a fixed time later; each flit's credit comes back a fixed time later, as a router
// would return it) until the NI has sent its first kFlits flits. It prints the table's
// entries, the cycles and the flits, then PASS (exit 0); anything else exits 1.
//
// One cycle of the driver: set the inputs, settle() (the outputs of this cycle's inputs),
// read the outputs, edge() (the rising edge). Pins are the Verilated model's members
// (rtl/network_interface.sv's ports); cosim/README.md gives the timing contract.
#include <cstdint>
#include <cstdio>
#include <deque>
#include <exception>
#include <string>
#include <vector>

#include "Vcosim_ni.h"
#include "algorithms/algorithms.hpp"
#include "cfg_port.hpp"
#include "clocked_model.hpp"
#include "cosim_ni_params.hpp"
#include "cosim_ni_pins.hpp"
#include "image/image.hpp"
#include "ni_flit_pins.hpp"
#include "ni_memory_pins.hpp"
#include "ni_straps.hpp"
#include "table/schedule_table.hpp"
#include "topology/topology.hpp"
#include "verifier/verifier.hpp"

using namespace mt;
namespace param = mt::cosim::rtl_param;

constexpr uint64_t kCreditCycles = 4;    // a flit's credit comes back this many cycles later
constexpr uint64_t kMemoryCycles = 10;   // an access completes this many cycles later
constexpr uint64_t kMaxCycles = 20000;   // the bench gives up after this many
constexpr uint64_t kFlits = 64;          // the flits the run waits for

static int run() {
  // The host side: plan, prove and compile the tables; node 0's image.
  const Topology topo = parse_topology("mesh:2x1");
  PlanOptions po;
  po.bytes = 16384;
  const Plan plan = build_plan(topo, "multitree", po);
  require_valid(plan, topo);
  const TableSet set = compile_tables(plan, TableOptions{param::K, 0});
  const std::vector<uint8_t> image = encode_image(set, 0);

  // Node 0 of a 2x1 mesh: its x+ router port (4) leads to node 1, the others to nothing.
  noc::NiPlace place;
  place.node = 0;
  place.nodes = 2;
  place.grid.width = 2;
  place.neighbour.fill(UINT32_MAX);
  place.neighbour[4] = 1;

  cosim::ClockedModel<Vcosim_ni> dut;
  cosim::strap_ni<param::NODE_W>(dut.model(), place, false);
  dut.reset();
  const cosim::CfgLoad load = cosim::cfg_load(dut, image);
  if (!load.fault.empty() || load.status != format::table_status::kLoaded) {
    std::fprintf(stderr, "verilated_ni: the NI did not load its table (status %u) %s\n",
                 load.status, load.fault.c_str());
    return 1;
  }
  const cosim::CfgResponse entries =
      cosim::cfg_access(dut, false, format::config::kRegEntries, 0);
  std::printf("table loaded: %u entries, longest wait for the port %u cycles\n", entries.data,
              load.longest_wait);

  // Start and run. The memory completes each access kMemoryCycles after it is asked for, in
  // order (reads give zeros); each flit's credit returns kCreditCycles after it leaves.
  std::deque<std::pair<uint64_t, std::vector<uint32_t>>> completions;  // (cycle, read data)
  std::deque<std::pair<uint64_t, uint32_t>> credits;  // (cycle, port * VCS + vc)
  uint64_t flits = 0, cycle = 0;
  dut->start_i = 1;
  dut->mem_req_ready_i = 1;
  for (; cycle < kMaxCycles && flits < kFlits; ++cycle) {
    const bool done = !completions.empty() && completions.front().first == cycle;
    cosim::drive_mem_response<cosim::kMemWords>(dut.model(), done ? &completions.front().second
                                                           : nullptr);
    if (done) completions.pop_front();
    dut->tx_credit_i = 0;
    while (!credits.empty() && credits.front().first == cycle) {
      const uint32_t p = credits.front().second / param::VCS;
      dut->tx_credit_i |= 1u << p;
      cosim::put(dut->tx_credit_vc_i, cosim::kVcBits * p, cosim::kVcBits,
                 credits.front().second % param::VCS);
      credits.pop_front();
    }
    dut.settle();
    if (dut->mem_req_valid_o) {
      const cosim::MemRequest r = cosim::mem_request(dut.model());
      completions.push_back({cycle + kMemoryCycles,
                             std::vector<uint32_t>(r.write ? 0 : r.words.size(), 0)});
    }
    for (uint32_t p = 0; p < param::K; ++p) {
      if ((dut->tx_valid_o >> p) & 1u) {
        ++flits;
        credits.push_back({cycle + kCreditCycles,
                           p * param::VCS + cosim::tx_flit<cosim::kVcBits>(dut.model(), p).vc});
      }
    }
    dut.edge();
    dut->start_i = 0;
  }
  if (flits < kFlits) {
    std::fprintf(stderr, "verilated_ni: no flits after %llu cycles\n",
                 static_cast<unsigned long long>(cycle));
    return 1;
  }
  std::printf("the NI sent %llu flits by cycle %llu\nPASS\n",
              static_cast<unsigned long long>(flits), static_cast<unsigned long long>(cycle));
  return 0;
}

// sc_main: the package's libraries link SystemC, whose library holds main() (this bench does
// not start the SystemC kernel).
int sc_main(int, char*[]) {
  try {
    return run();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "verilated_ni: %s\n", e.what());
    return 1;
  }
}
