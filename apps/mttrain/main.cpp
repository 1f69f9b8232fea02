// mttrain: one training iteration of a DNN workload with its all-reduces simulated on the
// SystemC NI and router mesh (see mttrain.cpp, --help).
#include <cstdlib>
#include <iostream>

#include <systemc>

#include "mttrain/mttrain.hpp"

int sc_main(int argc, char* argv[]) {
  return mt::training::mttrain_main(argc, argv, std::cout, std::cerr);
}

// Keeps SystemC's banner out of the output (as mtsim does).
int main(int argc, char* argv[]) {
  ::setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
