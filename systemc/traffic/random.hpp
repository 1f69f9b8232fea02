// Portable random draws for traffic generation. std::mt19937_64's sequence is fixed by the
// standard but the std:: distributions are not, so the draws are written out here: the same
// seed gives the same traffic with any standard library.
#pragma once

#include <cstdint>
#include <random>

namespace mt::noc {

// The seed of node n's generator, well mixed so neighbouring nodes get unrelated streams.
uint64_t node_seed(uint64_t seed, uint32_t node);

// Uniform in [0, n), n >= 1, without modulo bias.
uint64_t uniform_below(std::mt19937_64& rng, uint64_t n);

// Uniform in [0, 1) with 53 random bits.
double uniform01(std::mt19937_64& rng);

}  // namespace mt::noc
