#include "router/dor_route.hpp"

namespace mt::noc {
namespace {

// Whether the step from `from` toward `to` is +: the shorter way round when the dimension
// wraps. A tie (distance size/2, size > 2) goes + when the destination coordinate is even
// and - when it is odd, so the pairs of nodes half a ring apart split their traffic evenly
// between the two directions (BookSim picks at random); once a packet has stepped, the way
// it took is the shorter one, so the choice holds to the end of the dimension. A dimension of
// size 2 has one link per direction, so its ties keep going +.
bool step_plus(uint32_t from, uint32_t to, uint32_t size, bool wrap) {
  if (!wrap) return to > from;
  const uint32_t fwd = (to + size - from) % size;
  if (2 * fwd == size && size > 2) return to % 2 == 0;
  return fwd <= size - fwd;
}

// Dateline class of a hop along a dimension, decided when the packet enters the dimension
// from the whole route in it (as BookSim's dim_order_torus): 1 when the route will cross the
// wrap-around link (between coordinates size-1 and 0), 0 when it will not; kept on every
// later hop of the same dimension.
int8_t hop_class(const GridPlace& here, uint32_t at, uint32_t to, bool plus, bool entering,
                 int in_class) {
  if (!here.wraps) return -1;
  if (!entering) return static_cast<int8_t>(in_class);
  const bool crosses = plus ? to < at : to > at;
  return crosses ? 1 : 0;
}

}  // namespace

Hop dimension_order_hop(const GridPlace& here, uint32_t dest, Dim in_dim, int in_class) {
  const uint32_t tx = dest % here.width, ty = dest / here.width;
  if (here.x != tx) {
    const bool plus = step_plus(here.x, tx, here.width, here.wraps);
    return {plus ? Step::kXPlus : Step::kXMinus,
            hop_class(here, here.x, tx, plus, in_dim != Dim::kX, in_class)};
  }
  if (here.y != ty) {
    const bool plus = step_plus(here.y, ty, here.height, here.wraps);
    return {plus ? Step::kYPlus : Step::kYMinus,
            hop_class(here, here.y, ty, plus, in_dim != Dim::kY, in_class)};
  }
  return {Step::kLocal, -1};
}

}  // namespace mt::noc
