#include "traffic/pattern.hpp"

#include <fmt/format.h>

#include "common/error.hpp"
#include "traffic/random.hpp"

namespace mt::noc {
namespace {

uint32_t uniform_other(uint32_t src, uint32_t nodes, std::mt19937_64& rng) {
  // Draw among the nodes - 1 others and skip over src.
  const auto d = static_cast<uint32_t>(uniform_below(rng, nodes - 1));
  return d >= src ? d + 1 : d;
}

}  // namespace

PatternKind parse_pattern(const std::string& name) {
  if (name == "uniform") return PatternKind::kUniform;
  if (name == "transpose") return PatternKind::kTranspose;
  if (name == "bitcomp" || name == "bit-complement") return PatternKind::kBitComplement;
  if (name == "neighbor" || name == "neighbour") return PatternKind::kNeighbor;
  if (name == "hotspot") return PatternKind::kHotspot;
  throw InputError(fmt::format(
      "unknown traffic pattern \"{}\": use uniform, transpose, bitcomp, neighbor or hotspot", name));
}

const char* pattern_name(PatternKind kind) {
  switch (kind) {
    case PatternKind::kUniform: return "uniform";
    case PatternKind::kTranspose: return "transpose";
    case PatternKind::kBitComplement: return "bitcomp";
    case PatternKind::kNeighbor: return "neighbor";
    case PatternKind::kHotspot: return "hotspot";
  }
  return "?";
}

std::pair<uint32_t, uint32_t> pattern_shape(const Topology& topo) {
  if (topo.width() != 0) return {topo.width(), topo.height()};
  return {topo.nodes(), 1};
}

void check_pattern(const Pattern& p, uint32_t width, uint32_t height) {
  const uint64_t nodes = static_cast<uint64_t>(width) * height;
  const char* name = pattern_name(p.kind);
  if (nodes < 2) throw InputError(fmt::format("{} traffic needs at least 2 nodes", name));
  switch (p.kind) {
    case PatternKind::kUniform:
      break;
    case PatternKind::kTranspose:
      if (width != height) {
        throw InputError(fmt::format(
            "transpose traffic needs a square network ((x, y) -> (y, x)); this one is {}x{}",
            width, height));
      }
      break;
    case PatternKind::kBitComplement:
      if ((nodes & (nodes - 1)) != 0) {
        throw InputError(fmt::format(
            "bit-complement traffic needs a power-of-two node count; this network has {}", nodes));
      }
      break;
    case PatternKind::kNeighbor:
      if (width < 2) {
        throw InputError("neighbor traffic ((x + 1) mod W, y) needs a network at least 2 wide");
      }
      break;
    case PatternKind::kHotspot:
      if (p.hotspot_node >= nodes) {
        throw InputError(fmt::format("hotspot node {} is not in the network (nodes 0..{})",
                                     p.hotspot_node, nodes - 1));
      }
      if (!(p.hotspot_fraction >= 0.0 && p.hotspot_fraction <= 1.0)) {
        throw InputError(
            fmt::format("hotspot fraction {} must be between 0 and 1", p.hotspot_fraction));
      }
      break;
  }
}

uint32_t destination(const Pattern& p, uint32_t src, uint32_t width, uint32_t height,
                     std::mt19937_64& rng) {
  const uint32_t nodes = width * height;
  const uint32_t x = src % width, y = src / width;
  switch (p.kind) {
    case PatternKind::kUniform:
      return uniform_other(src, nodes, rng);
    case PatternKind::kTranspose:
      return x * width + y;  // (x, y) -> (y, x): new id = x * W + y on a square grid
    case PatternKind::kBitComplement:
      return ~src & (nodes - 1);
    case PatternKind::kNeighbor:
      return y * width + (x + 1) % width;
    case PatternKind::kHotspot: {
      // Always two draws, so the stream does not depend on which branch was taken.
      const bool hot = uniform01(rng) < p.hotspot_fraction;
      const uint32_t other = uniform_other(src, nodes, rng);
      return hot && src != p.hotspot_node ? p.hotspot_node : other;
    }
  }
  return src;
}

std::vector<std::pair<uint32_t, double>> destination_distribution(const Pattern& p, uint32_t src,
                                                                  uint32_t width,
                                                                  uint32_t height) {
  const uint32_t nodes = width * height;
  std::vector<std::pair<uint32_t, double>> out;
  auto uniform = [&](double weight) {
    for (uint32_t d = 0; d < nodes; ++d) {
      if (d != src) out.emplace_back(d, weight / (nodes - 1));
    }
  };
  if (p.kind == PatternKind::kUniform) {
    uniform(1.0);
  } else if (p.kind == PatternKind::kHotspot) {
    if (src == p.hotspot_node) {
      uniform(1.0);
    } else {
      uniform(1.0 - p.hotspot_fraction);
      for (auto& [d, w] : out) {
        if (d == p.hotspot_node) w += p.hotspot_fraction;
      }
    }
  } else {
    std::mt19937_64 unused;  // deterministic patterns draw nothing
    out.emplace_back(destination(p, src, width, height, unused), 1.0);
  }
  return out;
}

}  // namespace mt::noc
