// Route computation for normal packets: dimension order, X then Y, the shorter way round a
// wrapped dimension (a tie, half a ring away, goes + to an even destination coordinate and -
// to an odd one, as host_sw/topology/routing.cpp), with dateline VC classes on wrapped
// dimensions. A pure function of the router's place, the destination and where the
// packet came from, so it can be tested without a simulation.
#pragma once

#include <cstdint>

namespace mt::noc {

enum class Step : uint8_t { kLocal, kXPlus, kXMinus, kYPlus, kYMinus };
enum class Dim : uint8_t { kNone, kX, kY };

// Where a router sits in its W x H grid (a ring is N x 1).
struct GridPlace {
  uint32_t x = 0, y = 0;
  uint32_t width = 1, height = 1;
  bool wraps = false;  // torus or ring: wrap-around links and dateline classes
};

struct Hop {
  Step step = Step::kLocal;
  // Dateline class of the output VC: 0 = VCs [0, vcs/2), 1 = [vcs/2, vcs); -1 = any VC (mesh,
  // ejection).
  int8_t vc_class = -1;
};

// The next hop toward node `dest` of a packet that arrived along dimension `in_dim` (kNone:
// injected here) on a VC of dateline class `in_class`. On a wrapped dimension the class is
// chosen when the packet enters the dimension (injected, or turning from X into Y) from its
// whole route in it, as BookSim does: class 1 if the route will cross the dimension's
// wrap-around link (between coordinates size-1 and 0), class 0 if not, kept to the end of
// the dimension. So packets bound for the wrap-around link never wait in class-0 VCs behind
// it, and class 0 never uses it (no cycle); class 1 never uses the link half a ring from it.
Hop dimension_order_hop(const GridPlace& here, uint32_t dest, Dim in_dim, int in_class);

}  // namespace mt::noc
