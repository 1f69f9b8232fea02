// mtsim: an all-reduce end to end on the SystemC NI and router mesh (see mtsim.cpp, --help).
#include <cstdlib>
#include <iostream>

#include <systemc>

#include "mtsim/mtsim.hpp"

int sc_main(int argc, char* argv[]) { return mt::noc::mtsim_main(argc, argv, std::cout, std::cerr); }

// Keeps SystemC's banner out of the output (as noc-sim does).
int main(int argc, char* argv[]) {
  ::setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
