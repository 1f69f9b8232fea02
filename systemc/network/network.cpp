#include "network/network.hpp"

#include <unistd.h>

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "common/error.hpp"
#include "flit/source_route.hpp"
#include "network/switch_routing.hpp"

namespace mt::noc {

void check_network_fits(const std::string& spec, uint64_t routers, uint64_t bytes_each) {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0) return;
  const double physical = static_cast<double>(pages) * static_cast<double>(page);
  const double need = static_cast<double>(routers) * static_cast<double>(bytes_each);
  if (need > physical / 2) {
    throw InputError(fmt::format(
        "topology {}: simulating {} routers needs about {:.1f} GiB of memory; this machine has "
        "{:.1f} GiB", spec, routers, need / double(1ull << 30), physical / double(1ull << 30)));
  }
}
Network::Network(sc_core::sc_module_name name, const Topology& topo, const NocConfig& cfg)
    : sc_module(name), topo_(topo), cfg_(cfg), scheduler_("scheduler", cfg.clock_ps) {
  cfg.validate();
  // A head flit names nodes in its Src and Dest fields (format/README.md).
  constexpr uint64_t kNodeCodes = uint64_t{1} << format::flit::kHeadSrc.bits;
  if (topo.nodes() > kNodeCodes) {
    throw InputError(fmt::format("network {}: {} nodes; a head flit's Src and Dest fields name "
                                 "at most {}", topo.spec(), topo.nodes(), kNodeCodes));
  }
  shared_.watchdog_event = &watchdog_event_;
  shared_.scheduler = &scheduler_;
  layout_ = std::make_unique<PortLayout>(topo, cfg.ni_ports);
  for (uint32_t v = 0; v < layout_->routers(); ++v) {
    const size_t ports = layout_->neighbours(v).size();
    if (ports > max_router_ports(cfg.vcs)) {
      // Named as the topology names it: a file's "s<id>" is switch id, vertex nodes + id.
      const std::string router = v < topo.nodes() ? fmt::format("node {}'s router", v)
                                                  : fmt::format("switch {}", v - topo.nodes());
      throw InputError(fmt::format(
          "network {}: {} has {} ports; a router with {} VCs has at most {} (its VC "
          "masks hold {} VCs), with 2 VCs {}", topo.spec(), router, ports, cfg.vcs,
          max_router_ports(cfg.vcs), kVcMaskBits, max_router_ports(2)));
    }
  }
  if (!is_grid(topo)) {
    switch_routes_ = std::make_unique<SwitchRoutes>(build_switch_routes(topo, *layout_, cfg.vcs));
  }
  const uint32_t n = layout_->routers();
  routers_.reserve(n);
  for (uint32_t v = 0; v < n; ++v) {
    RouterSpec spec;
    spec.vertex = v;
    spec.neighbour = layout_->neighbours(v);
    if (switch_routes_) {
      spec.switch_routes = switch_routes_.get();
    } else {
      spec.place = grid_place(topo, v);
      spec.step_port = grid_step_ports(spec.place, v, spec.neighbour);
    }
    spec.port_latency = port_latencies(v);
    const char* what = topo.is_switch(v) ? "switch" : "router";
    routers_.push_back(std::make_unique<Router>(fmt::format("{}_{}", what, v).c_str(), spec,
                                                cfg, &shared_));
  }
  // Link l leaves its source by out_port(l) and enters its destination by in_port(l).
  for (uint32_t l = 0; l < topo.links().size(); ++l) {
    const Link& k = topo.links()[l];
    routers_[k.src]->out(layout_->out_port(l)).bind(routers_[k.dst]->in(layout_->in_port(l)));
  }

  SC_METHOD(watchdog_check);
  sensitive << watchdog_event_;
  dont_initialize();
}

Network::~Network() = default;

uint8_t Network::local_port_code(const char* what, uint32_t node, uint32_t port_index) const {
  if (port_index >= cfg_.ni_ports) {
    throw InputError(fmt::format("network: {}({}, {}): port index must be below ni_ports = {}",
                                 what, node, port_index, cfg_.ni_ports));
  }
  return local_port(port_index);
}

tlm::tlm_target_socket<kFlitBits, FlitProtocol>& Network::inject(uint32_t node,
                                                                 uint32_t port_index) {
  return routers_.at(node)->in(local_port_code("inject", node, port_index));
}

tlm::tlm_initiator_socket<kFlitBits, FlitProtocol>& Network::eject(uint32_t node,
                                                                   uint32_t port_index) {
  return routers_.at(node)->out(local_port_code("eject", node, port_index));
}

void Network::set_priority(std::function<uint32_t(const Flit&)> priority) {
  shared_.priority = std::move(priority);
}

uint32_t Network::routers() const { return static_cast<uint32_t>(routers_.size()); }

uint64_t Network::flits_out(uint32_t router, uint8_t port) const {
  if (port >= routers_.at(router)->ports()) {
    throw std::out_of_range(fmt::format("flits_out: router {} port {}", router, port));
  }
  return routers_.at(router)->flits_out(port);
}

uint32_t Network::source_route(const std::vector<uint32_t>& links, const std::string& what) {
  if (!switch_routes_) throw std::logic_error("source_route: not a switch network");
  const uint32_t turns = route_turns(topo_, *switch_routes_, links);
  if (!switch_routes_->allow_classes(turns + 1)) {
    throw InputError(fmt::format(
        "network {}: {} turns from a down switch-to-switch link to an up one {} times, each "
        "turn a VC class of its own (deadlock freedom); {} VCs are too few", topo_.spec(), what,
        turns, cfg_.vcs));
  }
  return encode_route(path_hops(topo_, *layout_, links), what);
}

