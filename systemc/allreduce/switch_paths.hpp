// The switch paths of an all-reduce's messages on a switch network: for each transfer of the
// plan, the Route field (flit/source_route.hpp) of the path the host planner chose for it
// (Plan::routes). Transfers the plan does not name (tables loaded from an image set, which
// carry no routes) take the network's own table route.
#pragma once

#include <cstdint>
#include <map>
#include <tuple>

#include "network/network.hpp"
#include "plan/plan.hpp"

namespace mt::noc {

class SwitchPaths {
 public:
  // `plan` may be null (an image set). Throws mt::InputError naming the transfer whose path
  // the network cannot carry (too many hops for a head, more VC classes than VCs); widens the
  // network's VC classes to the longest path, so build it before the simulation starts.
  SwitchPaths(Network& net, const Plan* plan);

  // The Route field of node src's message to dst of `flow` and `op`.
  uint32_t route(uint32_t src, uint32_t dst, uint32_t flow, Op op) const;

 private:
  using Key = std::tuple<uint32_t, uint32_t, uint32_t, Op>;
  const Network& net_;
  std::map<Key, uint32_t> routes_;
};

}  // namespace mt::noc
