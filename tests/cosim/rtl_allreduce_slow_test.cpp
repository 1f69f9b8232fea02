// Co-simulation, the long run (ctest label slow): torus 8x8 at 1 MiB with the RTL NI at every
// node, exactly as the all-SystemC run (compare_runs.hpp).
#include "cosim/compare_runs.hpp"

namespace mt::noc {
namespace {

using namespace cosim_test;

TEST(RtlAllReduceSlow, Torus8x8MultiTreeMessage1MiB) {
  compare(options("torus:8x8", "multitree", FlowControl::kMessage, 1u << 20));
}

}  // namespace
}  // namespace mt::noc
