#include "traffic/random.hpp"

#include <limits>

namespace mt::noc {
namespace {

// SplitMix64 finaliser (Steele, Lea, Flood 2014): one bit of input flips about half the output.
uint64_t mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

}  // namespace

uint64_t node_seed(uint64_t seed, uint32_t node) {
  return mix(mix(seed) + 0x9e3779b97f4a7c15ull * (static_cast<uint64_t>(node) + 1));
}

uint64_t uniform_below(std::mt19937_64& rng, uint64_t n) {
  // Reject the top partial block so every residue is equally likely.
  const uint64_t max = std::numeric_limits<uint64_t>::max();
  const uint64_t limit = max - (max % n + 1) % n;  // largest multiple of n, minus one
  uint64_t x = rng();
  while (x > limit) x = rng();
  return x % n;
}

double uniform01(std::mt19937_64& rng) {
  return static_cast<double>(rng() >> 11) * (1.0 / 9007199254740992.0);  // 2^-53
}

}  // namespace mt::noc
