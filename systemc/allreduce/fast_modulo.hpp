// x % d for a divisor fixed at run time, without a divide: Lemire, Kaser and Kurz, "Faster
// Remainder by Direct Computation" (2019), with a 128-bit M = ceil(2^128 / d). Their theorem
// gives the exact remainder for every 64-bit x and every divisor below 2^64 (F = 128 bits of M
// >= N + log2(d) with N = 64). A 64-bit `div` costs tens of core cycles; this costs three
// multiplies, which matters where a value is drawn per element of a buffer (gradient_data.cpp).
#pragma once

#include <cstdint>
#include <stdexcept>

namespace mt::noc {

class FastModulo {
 public:
  // Throws std::invalid_argument for d = 0 (d = 1 gives 0 for every x, as % does).
  explicit FastModulo(uint64_t d) : d_(d) {
    if (d == 0) throw std::invalid_argument("FastModulo: divisor 0");
    m_ = ~U128{0} / d + 1;
  }

  uint64_t divisor() const { return d_; }
  // x % divisor(): the high 64 bits of ((m * x) mod 2^128) * d.
  uint64_t operator()(uint64_t x) const {
    const U128 low = m_ * x;
    const U128 bottom = (static_cast<U128>(static_cast<uint64_t>(low)) * d_) >> 64;
    const U128 top = static_cast<U128>(static_cast<uint64_t>(low >> 64)) * d_;
    return static_cast<uint64_t>((bottom + top) >> 64);
  }

 private:
  __extension__ typedef unsigned __int128 U128;  // GCC/Clang extension, as in vc_mask.hpp
  uint64_t d_;
  U128 m_;
};

}  // namespace mt::noc
