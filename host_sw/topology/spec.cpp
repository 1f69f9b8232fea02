// Topology spec strings: torus:4x4, mesh:8x8, ring:16, fattree:8x2, bigraph:4x8, file:x.json.
#include <fmt/format.h>

#include "common/error.hpp"
#include "topology/topology.hpp"

namespace mt {
namespace {

uint32_t parse_count(const std::string& s, const std::string& spec) {
  if (s.empty() || s.size() > 9 || s.find_first_not_of("0123456789") != std::string::npos) {
    throw InputError(fmt::format("topology \"{}\": \"{}\" is not a positive integer size", spec, s));
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

}  // namespace

Topology parse_topology(const std::string& spec) {
  const size_t colon = spec.find(':');
  if (colon == std::string::npos) {
    throw InputError(fmt::format("topology \"{}\": expected KIND:SIZE, one of torus:WxH, mesh:WxH, "
                                 "ring:N, fattree:MxL, bigraph:SxK, file:PATH", spec));
  }
  const std::string kind = spec.substr(0, colon);
  const std::string rest = spec.substr(colon + 1);
  if (kind == "torus") {
    auto [w, h] = parse_pair(rest, spec);
    return make_torus(w, h);
  }
  if (kind == "mesh") {
    auto [w, h] = parse_pair(rest, spec);
    return make_mesh(w, h);
  }
  if (kind == "ring") return make_ring(parse_count(rest, spec));
  if (kind == "fattree") {
    auto [m, l] = parse_pair(rest, spec);
    return make_fattree(m, l);
  }
  if (kind == "bigraph") {
    auto [s, k] = parse_pair(rest, spec);
    return make_bigraph(s, k);
  }
  if (kind == "file") {
    if (rest.empty()) throw InputError("topology \"file:\": missing path");
    return load_topology_file(rest);
  }
  throw InputError(fmt::format("topology \"{}\": unknown kind \"{}\" (torus, mesh, ring, fattree, "
                               "bigraph, file)", spec, kind));
}

}  // namespace mt
