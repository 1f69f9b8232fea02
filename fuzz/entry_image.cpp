// libFuzzer entry point of the image target (targets.hpp).
#include "targets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  mt::fuzz::image(data, size);
  return 0;
}
