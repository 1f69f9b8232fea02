// x % d for a divisor fixed at run time, without a divide, in two forms: FastModulo for any
// 64-bit divisor, and VectorModulo for divisors below 2^25 in arithmetic a vector unit has.
// A 64-bit `div` costs tens of core cycles; these cost a few multiplies, which matters where a
// value is drawn per element of a buffer (gradient_data.cpp).
//
// FastModulo is a Barrett reduction with M = floor((2^64 - 1) / d). Why one correction is
// enough, for every 64-bit x and every d >= 1: M d >= 2^64 - d, so x M / 2^64 >= x / d -
// x / 2^64 > x / d - 1; and M d < 2^64, so x M / 2^64 <= x / d. The estimate q = floor(x M /
// 2^64) is therefore floor(x / d) or one less, and x - q d (at most x: no overflow) is the
// remainder or the remainder plus d.
//
// VectorModulo needs no 128-bit product, which no vector unit has, so a loop of remainders
// vectorises (AVX-512: 64-bit products and int64 <-> double conversions). Why it is exact, for
// every 64-bit x and every 1 <= d < 2^25: x's 24-bit digits give y = x0 + x1 c1 + x2 c2 with
// c1 = 2^24 mod d and c2 = 2^48 mod d, so y = x (mod d), and y < 2^24 + 2^24 2^25 + 2^16 2^25
// < 2^50. In double, y is exact (below 2^53) and fl(y fl(1/d)) = (y / d)(1 + e) with
// |e| < 2^-52 + 2^-105: an absolute error below 2^50 (2^-52 + 2^-105) < 1/2, so q = trunc of
// it is floor(y / d) or one off either way, r = y - q d (|q d| < 2^51) lies in [-d, 2d), and
// one correction each way gives y mod d = x mod d.
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

class VectorModulo {
 public:
  static constexpr uint64_t kDivisorLimit = uint64_t{1} << 25;  // divisors are below it

  // Throws std::invalid_argument for d = 0 or d >= kDivisorLimit.
  explicit VectorModulo(uint64_t d)
      : d_(static_cast<int64_t>(valid(d))),
        c1_(static_cast<int64_t>((uint64_t{1} << 24) % d)),
        c2_(static_cast<int64_t>((uint64_t{1} << 48) % d)),
        inverse_(1.0 / static_cast<double>(d)) {}

  uint64_t divisor() const { return static_cast<uint64_t>(d_); }
  uint64_t operator()(uint64_t x) const {
    constexpr uint64_t kDigit = (uint64_t{1} << 24) - 1;
    const int64_t y = static_cast<int64_t>(x & kDigit) +
                      static_cast<int64_t>((x >> 24) & kDigit) * c1_ +
                      static_cast<int64_t>(x >> 48) * c2_;
    const auto q = static_cast<int64_t>(static_cast<double>(y) * inverse_);
    int64_t r = y - q * d_;
    r += r < 0 ? d_ : 0;
    r -= r >= d_ ? d_ : 0;
    return static_cast<uint64_t>(r);
  }

 private:
  static uint64_t valid(uint64_t d) {
    if (d == 0 || d >= kDivisorLimit) {
      throw std::invalid_argument("VectorModulo: divisor 0 or not below 2^25");
    }
    return d;
  }

  int64_t d_;  // first: the members after it divide by it
  int64_t c1_, c2_;  // 2^24 and 2^48 mod d
  double inverse_;   // 1 / d, rounded
};

}  // namespace mt::noc
