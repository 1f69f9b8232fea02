// The noc-sim command: latency-throughput curves of synthetic traffic on the SystemC network.
#pragma once

#include <ostream>

namespace mt::noc {

// Exit codes as mtc: 0 success, 1 bad input, 2 internal error.
int noc_sim_main(int argc, char** argv, std::ostream& out, std::ostream& err);

}  // namespace mt::noc
