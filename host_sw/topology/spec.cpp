// Topology spec strings: torus:4x4, mesh:8x8, ring:16 (each with ,failed=0-1+5-6 for failed
// links), fattree:8x2, bigraph:4x8, hier:3+4, file:x.json.
#include <algorithm>
#include <tuple>

#include <fmt/format.h>

#include "common/error.hpp"
#include "topology/topology.hpp"

namespace mt {
namespace {

uint32_t parse_count(const std::string& s, const std::string& spec) {
  if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos) {
    throw InputError(fmt::format("topology \"{}\": \"{}\" is not a positive integer size", spec, s));
  }
  constexpr uint32_t kMaxSize = uint32_t{1} << 24;  // a network's most nodes (builders.cpp)
  const size_t digits = s.size() - std::min(s.find_first_not_of('0'), s.size());
  if (digits > 9 || std::stoul(s) > kMaxSize) {
    throw InputError(fmt::format("topology \"{}\": size {} is out of range: a network has at "
                                 "most 2^24 = {} nodes, so no size may be larger", spec, s,
                                 kMaxSize));
  }
  const uint32_t v = static_cast<uint32_t>(std::stoul(s));
  if (v == 0) throw InputError(fmt::format("topology \"{}\": sizes must be >= 1", spec));
  return v;
}

std::pair<uint32_t, uint32_t> parse_pair(const std::string& s, const std::string& spec) {
  const size_t x = s.find('x');
  if (x == std::string::npos) {
    throw InputError(fmt::format("topology \"{}\": expected AxB after the colon", spec));
  }
  return {parse_count(s.substr(0, x), spec), parse_count(s.substr(x + 1), spec)};
}

// A spec string split into its kind and sizes (the sizes checked for syntax only).
struct Spec {
  std::string kind;
  uint32_t a = 0, b = 0;
  std::string path;  // file:
  std::vector<uint32_t> learners;  // hier: per machine
  uint32_t ratio = kHierDefaultRatio;
  std::vector<Topology::VertexPair> failed;  // torus, mesh, ring: failed=
};

// A grid's options after its size: ",failed=A-B+C-D+...", once. Returns the size part.
std::string parse_grid_options(const std::string& rest, const std::string& spec, Spec& s) {
  const size_t comma = rest.find(',');
  if (comma == std::string::npos) return rest;
  const std::string opt = rest.substr(comma + 1);
  if (opt.rfind("failed=", 0) != 0 || opt.find(',') != std::string::npos) {
    throw InputError(fmt::format("topology \"{}\": unknown option \"{}\" (failed=A-B+C-D+..., "
                                 "the links marked failed, once)", spec, opt));
  }
  s.failed = parse_failed_links(opt.substr(7), spec);
  return rest.substr(0, comma);
}

// hier:A+B+...[,ratio=R]: learners per machine, and the intra/inter bandwidth ratio.
void parse_hier(const std::string& rest, const std::string& spec, Spec& s) {
  std::string machines = rest;
  const size_t comma = rest.find(',');
  if (comma != std::string::npos) {
    machines = rest.substr(0, comma);
    const std::string opt = rest.substr(comma + 1);
    if (opt.rfind("ratio=", 0) != 0) {
      throw InputError(fmt::format("topology \"{}\": unknown option \"{}\" (ratio=R, the "
                                   "intra/inter bandwidth ratio)", spec, opt));
    }
    s.ratio = parse_count(opt.substr(6), spec);
  }
  if (machines.empty()) {
    throw InputError(fmt::format("topology \"{}\": no machines; expected learners per machine "
                                 "separated by '+', as in hier:3+4", spec));
  }
  size_t start = 0;
  while (true) {
    const size_t plus = machines.find('+', start);
    const std::string part = machines.substr(start, plus == std::string::npos ? plus : plus - start);
    const size_t m = s.learners.size();
    if (part.empty()) {
      throw InputError(fmt::format("topology \"{}\": machine {} has no learner count (an empty "
                                   "term between '+' signs)", spec, m));
    }
    if (part.find_first_not_of('0') == std::string::npos) {
      throw InputError(fmt::format("topology \"{}\": machine {} has 0 learners; every machine "
                                   "needs at least 1", spec, m));
    }
    s.learners.push_back(parse_count(part, spec));
    if (plus == std::string::npos) break;
    start = plus + 1;
  }
}

Spec split_spec(const std::string& spec) {
  const size_t colon = spec.find(':');
  if (colon == std::string::npos) {
    throw InputError(fmt::format("topology \"{}\": expected KIND:SIZE, one of torus:WxH, mesh:WxH, "
                                 "ring:N, fattree:MxL, bigraph:SxK, hier:A+B+..., file:PATH", spec));
  }
  Spec s;
  s.kind = spec.substr(0, colon);
  const std::string rest = spec.substr(colon + 1);
  if (s.kind == "torus" || s.kind == "mesh") {
    std::tie(s.a, s.b) = parse_pair(parse_grid_options(rest, spec, s), spec);
  } else if (s.kind == "ring") {
    s.a = parse_count(parse_grid_options(rest, spec, s), spec);
  } else if (s.kind == "fattree" || s.kind == "bigraph") {
    if (rest.find(',') != std::string::npos) {
      throw InputError(fmt::format("topology \"{}\": {} takes no options (mark failed links "
                                   "in a file: a link's \"failed\" field)", spec, s.kind));
    }
    std::tie(s.a, s.b) = parse_pair(rest, spec);
  } else if (s.kind == "hier") {
    parse_hier(rest, spec, s);
  } else if (s.kind == "file") {
    if (rest.empty()) throw InputError("topology \"file:\": missing path");
    s.path = rest;
  } else {
    throw InputError(fmt::format("topology \"{}\": unknown kind \"{}\" (torus, mesh, ring, "
                                 "fattree, bigraph, hier, file)", spec, s.kind));
  }
  return s;
}

// A grid's spec with its failed links, in the order parse_failed_links gives them.
std::string failed_grid_spec(const std::string& grid, const Spec& s) {
  return fmt::format("{},failed={}", grid, failed_links_text(s.failed));
}

Topology grid_with_failures(Topology grid, const Spec& s) {
  if (s.failed.empty()) return grid;
  return without_links(grid, s.failed, failed_grid_spec(grid.spec(), s));
}

std::optional<TopologySize> grid_size_with_failures(TopologyKind kind, const Spec& s) {
  const uint32_t h = kind == TopologyKind::kRing ? 1 : s.b;
  const TopologySize size = grid_size(kind, s.a, h);
  if (s.failed.empty()) return size;
  return failed_grid_size(size, s.failed, failed_grid_spec(grid_spec(kind, s.a, h), s));
}

}  // namespace

