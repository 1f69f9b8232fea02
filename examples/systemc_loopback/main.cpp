// The SystemC MultiTree NI in a network of your own, built against the installed MultiTreeNI
// package. Two nodes (mesh:2x1), each an NI with its accelerator memory; the network is
// TwoNodeLinks below: fixed-latency wires between the two NIs' facing ports, doing the one
// thing a first router must do to a MultiTree message. The program plans the all-reduce,
// loads each NI's table image through its configuration socket, runs to completion, checks
// every element of both buffers and prints the cycles and PASS (exit 0); anything else exits 1.
//
// What a platform provides for each NI (ni/ni_model.hpp has the whole contract):
//   flit_out(p), flit_in(p)  NI port p (0..K-1, K = the tables' children slots): TLM-2.0
//       sockets of the flit protocol (link/flit_protocol.hpp). A flit goes forward with
//       nb_transport_fw(flit, BEGIN_REQ, delay) and is usable by the receiver at now + delay;
//       each flit taken out of a receiver's buffer returns a credit for its VC with
//       nb_transport_bw(credit, CREDIT, delay). The NI starts with NocConfig::vc_depth credits
//       per VC and sends flits, and credits, with delay = NocConfig::local_latency.
//   memory()  a TLM-2.0 generic-payload initiator: bind it to the accelerator memory, here
//       the package's AccelMemory (ni/accel_memory.hpp has its timing contract).
//   config()  a generic-payload target with the register map of format::config: the image
//       at kImageBase, its length at kRegLength, 1 to kRegLoad, then kRegStatus reads back
//       format::table_status::kLoaded; after that, start().
//   A CycleScheduler (scheduler/cycle_scheduler.hpp) that runs the NIs on one clock.
// Usage: systemc_loopback [BYTES]   (the all-reduce size, default 65536)
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "algorithms/algorithms.hpp"
#include "image/image.hpp"
#include "memory/accel_memory.hpp"
#include "ni/network_interface.hpp"
#include "memory/plain_access.hpp"
#include "router/router.hpp"
#include "table/schedule_table.hpp"
#include "topology/topology.hpp"
#include "verifier/verifier.hpp"

using namespace mt;
using namespace mt::noc;

constexpr uint64_t kClockPs = 1000;   // 1 GHz, the clock every module here counts cycles of
constexpr uint32_t kLinkCycles = 10;  // the wires' latency, added to the NI's local latency
constexpr uint32_t kPortsPerNi = 4;   // K: one NI port per router direction
constexpr uint32_t kNodes = 2;
constexpr uint64_t kMaxBytes = uint64_t{64} << 20;  // each node's memory holds the buffer

// The network. Node 0's NI port p and node 1's NI port p ^ 1 are joined: port p serves
// direction p + 1 (y-, y+, x-, x+), and p ^ 1 is the opposite one, so x+ of node 0 faces x- of
// node 1. Flits cross with kLinkCycles more than the sender's delay, credits come back the
// same way: each is handed on in the call that brings it, so the wires hold no state.
// A MultiTree message is source routed one hop: its sub-packet heads carry the direction to
// leave by in Next and the receiver's NI port in Eject; the first router swaps the two (Next:
// the local port, Eject: the direction it came by), from which the receiving NI knows the
// sender. This network does that swap and checks that the ports agree.
class TwoNodeLinks : public sc_core::sc_module {
 public:
  using In = tlm_utils::simple_target_socket_tagged<TwoNodeLinks, kFlitBits, FlitProtocol>;
  using Out = tlm_utils::simple_initiator_socket_tagged<TwoNodeLinks, kFlitBits, FlitProtocol>;
  // Socket node * kPortsPerNi + p: from NI `node`'s flit_out(p), and to its flit_in(p).
  std::vector<std::unique_ptr<In>> from_ni;
  std::vector<std::unique_ptr<Out>> to_ni;

  explicit TwoNodeLinks(sc_core::sc_module_name name) : sc_module(name) {
    for (int s = 0; s < static_cast<int>(kNodes * kPortsPerNi); ++s) {
      from_ni.push_back(std::make_unique<In>(("from_ni_" + std::to_string(s)).c_str()));
      to_ni.push_back(std::make_unique<Out>(("to_ni_" + std::to_string(s)).c_str()));
      from_ni.back()->register_nb_transport_fw(this, &TwoNodeLinks::flit, s);
      to_ni.back()->register_nb_transport_bw(this, &TwoNodeLinks::credit, s);
    }
  }

 private:
  static sc_core::sc_time wire_delay() {
    return sc_core::sc_time(double(kLinkCycles * kClockPs), sc_core::SC_PS);
  }
  // The socket at the other end of socket s's wire.
  static int across(int s) {
    const int ports = static_cast<int>(kPortsPerNi);
    return (s < ports ? ports : 0) + ((s % ports) ^ 1);
  }

