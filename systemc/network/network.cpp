#include "network/network.hpp"

#include <unistd.h>

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "common/error.hpp"

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
namespace {

const char* kind_name(TopologyKind k) {
  switch (k) {
    case TopologyKind::kTorus: return "torus";
    case TopologyKind::kMesh: return "mesh";
    case TopologyKind::kRing: return "ring";
    case TopologyKind::kFatTree: return "fat-tree";
    case TopologyKind::kBiGraph: return "BiGraph";
    case TopologyKind::kFile: return "file";
  }
  return "?";
}

// The port of node `a` whose link leads to its grid neighbour `b`, from their coordinates. In
// a dimension of size 2 the single link is + when b's coordinate is larger.
uint8_t port_toward(const Topology& t, uint32_t a, uint32_t b) {
  const uint32_t w = t.width(), h = t.height();
  const uint32_t ax = t.x_of(a), ay = t.y_of(a), bx = t.x_of(b), by = t.y_of(b);
  auto pick = [](uint32_t from, uint32_t to, uint32_t size, uint8_t minus, uint8_t plus) {
    const bool is_plus = (from + 1) % size == to, is_minus = (from + size - 1) % size == to;
    if (is_plus && is_minus) return to > from ? plus : minus;
    if (is_plus) return plus;
    if (is_minus) return minus;
    return static_cast<uint8_t>(kPorts);
  };
  uint8_t p = kPorts;
  if (ay == by && ax != bx) p = pick(ax, bx, w, kPortXMinus, kPortXPlus);
  if (ax == bx && ay != by) p = pick(ay, by, h, kPortYMinus, kPortYPlus);
  if (p == kPorts) {
    throw std::logic_error(fmt::format("network {}: link {} -> {} joins no grid neighbours",
                                       t.spec(), a, b));
  }
  return p;
}

}  // namespace

Network::Network(sc_core::sc_module_name name, const Topology& topo, const NocConfig& cfg)
    : sc_module(name), topo_(topo), cfg_(cfg) {
  const TopologyKind k = topo.kind();
  if (k != TopologyKind::kTorus && k != TopologyKind::kMesh && k != TopologyKind::kRing) {
    throw InputError(fmt::format(
        "network: topology {} is a {}; the router network models only torus, mesh and ring",
        topo.spec(), kind_name(k)));
  }
  cfg.validate();
  shared_.watchdog_event = &watchdog_event_;

  const uint32_t n = topo.nodes();
  std::vector<std::array<uint32_t, kPorts>> neighbours(n);
  for (uint32_t a = 0; a < n; ++a) {
    neighbours[a].fill(Router::kNoNeighbour);
    for (uint32_t l : topo.out_links(a)) {
      const uint32_t b = topo.links()[l].dst;
      const uint8_t p = port_toward(topo, a, b);
      if (neighbours[a][p] != Router::kNoNeighbour) {
        throw std::logic_error(fmt::format("network {}: node {} has two links on port {}",
                                           topo.spec(), a, port_name(p)));
      }
      neighbours[a][p] = b;
    }
  }
  routers_.reserve(n);
  for (uint32_t a = 0; a < n; ++a) {
    GridPlace place;
    place.x = topo.x_of(a);
    place.y = topo.y_of(a);
    place.width = topo.width();
    place.height = topo.height();
    place.wraps = topo.wraps();
    routers_.push_back(std::make_unique<Router>(fmt::format("router_{}", a).c_str(), a, place,
                                                neighbours[a], cfg, &shared_));
  }
  // Port p of a leads to b; b's port back to a is its input for that link.
  for (uint32_t a = 0; a < n; ++a) {
    for (uint8_t p = 1; p < kPorts; ++p) {
      const uint32_t b = neighbours[a][p];
      if (b == Router::kNoNeighbour) continue;
      uint8_t back = kPorts;
      for (uint8_t q = 1; q < kPorts; ++q) {
        if (neighbours[b][q] == a) back = q;
      }
      if (back == kPorts) {
        throw std::logic_error(
            fmt::format("network {}: link {} -> {} has no reverse link", topo.spec(), a, b));
      }
      routers_[a]->out(p).bind(routers_[b]->in(back));
    }
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
  if (port >= kMaxPorts) throw std::out_of_range(fmt::format("flits_out: port {}", port));
  return routers_.at(router)->flits_out(port);
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
