// libFuzzer entry point of the manifest target (targets.hpp).
#include "targets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  mt::fuzz::manifest(data, size);
  return 0;
}