  tlm::tlm_sync_enum flit(int s, Flit& f, tlm::tlm_phase& phase, sc_core::sc_time& delay) {
    const int to = across(s);
    Flit out = f;
    if (is_head(f.type) && !is_subpacket(f.type)) {
      throw std::runtime_error("TwoNodeLinks carries messages only, not packet-based flow control");
    }
    if (is_head(f.type)) {
      const uint32_t direction = s % kPortsPerNi + 1;
      if (f.next != direction || !is_local_port(f.eject) ||
          local_index(f.eject) != static_cast<uint32_t>(to % kPortsPerNi)) {
        throw std::runtime_error("TwoNodeLinks: a message head asks for a route these wires "
                                 "do not have: " + f.str());
      }
      out.set_next(f.eject);
      out.set_eject(direction);
    }
    sc_core::sc_time d = delay + wire_delay();
    return (*to_ni[to])->nb_transport_fw(out, phase, d);
  }

  tlm::tlm_sync_enum credit(int s, Flit& c, tlm::tlm_phase& phase, sc_core::sc_time& delay) {
    sc_core::sc_time d = delay + wire_delay();
    return (*from_ni[across(s)])->nb_transport_bw(c, phase, d);
  }
};

// The host processor: writes each NI's table image through its configuration socket, checks
// that the NI installed it, and starts every NI, all at time 0.
class TableLoader : public sc_core::sc_module {
 public:
  using Socket = tlm_utils::simple_initiator_socket_tagged<TableLoader>;
  std::vector<std::unique_ptr<Socket>> config;  // config[n] binds to NI n's config()
  std::string error;

  TableLoader(sc_core::sc_module_name name, std::vector<NetworkInterface*> nis,
              std::vector<std::vector<uint8_t>> images)
      : sc_module(name), nis_(std::move(nis)), images_(std::move(images)) {
    for (size_t n = 0; n < nis_.size(); ++n) {
      config.push_back(std::make_unique<Socket>(("config_" + std::to_string(n)).c_str()));
    }
    SC_THREAD(load);
  }

 private:
  SC_HAS_PROCESS(TableLoader);
  void access(size_t n, tlm::tlm_command cmd, uint64_t addr, uint8_t* data, uint64_t len) {
    tlm::tlm_generic_payload t;
    set_plain_access(t, cmd, addr, data, len);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    (*config[n])->b_transport(t, delay);
    if (t.is_response_error()) {
      throw std::runtime_error("NI " + std::to_string(n) + " refused a configuration access: " +
                               t.get_response_string());
    }
  }
  void write32(size_t n, uint64_t addr, uint32_t v) {
    uint8_t b[4] = {uint8_t(v), uint8_t(v >> 8), uint8_t(v >> 16), uint8_t(v >> 24)};
    access(n, tlm::TLM_WRITE_COMMAND, addr, b, 4);
  }
  void load() {
    for (size_t n = 0; n < nis_.size(); ++n) {
      access(n, tlm::TLM_WRITE_COMMAND, format::config::kImageBase, images_[n].data(),
             images_[n].size());
      write32(n, format::config::kRegLength, static_cast<uint32_t>(images_[n].size()));
      write32(n, format::config::kRegLoad, 1);
      uint8_t status[4];
      access(n, tlm::TLM_READ_COMMAND, format::config::kRegStatus, status, 4);
      if (status[0] != format::table_status::kLoaded) {
        error = "NI " + std::to_string(n) + " rejected its table image: " + nis_[n]->table_error();
        sc_core::sc_stop();
        return;
      }
    }
    for (NetworkInterface* ni : nis_) ni->start();
  }
  std::vector<NetworkInterface*> nis_;
  std::vector<std::vector<uint8_t>> images_;
};

// Node n's fp32 element i before the all-reduce: small integers, so every sum is exact.
static float element(uint32_t n, uint64_t i) { return static_cast<float>((i * 7 + n * 3) % 1000); }

