#include "router/dor_route.hpp"

namespace mt::noc {
namespace {

// Whether the step toward `to` is + (the shorter way round when wrapping, + on a tie), as
// dim_step in host_sw/topology/routing.cpp.
bool step_plus(uint32_t from, uint32_t to, uint32_t size, bool wrap) {
  if (!wrap) return to > from;
  const uint32_t fwd = (to + size - from) % size;
  return fwd <= size - fwd;
}

// Dateline class of one hop along a dimension from coordinate `at`.
int8_t hop_class(const GridPlace& here, uint32_t at, uint32_t size, bool plus, bool crossed) {
  if (!here.wraps) return -1;
  const bool wrap_link = plus ? at == size - 1 : at == 0;
  return crossed || wrap_link ? 1 : 0;
}

}  // namespace

Hop dimension_order_hop(const GridPlace& here, uint32_t dest, Dim in_dim, int in_class) {
  const uint32_t tx = dest % here.width, ty = dest / here.width;
  if (here.x != tx) {
    const bool plus = step_plus(here.x, tx, here.width, here.wraps);
    const bool crossed = in_dim == Dim::kX && in_class == 1;
    return {plus ? Step::kXPlus : Step::kXMinus,
            hop_class(here, here.x, here.width, plus, crossed)};
  }
  if (here.y != ty) {
    const bool plus = step_plus(here.y, ty, here.height, here.wraps);
    const bool crossed = in_dim == Dim::kY && in_class == 1;
    return {plus ? Step::kYPlus : Step::kYMinus,
            hop_class(here, here.y, here.height, plus, crossed)};
  }
  return {Step::kLocal, -1};
}

}  // namespace mt::noc
