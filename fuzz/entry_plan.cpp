// libFuzzer entry point of the plan target (targets.hpp).
#include "targets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  mt::fuzz::plan(data, size);
  return 0;
}