static int run(uint64_t bytes) {
  // The host side: plan MultiTree for the network, prove it, compile one image per node.
  const Topology topo = parse_topology("mesh:2x1");
  PlanOptions po;
  po.bytes = bytes;
  const Plan plan = build_plan(topo, "multitree", po);
  require_valid(plan, topo);
  const TableSet set = compile_tables(plan, TableOptions{kPortsPerNi, 0});
  std::vector<std::vector<uint8_t>> images;
  for (uint32_t n = 0; n < kNodes; ++n) images.push_back(encode_image(set, n));

  // The SystemC side: one scheduler, two NIs with their memories, the links, the loader.
  NocConfig noc;
  noc.ni_ports = set.children_slots;
  noc.clock_ps = kClockPs;
  noc.link_latency = noc.credit_latency = kLinkCycles;
  noc.validate();
  CycleScheduler scheduler("scheduler", kClockPs);
  TwoNodeLinks links("links");
  MemoryConfig mem;
  mem.base = set.base_addr;  // the buffer the tables move and sum
  mem.bytes = set.bytes;
  mem.clock_ps = kClockPs;
  std::vector<std::unique_ptr<NetworkInterface>> nis;
  std::vector<std::unique_ptr<AccelMemory>> memories;
  for (uint32_t n = 0; n < kNodes; ++n) {
    NiPlace place;
    place.node = n;
    place.nodes = kNodes;
    place.grid = GridPlace{n, 0, kNodes, 1, false};
    place.neighbour.fill(kNoNeighbour);
    place.neighbour[kPortLocal] = n;
    place.neighbour[n == 0 ? kPortXPlus : kPortXMinus] = 1 - n;
    nis.push_back(std::make_unique<NetworkInterface>(("ni_" + std::to_string(n)).c_str(), place,
                                                     noc, NiConfig{}, ReductionConfig{},
                                                     set.dtype, scheduler));
    memories.push_back(std::make_unique<AccelMemory>(("memory_" + std::to_string(n)).c_str(), mem));
    nis[n]->memory().bind(memories[n]->port);
    for (uint32_t p = 0; p < noc.ni_ports; ++p) {
      nis[n]->flit_out(p).bind(*links.from_ni[n * kPortsPerNi + p]);
      links.to_ni[n * kPortsPerNi + p]->bind(nis[n]->flit_in(p));
    }
    for (uint64_t i = 0; i < set.bytes / 4; ++i) {
      const float v = element(n, i);
      std::memcpy(memories[n]->data() + 4 * i, &v, 4);
    }
  }
  TableLoader loader("loader", {nis[0].get(), nis[1].get()}, images);
  for (uint32_t n = 0; n < kNodes; ++n) loader.config[n]->bind(nis[n]->config());

  // Run until both NIs are done and every flit sent has arrived (a node cannot know alone).
  const uint64_t limit = 100000000;
  for (;;) {
    sc_core::sc_start(sc_core::sc_time(double(1000 * kClockPs), sc_core::SC_PS));
    const bool done = nis[0]->done() && nis[1]->done() &&
        nis[0]->flits_injected() + nis[1]->flits_injected() ==
            nis[0]->flits_ejected() + nis[1]->flits_ejected();
    if (!loader.error.empty()) throw std::runtime_error(loader.error);
    for (const auto& ni : nis) if (!ni->fault().empty()) throw std::runtime_error(ni->fault());
    if (done) break;
    if (scheduler.now() > limit) {
      throw std::runtime_error("no end after " + std::to_string(limit) + " cycles: " +
                               nis[0]->status() + "; " + nis[1]->status());
    }
  }

  // Both buffers must hold the element-wise sum.
  for (uint32_t n = 0; n < kNodes; ++n) {
    for (uint64_t i = 0; i < set.bytes / 4; ++i) {
      float v;
      std::memcpy(&v, memories[n]->data() + 4 * i, 4);
      if (v != element(0, i) + element(1, i)) {
        throw std::runtime_error("FAIL: node " + std::to_string(n) + " element " +
                                 std::to_string(i) + " is " + std::to_string(v) + ", not " +
                                 std::to_string(element(0, i) + element(1, i)));
      }
    }
  }
  const uint64_t cycles = std::max(nis[0]->done_cycle(), nis[1]->done_cycle());
  std::printf("all-reduce of %llu bytes on 2 NIs: %llu cycles, %llu flits\nPASS\n",
              (unsigned long long)set.bytes, (unsigned long long)cycles,
              (unsigned long long)(nis[0]->flits_injected() + nis[1]->flits_injected()));
  return 0;
}

int sc_main(int argc, char* argv[]) {
  try {
    const std::string arg = argc == 2 ? argv[1] : "65536";
    if (argc > 2 || arg.empty() || arg.size() > 9 ||
        arg.find_first_not_of("0123456789") != std::string::npos || std::stoull(arg) > kMaxBytes) {
      throw std::invalid_argument("usage: systemc_loopback [BYTES]: BYTES, the all-reduce size, "
                                  "is a whole number up to " + std::to_string(kMaxBytes));
    }
    const uint64_t bytes = std::stoull(arg);
    return run(bytes);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "systemc_loopback: %s\n", e.what());
    return 1;
  }
}