uint32_t Network::table_route(uint32_t src, uint32_t dst) const {
  if (!switch_routes_) throw std::logic_error("table_route: not a switch network");
  return encode_route(table_path_hops(topo_, *switch_routes_, *layout_, src, dst),
                      fmt::format("the route from node {} to node {}", src, dst));
}

uint32_t Network::table_first_hop(uint32_t src, uint32_t dst) const {
  if (!switch_routes_) throw std::logic_error("table_first_hop: not a switch network");
  return encode_route({{src, switch_routes_->port(src, dst)}},
                      fmt::format("the first hop from node {} to node {}", src, dst));
}

uint32_t Network::encode_route(const std::vector<PathHop>& path, const std::string& what) const {
  std::vector<RouteHop> hops;
  for (const PathHop& h : path) hops.push_back({h.port, &routers_.at(h.vertex)->hop_code()});
  return encode_source_route(hops, what);
}

std::vector<uint32_t> Network::port_latencies(uint32_t v) const {
  std::vector<uint32_t> latency;
  if (!topo_.has_link_latencies()) return latency;
  latency.assign(layout_->neighbours(v).size(), 0);
  for (uint32_t l : topo_.out_links(v)) latency.at(layout_->out_port(l)) = topo_.link_latency(l);
  return latency;
}

uint64_t Network::lookahead() const {
  const uint64_t flit = uint64_t{cfg_.st_delay} + 1 + cfg_.link_latency;
  uint64_t fewest = std::min<uint64_t>(flit, cfg_.credit_latency);
  if (topo_.has_link_latencies()) {
    // A link of its own latency L: flits after st_delay + 1 + L, credits after L.
    bool any_default = false;
    fewest = UINT64_MAX;
    for (uint32_t l = 0; l < topo_.links().size(); ++l) {
      const uint32_t own = topo_.link_latency(l);
      any_default = any_default || own == 0;
      if (own != 0) fewest = std::min<uint64_t>(fewest, own);
    }
    if (any_default) fewest = std::min<uint64_t>(fewest, std::min<uint64_t>(flit, cfg_.credit_latency));
  }
  return std::max<uint64_t>(1, fewest);
}

std::vector<uint8_t> Network::group_colours() const {
  constexpr uint8_t kNone = 2;
  const uint32_t n = layout_->routers();
  std::vector<uint8_t> colour(n, kNone);
  std::vector<uint32_t> stack;
  for (uint32_t root = 0; root < n; ++root) {
    if (colour[root] != kNone) continue;
    colour[root] = 0;
    stack.push_back(root);
    while (!stack.empty()) {
      const uint32_t v = stack.back();
      stack.pop_back();
      for (const uint32_t w : layout_->neighbours(v)) {
        if (w == v || w == kNoNeighbour) continue;  // a local (NI) port, an unused code
        if (colour[w] == colour[v]) return {};
        if (colour[w] == kNone) {
          colour[w] = static_cast<uint8_t>(1 - colour[v]);
          stack.push_back(w);
        }
      }
    }
  }
  return colour;
}

uint64_t Network::longest_link_latency() const {
  uint64_t longest = std::max(cfg_.link_latency, cfg_.credit_latency);
  if (!topo_.has_link_latencies()) return longest;
  longest = 0;
  for (uint32_t l = 0; l < topo_.links().size(); ++l) {
    const uint32_t own = topo_.link_latency(l);
    longest = std::max<uint64_t>(longest, own != 0 ? own
                                                   : std::max(cfg_.link_latency, cfg_.credit_latency));
  }
  return longest;
}

uint64_t Network::router_cycles() const {
  uint64_t n = 0;
  for (const auto& r : routers_) n += r->evaluations();
  return n;
}

uint32_t Network::max_vc_occupancy() const {
  uint32_t m = 0;
  for (const auto& r : routers_) m = std::max(m, r->max_vc_occupancy());
  return m;
}

uint64_t Network::flits_buffered() const {
  uint64_t n = 0;
  for (const auto& r : routers_) n += r->buffered_flits();
  return n;
}

uint64_t Network::flits_moved() const {
  uint64_t n = 0;
  for (const auto& r : routers_) n += r->flits_out_total();
  return n;
}

std::string Network::state_report() const {
  std::string s;
  for (const auto& r : routers_) s += r->state_report();
  return s;
}

void Network::set_watchdog(uint64_t stall_cycles) {
  shared_.watchdog_cycles = stall_cycles;
}

void Network::watchdog_check() {
  const uint64_t cycle =
      sc_core::sc_time_stamp().value() /
      sc_core::sc_time(static_cast<double>(cfg_.clock_ps), sc_core::SC_PS).value();
  const uint64_t buffered = flits_buffered();
  if (buffered == 0 || shared_.watchdog_cycles == 0) {
    shared_.watchdog_armed = false;  // the next injected flit re-arms it
    watchdog_fresh_ = true;
    return;
  }
  const uint64_t moved = flits_moved();
  if (!watchdog_fresh_ && moved == watchdog_moved_) {
    stall_report_ = fmt::format(
        "{}: no router sent a flit in the {} cycles up to cycle {}; {} flit(s) stuck:\n{}",
        name(), shared_.watchdog_cycles, cycle, buffered, state_report());
    SC_REPORT_WARNING("mt/noc/watchdog", stall_report_.c_str());
    shared_.watchdog_armed = false;
    sc_core::sc_stop();
    return;
  }
  watchdog_fresh_ = false;
  watchdog_moved_ = moved;
  watchdog_event_.notify(sc_core::sc_time(
      static_cast<double>(cfg_.clock_ps * shared_.watchdog_cycles), sc_core::SC_PS));
}

}  // namespace mt::noc
