#include "stats/link_load.hpp"

#include <stdexcept>

#include "flit/flit.hpp"

namespace mt::noc {

uint32_t port_neighbour(const Topology& topo, uint32_t router, uint8_t port) {
  const uint32_t w = topo.width(), h = topo.height();
  const uint32_t x = router % w, y = router / w;
  const bool wraps = topo.wraps();
  switch (port) {
    case kPortXPlus:
      if (w < 2 || (!wraps && x + 1 == w)) return Topology::kNoLink;
      return y * w + (x + 1) % w;
    case kPortXMinus:
      if (w < 2 || (!wraps && x == 0)) return Topology::kNoLink;
      return y * w + (x + w - 1) % w;
    case kPortYPlus:
      if (h < 2 || (!wraps && y + 1 == h)) return Topology::kNoLink;
      return ((y + 1) % h) * w + x;
    case kPortYMinus:
      if (h < 2 || (!wraps && y == 0)) return Topology::kNoLink;
      return ((y + h - 1) % h) * w + x;
    default:
      return Topology::kNoLink;
  }
}

std::vector<LinkLoad> link_loads(const Topology& topo, const std::vector<uint64_t>& before,
                                 const std::vector<uint64_t>& after, uint64_t cycles) {
  const size_t slots = static_cast<size_t>(topo.nodes()) * kPorts;
  if (before.size() != slots || after.size() != slots) {
    throw std::invalid_argument("link_loads: snapshot size does not match the network");
  }
  std::vector<LinkLoad> out;
  for (uint32_t r = 0; r < topo.nodes(); ++r) {
    for (uint8_t p = 1; p < kPorts; ++p) {
      const uint32_t to = port_neighbour(topo, r, p);
      if (to == Topology::kNoLink) continue;
      const size_t i = static_cast<size_t>(r) * kPorts + p;
      LinkLoad l;
      l.router = r;
      l.port = p;
      l.to = to;
      l.flits = after[i] - before[i];
      l.utilisation = cycles == 0 ? 0.0 : static_cast<double>(l.flits) / static_cast<double>(cycles);
      out.push_back(l);
    }
  }
  return out;
}

nlohmann::json to_json(const LinkLoad& l) {
  return {{"router", l.router}, {"port", port_name(l.port)}, {"to", l.to}, {"flits", l.flits},
          {"utilisation", l.utilisation}};
}

LinkLoad link_load_from_json(const nlohmann::json& j) {
  LinkLoad l;
  l.router = j.at("router").get<uint32_t>();
  const std::string port = j.at("port").get<std::string>();
  for (uint8_t p = 0; p < kPorts; ++p) {
    if (port == port_name(p)) l.port = p;
  }
  l.to = j.at("to").get<uint32_t>();
  l.flits = j.at("flits").get<uint64_t>();
  l.utilisation = j.at("utilisation").get<double>();
  return l;
}

}  // namespace mt::noc
