// Synthetic traffic patterns (Dally & Towles ch. 3; BookSim's names): where a packet from node
// `src` of a W x H grid goes. Nodes are numbered id = y * W + x as in host_sw topologies.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "topology/topology.hpp"

namespace mt::noc {

enum class PatternKind { kUniform, kTranspose, kBitComplement, kNeighbor, kHotspot };

struct Pattern {
  PatternKind kind = PatternKind::kUniform;
  // Hotspot: each packet goes to `hotspot_node` with probability `hotspot_fraction`, otherwise
  // to a uniformly random other node (which may again be the hotspot). The hotspot node itself
  // sends uniform traffic. A fraction, not "every node sends only to the hotspot", so one
  // pattern covers both a mild hotspot and (fraction 1) pure incast.
  uint32_t hotspot_node = 0;
  double hotspot_fraction = 0.1;
};

// "uniform", "transpose", "bitcomp", "neighbor" or "hotspot" (also "bit-complement",
// "neighbour"); throws InputError listing the valid names otherwise.
PatternKind parse_pattern(const std::string& name);
const char* pattern_name(PatternKind kind);

// Throws InputError when the pattern makes no sense on a W x H grid: transpose needs W == H,
// bit-complement a power-of-two node count, every pattern at least two nodes, hotspot a node
// in range and a fraction in [0, 1].
void check_pattern(const Pattern& p, uint32_t width, uint32_t height);

// The W x H grid a pattern sees on a topology: a torus's, mesh's or ring's own; a switch
// network's nodes in one row (N x 1: transpose needs a square and is refused there).
std::pair<uint32_t, uint32_t> pattern_shape(const Topology& topo);

// The destination of the next packet from src (check_pattern must have passed). Uniform never
// returns src; transpose returns src for the diagonal nodes (BookSim does the same: those
// packets loop back through the local router).
uint32_t destination(const Pattern& p, uint32_t src, uint32_t width, uint32_t height,
                     std::mt19937_64& rng);

// The exact distribution destination() draws from: (node, probability) pairs, for zero-load
// estimates and tests.
std::vector<std::pair<uint32_t, double>> destination_distribution(const Pattern& p, uint32_t src,
                                                                  uint32_t width, uint32_t height);

}  // namespace mt::noc