Topology parse_topology(const std::string& spec) {
  const Spec s = split_spec(spec);
  if (s.kind == "torus") return grid_with_failures(make_torus(s.a, s.b), s);
  if (s.kind == "mesh") return grid_with_failures(make_mesh(s.a, s.b), s);
  if (s.kind == "ring") return grid_with_failures(make_ring(s.a), s);
  if (s.kind == "fattree") return make_fattree(s.a, s.b);
  if (s.kind == "bigraph") return make_bigraph(s.a, s.b);
  if (s.kind == "hier") return make_hier(s.learners, s.ratio);
  return load_topology_file(s.path);
}

std::optional<TopologySize> topology_size(const std::string& spec) {
  const Spec s = split_spec(spec);
  if (s.kind == "torus") return grid_size_with_failures(TopologyKind::kTorus, s);
  if (s.kind == "mesh") return grid_size_with_failures(TopologyKind::kMesh, s);
  if (s.kind == "ring") return grid_size_with_failures(TopologyKind::kRing, s);
  if (s.kind == "fattree") return fattree_size(s.a, s.b);
  if (s.kind == "bigraph") return bigraph_size(s.a, s.b);
  if (s.kind == "hier") return hier_size(s.learners, s.ratio);
  return std::nullopt;
}

}  // namespace mt
