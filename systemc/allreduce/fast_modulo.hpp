// x % d for a divisor fixed at run time, without a divide: a Barrett reduction with
// M = floor((2^64 - 1) / d). A 64-bit `div` costs tens of core cycles; this costs two
// multiplies, which matters where a value is drawn per element of a buffer (gradient_data.cpp).
//
// Why one correction is enough, for every 64-bit x and every d >= 1: M d >= 2^64 - d, so
// x M / 2^64 >= x / d - x / 2^64 > x / d - 1; and M d < 2^64, so x M / 2^64 <= x / d. The
// estimate q = floor(x M / 2^64) is therefore floor(x / d) or one less, and x - q d (at most
// x: no overflow) is the remainder or the remainder plus d.
#pragma once

#include <cstdint>
#include <stdexcept>

namespace mt::noc {

class FastModulo {
 public:
  // Throws std::invalid_argument for d = 0 (d = 1 gives 0 for every x, as % does).
  explicit FastModulo(uint64_t d) : d_(d) {
    if (d == 0) throw std::invalid_argument("FastModulo: divisor 0");
    m_ = ~uint64_t{0} / d;
  }

  uint64_t divisor() const { return d_; }
  uint64_t operator()(uint64_t x) const {
    const uint64_t q = static_cast<uint64_t>((static_cast<U128>(x) * m_) >> 64);
    const uint64_t r = x - q * d_;
    return r >= d_ ? r - d_ : r;
  }

 private:
  __extension__ typedef unsigned __int128 U128;  // GCC/Clang extension, as in vc_mask.hpp
  uint64_t d_;
  uint64_t m_;
};

}  // namespace mt::noc
