// libFuzzer entry point of the topology target (targets.hpp).
#include "targets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  mt::fuzz::topology(data, size);
  return 0;
}
