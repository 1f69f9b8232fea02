// The mttrain command: one training iteration of a DNN workload, its compute from the
// accelerator's model and its all-reduces from the cycle-accurate simulation of the network
// (see --help and docs/mttrain.md).
#pragma once

#include <ostream>

namespace mt::training {

// Exit codes (as mtsim's): 0 the iteration was simulated and every all-reduce verified; 1 bad
// input; 2 internal error; 3 an all-reduce failed (a wrong sum, or a deadlock).
int mttrain_main(int argc, char** argv, std::ostream& out, std::ostream& err);

}  // namespace mt::training
