// FlexReduce's planner (Lee et al., "FlexReduce", Fig. 3): the uneven ranges every learner
// reduces at each level of a hierarchy of machines.
#pragma once

#include <cstdint>
#include <vector>

namespace mt {

struct UnitRange {
  uint64_t begin = 0, end = 0;  // [begin, end) in units of 1/FlexRanges::units of the buffer
  bool contains(uint64_t u) const { return begin <= u && u < end; }
};

struct FlexRanges {
  uint64_t units = 0;  // machines x lcm(learners per machine): every range is whole units
  // range[k][v]: learner v's range after level k (0: within its machine; 1: across machines).
  std::vector<std::vector<UnitRange>> range;
};

// FlexReduce_plan over machines of learners[m] learners (learners numbered machine by machine):
// each level divides every leaf's portion by its branch node's degree (Fig. 3 (a), line 8),
// then hands the leaves under the branch consecutive ranges of that size, in the order of their
// current ranges' ends, then starts, then ids (assign_range, Fig. 3 (b)).
FlexRanges flexreduce_ranges(const std::vector<uint32_t>& learners);

}  // namespace mt
