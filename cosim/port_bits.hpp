// A field of bits [lsb, lsb + width) in a Verilated port narrower than 64 bits (a C++ integer
// of 8, 16, 32 or 64 bits; width < 64): the per-port slices of the NI's packed pins.
#pragma once

#include <cstdint>

namespace mt::cosim {

// Writes the low `width` bits of `v` into the field; the port's other bits stay.
template <class T>
void put(T& port, uint32_t lsb, uint32_t width, uint64_t v) {
  const uint64_t mask = ((uint64_t{1} << width) - 1) << lsb;
  port = static_cast<T>((static_cast<uint64_t>(port) & ~mask) | ((v << lsb) & mask));
}

template <class T>
uint32_t get(T port, uint32_t lsb, uint32_t width) {
  return static_cast<uint32_t>((static_cast<uint64_t>(port) >> lsb) & ((uint64_t{1} << width) - 1));
}

}  // namespace mt::cosim
