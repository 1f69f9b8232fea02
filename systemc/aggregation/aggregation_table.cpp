#include "aggregation/aggregation_table.hpp"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "common/error.hpp"

namespace mt::noc {

void AggregationConfig::validate() const {
  if (window == 0) {
    throw InputError("aggregation window of 0: a flow needs at least 1 sequence number in flight");
  }
  if (elements_per_cycle < 4 || elements_per_cycle % 4 != 0) {
    throw InputError(fmt::format("aggregation adder width {} elements a cycle: must be a "
                                 "multiple of a flit's 4 elements", elements_per_cycle));
  }
}

OutputSharing output_sharing_for(size_t most_flows, uint32_t vcs) {
  return most_flows <= vcs ? OutputSharing::kVcPerFlow : OutputSharing::kFlowOrder;
}

void validate_aggregation_table(uint32_t vertex, const std::vector<AggregationEntry>& entries,
                                uint32_t vcs, OutputSharing sharing) {
  if (sharing == OutputSharing::kVcPerFlow && entries.size() > vcs) {
    throw InputError(fmt::format("switch {}: {} aggregation flows; its unit sends each flow's "
                                 "sums on a VC of its own, and there are {}", vertex,
                                 entries.size(), vcs));
  }
  std::set<uint32_t> flows;
  for (const AggregationEntry& e : entries) {
    const std::string at = fmt::format("switch {}: aggregation flow {}", vertex, e.flow);
    if (!flows.insert(e.flow).second) throw InputError(at + ": listed twice");
    if (e.child_ports.empty()) throw InputError(at + ": has no children");
    if (e.child_ports.size() > 64) throw InputError(at + ": more than 64 children");
    if (e.child_labels.size() != e.child_ports.size()) {
      throw InputError(fmt::format("{}: {} child labels for {} children", at,
                                   e.child_labels.size(), e.child_ports.size()));
    }
    std::set<uint8_t> ports(e.child_ports.begin(), e.child_ports.end());
    if (ports.size() != e.child_ports.size() || ports.count(e.parent_port) != 0) {
      throw InputError(at + ": a port is named twice among its children and parent");
    }
  }
}

}  // namespace mt::noc
