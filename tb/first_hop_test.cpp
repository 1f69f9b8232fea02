// rtl/first_hop.sv against the SystemC first hop (systemc/ni/first_hop.hpp, on the routing of
// systemc/router/dor_route.cpp): every source and destination of tori, meshes and rings from 1
// to 256 nodes wide and high within the 8-bit node ids, including the destinations that have
// no route (the node itself, ids past the network); a new destination every cycle, each
// answered two cycles later.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "Vfirst_hop.h"
#include "ni_straps.hpp"
#include "network/port_layout.hpp"
#include "ni/first_hop.hpp"
#include "router/router.hpp"
#include "topology/topology.hpp"

namespace mt::tb {
namespace {

constexpr uint32_t kNodeW = 8, kNil = (1u << kNodeW) - 1;
constexpr uint32_t kLatency = 2;  // cycles from dest_i to port_o

class FirstHopTest : public ::testing::Test {
 protected:
  // Every source and destination of `topo`: the RTL's port and neighbour bit against SystemC.
  void check_all(const Topology& topo, const std::string& name) {
    const noc::PortLayout layout(topo, 4);
    for (uint32_t v = 0; v < topo.nodes(); ++v) {
      noc::NiPlace place;
      place.node = v;
      place.nodes = topo.nodes();
      place.grid = noc::grid_place(topo, v);
      const std::vector<uint32_t>& nb = layout.neighbours(v);
      for (uint8_t p = 0; p < noc::kPorts; ++p) {
        place.neighbour[p] = p < nb.size() ? nb[p] : noc::kNoNeighbour;
      }
      cosim::strap_place<kNodeW>(m_, place);
      for (uint32_t cycle = 0; cycle < kNil + kLatency; ++cycle) {
        m_.dest_i = static_cast<uint8_t>(cycle < kNil ? cycle : 0);
        settle();
        if (cycle >= kLatency) {
          const uint32_t dest = cycle - kLatency;
          const noc::FirstHop want = noc::first_hop(place, dest);
          ASSERT_EQ(m_.port_o, want.port) << name << ": node " << v << " to " << dest;
          ASSERT_EQ(m_.neighbour_o, want.neighbour) << name << ": node " << v << " to " << dest;
          ++pairs_;
        }
        edge();
      }
    }
  }

  // One cycle of the pipeline, which has no reset: the clock low (outputs read), then high.
  void settle() {
    m_.clk_i = 0;
    m_.eval();
  }
  void edge() {
    m_.clk_i = 1;
    m_.eval();
  }

  VerilatedContext ctx_;
  Vfirst_hop m_{&ctx_};
  uint64_t pairs_ = 0;
};

TEST_F(FirstHopTest, EveryPairOfEveryTorusAndMeshUpTo15x15) {
  for (uint32_t w = 1; w <= 15; ++w) {
    for (uint32_t h = 1; h <= 15; ++h) {
      if (w * h < 2) continue;
      check_all(make_torus(w, h), "torus " + std::to_string(w) + "x" + std::to_string(h));
      check_all(make_mesh(w, h), "mesh " + std::to_string(w) + "x" + std::to_string(h));
    }
  }
  RecordProperty("pairs", static_cast<int>(pairs_));
}

TEST_F(FirstHopTest, EveryPairOfRingsAndLongThinGrids) {
  for (uint32_t n : {2u, 3u, 4u, 5u, 16u, 17u, 64u, 127u, 254u}) {
    check_all(make_ring(n), "ring " + std::to_string(n));
  }
  check_all(make_torus(2, 127), "torus 2x127");
  check_all(make_torus(127, 2), "torus 127x2");
  check_all(make_mesh(3, 84), "mesh 3x84");
  check_all(make_torus(16, 15), "torus 16x15");
}

}  // namespace
}  // namespace mt::tb
