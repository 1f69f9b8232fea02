// The mtsim command: one all-reduce on the SystemC NI and router mesh, verified, with cycles,
// bandwidth and the physical bound (see --help and docs/mtsim.md).
#pragma once

#include <ostream>

namespace mt::noc {

// Exit codes: 0 the all-reduce ran and every node holds the exact sum; 1 bad input; 2 internal
// error; 3 the all-reduce failed (a wrong sum, or a deadlock).
int mtsim_main(int argc, char** argv, std::ostream& out, std::ostream& err);

}  // namespace mt::noc
