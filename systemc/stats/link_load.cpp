#include "stats/link_load.hpp"

#include <stdexcept>

#include "network/network.hpp"

namespace mt::noc {

std::vector<uint64_t> link_flits(const Network& net) {
  const Topology& topo = net.topology();
  std::vector<uint64_t> v(topo.links().size());
  for (uint32_t l = 0; l < v.size(); ++l) {
    v[l] = net.flits_out(topo.links()[l].src, net.layout().out_port(l));
  }
  return v;
}

std::vector<LinkLoad> link_loads(const Network& net, const std::vector<uint64_t>& before,
                                 const std::vector<uint64_t>& after, uint64_t cycles) {
  const Topology& topo = net.topology();
  const size_t links = topo.links().size();
  if (before.size() != links || after.size() != links) {
    throw std::invalid_argument("link_loads: snapshot size does not match the network");
  }
  std::vector<LinkLoad> out;
  out.reserve(links);
  for (uint32_t id = 0; id < links; ++id) {
    LinkLoad l;
    l.router = topo.links()[id].src;
    l.port = net.router(l.router).port_label(net.layout().out_port(id));
    l.to = topo.links()[id].dst;
    l.flits = after[id] - before[id];
    l.utilisation = cycles == 0 ? 0.0 : static_cast<double>(l.flits) / static_cast<double>(cycles);
    out.push_back(l);
  }
  return out;
}

nlohmann::json to_json(const LinkLoad& l) {
  return {{"router", l.router}, {"port", l.port}, {"to", l.to}, {"flits", l.flits},
          {"utilisation", l.utilisation}};
}

LinkLoad link_load_from_json(const nlohmann::json& j) {
  LinkLoad l;
  l.router = j.at("router").get<uint32_t>();
  l.port = j.at("port").get<std::string>();
  l.to = j.at("to").get<uint32_t>();
  l.flits = j.at("flits").get<uint64_t>();
  l.utilisation = j.at("utilisation").get<double>();
  return l;
}

}  // namespace mt::noc
