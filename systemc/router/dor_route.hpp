// Route computation for normal packets: dimension order, X then Y, the shorter way round a
// wrapped dimension (ties go +, as host_sw/topology/routing.cpp), with dateline VC classes on
// wrapped dimensions. A pure function of the router's place, the destination and where the
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
// injected here) on a VC of dateline class `in_class`. On a wrapped dimension a packet is in
// class 0 until it crosses the dimension's wrap-around link (between coordinates size-1 and
// 0): the wrap-around link itself and every later hop in that dimension use class 1. A packet
// that enters a dimension (injected, or turning from X into Y) starts again in class 0.
Hop dimension_order_hop(const GridPlace& here, uint32_t dest, Dim in_dim, int in_class);

}  // namespace mt::noc
