// noc-sim: synthetic traffic on the SystemC network model (see noc_sim.cpp and --help).
#include <cstdlib>
#include <iostream>

#include <systemc>

#include "noc_sim/noc_sim.hpp"

int sc_main(int argc, char* argv[]) { return mt::noc::noc_sim_main(argc, argv, std::cout, std::cerr); }

// SystemC prints its copyright banner before sc_main unless told not to by the environment, and
// the banner would be the first thing a user sees; so main sets that and hands over.
int main(int argc, char* argv[]) {
  ::setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
