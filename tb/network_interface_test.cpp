// NI-level lockstep: rtl/network_interface.sv against the SystemC NI
// (systemc/ni/network_interface.hpp). Both get the same table image (the RTL through its
// table-write port), the same flits at their ejection ports, the same credits at their
// injection ports and memories that start with the same bytes and answer with the same
// timing (systemc/ni/accel_memory.hpp's contract). Every cycle, per port, the flit injected
// (type, VC, 128 bits) and the credit returned must be the same, every memory access (order,
// read or write, address, length, write data, start and completion cycle) must be the same,
// and so must done, the timestep and the absence of errors. The first difference stops the
// test with the cycle, the port and both values.
//
// The stimulus is what one node's NI sees in a whole all-reduce: a SystemC run of the full
// system (systemc/allreduce) records the flits that arrive at that node's ports and the
// credits its router returns. Replayed exactly ("scripted neighbours"), the node's buffer
// must end holding the exact all-reduce sum in both models. Replayed with random extra delays
// on the arriving flits and random back-pressure (the bench then returns each injected flit's
// credit itself, after a random delay), only the two models are compared.
#include <gtest/gtest.h>

// Verilated headers before SystemC's, as in every bench (verilated_funcs.h).
#include "Vnetwork_interface.h"
#include "Vnetwork_interface_bounds.h"
#include "Vnetwork_interface_messages.h"
#include "Vnetwork_interface_small.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <unistd.h>
#include <deque>
#include <filesystem>
#include <map>
#include <memory>
#include <random>
#include <regex>
#include <string>
#include <tuple>
#include <vector>

#include <fmt/format.h>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "algorithms/algorithms.hpp"
#include "cfg_port.hpp"
#include "allreduce/allreduce_sim.hpp"
#include "allreduce/gradient_data.hpp"
#include "common/error.hpp"
#include "flit/flit.hpp"
#include "image/image.hpp"
#include "memory/accel_memory.hpp"
#include "ni/network_interface.hpp"
#include "ni_errors.hpp"
#include "ni_flit_pins.hpp"
#include "ni_memory_pins.hpp"
#include "ni_straps.hpp"
#include "memory/plain_access.hpp"
#include "systemc/sim_test_util.hpp"
#include "support/clocked.hpp"
#include "support/files.hpp"
#include "table/schedule_table.hpp"
#include "topology/topology.hpp"

namespace mt::tb {
namespace {

namespace fs = std::filesystem;

// The instance's parameters (rtl/network_interface.sv defaults; tb/CMakeLists.txt).
constexpr uint32_t kK = 4, kNodeW = 8, kVcBits = 2;  // 4 VCs
constexpr uint32_t kMemWords = 256 / 4;  // the memory data bus: one 256-byte block

using Flit = noc::Flit;

// What one node's NI saw in a whole all-reduce.
struct Recording {
  uint64_t start = 0;                                          // cycle the host started it
  std::vector<std::vector<std::pair<uint64_t, Flit>>> flits;   // per port: (usable, flit)
  std::vector<std::vector<std::pair<uint64_t, uint8_t>>> credits;  // per port: (usable, VC)
  noc::NiPlace place;
};

struct Scenario {
  std::string images;  // image-set directory
  uint32_t node = 0;
  noc::NocConfig noc;
  noc::NiConfig ni;
  noc::MemoryConfig memory;
  noc::ReductionConfig reduction;
  bool exact = true;    // replay the recording exactly and check the sum
  uint64_t seed = 1;    // random delays and back-pressure (exact = false)
};

// Runs the whole all-reduce in SystemC and records what the NIs of `nodes` saw.
std::map<uint32_t, Recording> record(const Scenario& s, const std::vector<uint32_t>& nodes) {
  noc::test::fresh_simcontext();
  std::map<uint32_t, Recording> recs;
  noc::AllReduceOptions opt;
  opt.topology.clear();  // the image set names it
  opt.images = s.images;
  opt.noc = s.noc;
  opt.ni = s.ni;
  opt.memory = s.memory;
  opt.reduction = s.reduction;
  opt.on_ni = [&](uint32_t n, noc::NetworkInterface& ni) {
    if (std::find(nodes.begin(), nodes.end(), n) == nodes.end()) return;
    Recording& rec = recs[n];
    rec.flits.resize(kK);
    rec.credits.resize(kK);
    rec.place = ni.place();
    ni.on_flit_in = [&](uint32_t port, const Flit& f, uint64_t cycle) {
      rec.flits.at(port).push_back({cycle, f});
    };
    for (uint32_t p = 0; p < ni.ports(); ++p) {
      ni.port(p).on_credit = [&rec, p](uint8_t vc, uint64_t usable) {
        rec.credits[p].push_back({usable, vc});
      };
    }
    auto step = ni.on_step;
    ni.on_step = [&rec, step, first = true](uint32_t node, uint32_t t, uint64_t cycle) mutable {
      if (first) rec.start = cycle;
      first = false;
      if (step) step(node, t, cycle);
    };
  };
  const noc::AllReduceResult r = noc::run_allreduce(opt);
  EXPECT_TRUE(r.verified) << r.error;
  return recs;
}

// One memory access as the memory saw it.
struct Access {
  bool write = false;
  uint64_t addr = 0, len = 0, start = 0, complete = 0;
  std::vector<uint8_t> data;  // a write's bytes
  bool operator==(const Access& o) const {
    return write == o.write && addr == o.addr && len == o.len && start == o.start &&
           complete == o.complete && data == o.data;
  }
};

std::string str(const Access& a) {
  return fmt::format("{} of {} bytes at 0x{:x}, start {}, complete {}", a.write ? "write" : "read",
                     a.len, a.addr, a.start, a.complete);
}

// Between the SystemC NI's DMA requester and its memory: records every access.
class MemoryTap : public sc_core::sc_module {
 public:
  MemoryTap(sc_core::sc_module_name name, noc::AccelMemory& mem, uint64_t period)
      : sc_module(name), in("in"), out("out"), mem_(mem), period_(period) {
    in.register_b_transport(this, &MemoryTap::b_transport);
    in.register_transport_dbg(this, &MemoryTap::transport_dbg);
    out.bind(mem.port);
  }
  tlm_utils::simple_target_socket<MemoryTap> in;
  tlm_utils::simple_initiator_socket<MemoryTap> out;
  std::deque<Access> log;

 private:
  void b_transport(tlm::tlm_generic_payload& t, sc_core::sc_time& delay) {
    const uint64_t now = sc_core::sc_time_stamp().value() / period_;
    out->b_transport(t, delay);
    Access a;
    a.write = t.is_write();
    a.addr = t.get_address();
    a.len = t.get_data_length();
    a.complete = now + delay.value() / period_;
    const uint32_t bpc = mem_.config().bytes_per_cycle;
    a.start = mem_.free_cycle() - (a.len + bpc - 1) / bpc;
    if (a.write) a.data.assign(t.get_data_ptr(), t.get_data_ptr() + a.len);
    log.push_back(std::move(a));
  }
  unsigned int transport_dbg(tlm::tlm_generic_payload& t) { return out->transport_dbg(t); }

  noc::AccelMemory& mem_;
  uint64_t period_;
};

// The router side of one NI port: delivers flits and credits, records what the NI sends.
class RouterPort : public sc_core::sc_module {
 public:
  explicit RouterPort(sc_core::sc_module_name name) : sc_module(name), in("in"), out("out") {
    in.register_nb_transport_fw(this, &RouterPort::take);
    out.register_nb_transport_bw(this, &RouterPort::credit_back);
  }
  noc::FlitTargetSocket<RouterPort> in;      // the NI's injection
  noc::FlitInitiatorSocket<RouterPort> out;  // to the NI's ejection
  std::map<uint64_t, Flit> sent;             // cycle -> flit the NI injected
  std::map<uint64_t, uint8_t> credited;      // cycle -> VC of the credit the NI returned
  uint64_t period = 1;
  uint64_t local_latency = 0;  // cycles a credit takes from the NI to the router

  // Stimuli usable in the next cycle. Given between two sc_start calls, a zero delay would
  // wake the endpoint a second time in a cycle whose timed wake-up the kernel has already
  // taken, so they go one cycle ahead, as a link does.
  void deliver(Flit f) {
    tlm::tlm_phase phase = tlm::BEGIN_REQ;
    sc_core::sc_time delay = sc_core::sc_time::from_value(period);
    out->nb_transport_fw(f, phase, delay);
  }
  void credit(uint8_t vc) {
    Flit c;
    c.vc = vc;
    tlm::tlm_phase phase = noc::CREDIT;
    sc_core::sc_time delay = sc_core::sc_time::from_value(period);
    in->nb_transport_bw(c, phase, delay);
  }

 private:
  uint64_t now() const { return sc_core::sc_time_stamp().value() / period; }
  tlm::tlm_sync_enum take(Flit& f, tlm::tlm_phase&, sc_core::sc_time&) {
    EXPECT_EQ(sent.count(now()), 0u) << "two flits in one cycle";
    sent[now()] = f;
    return tlm::TLM_ACCEPTED;
  }
  // The NI may hand a credit over before the cycle it returns it in (the endpoint decides it
  // when the flit is delivered): that cycle is the one its delay, less the latency, points to.
  tlm::tlm_sync_enum credit_back(Flit& c, tlm::tlm_phase&, sc_core::sc_time& delay) {
    const uint64_t at = now() + delay.value() / period - local_latency;
    EXPECT_EQ(credited.count(at), 0u) << "two credits in one cycle";
    credited[at] = c.vc;
    return tlm::TLM_ACCEPTED;
  }
};

// The host's configuration writes to the SystemC NI's table.
class HostPort : public sc_core::sc_module {
 public:
  explicit HostPort(sc_core::sc_module_name name) : sc_module(name), socket("socket") {}
  tlm_utils::simple_initiator_socket<HostPort> socket;
  void write(uint64_t addr, std::vector<uint8_t> bytes) {
    tlm::tlm_generic_payload t;
    noc::set_plain_access(t, tlm::TLM_WRITE_COMMAND, addr, bytes.data(), bytes.size());
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    socket->b_transport(t, delay);
    ASSERT_FALSE(t.is_response_error()) << "host write at 0x" << std::hex << addr;
  }
  void write32(uint64_t addr, uint32_t v) {
    write(addr, {uint8_t(v), uint8_t(v >> 8), uint8_t(v >> 16), uint8_t(v >> 24)});
  }
};

// The RTL NI's memory: accesses accepted in order, timed by the same contract as AccelMemory.
class RtlMemory {
 public:
  RtlMemory(const noc::MemoryConfig& cfg, std::vector<uint8_t> bytes)
      : cfg_(cfg), mem_(std::move(bytes)) {}
  // Accepts the request on the pins in cycle `now`; returns the access.
  template <class Model>
  Access accept(Model& d, uint64_t now) {
    const cosim::MemRequest r = cosim::mem_request(d);
    Access a;
    a.write = r.write;
    a.addr = r.addr;
    a.len = r.len;
    const uint64_t n = (a.len + cfg_.bytes_per_cycle - 1) / cfg_.bytes_per_cycle;
    a.start = std::max(now, free_);
    free_ = a.start + n;
    a.complete = a.start + cfg_.latency + n;
    Pending p;
    p.complete = a.complete;
    const uint64_t off = a.addr - cfg_.base;
    EXPECT_LE(off + a.len, mem_.size()) << str(a);
    if (off + a.len > mem_.size()) return a;
    for (uint64_t i = 0; i < a.len; ++i) {
      if (a.write) {
        a.data.push_back(static_cast<uint8_t>(r.words[i / 4] >> (8 * (i % 4))));
        mem_[off + i] = a.data.back();
      } else {
        p.data[i / 4] |= uint32_t{mem_[off + i]} << (8 * (i % 4));
      }
    }
    pending_.push_back(p);
    return a;
  }
  // Drives this cycle's completion, if any.
  template <class Model>
  void respond(Model& d, uint64_t now) {
    const bool valid = !pending_.empty() && pending_.front().complete == now;
    cosim::drive_mem_response<kMemWords>(d, valid ? &pending_.front().data : nullptr);
    if (valid) pending_.pop_front();
  }
  bool idle() const { return pending_.empty(); }
  const std::vector<uint8_t>& bytes() const { return mem_; }

 private:
  struct Pending {
    uint64_t complete = 0;
    std::vector<uint32_t> data = std::vector<uint32_t>(kMemWords);
  };
  noc::MemoryConfig cfg_;
  std::vector<uint8_t> mem_;
  uint64_t free_ = 0;
  std::deque<Pending> pending_;
};

// The stimulus of the lockstep: per port, flits and credits by cycle.
struct Stimulus {
  std::vector<std::map<uint64_t, Flit>> flits;     // per port: cycle -> flit
  std::vector<std::map<uint64_t, uint8_t>> credits;  // per port: cycle -> VC
  uint64_t last = 0;                                // the last cycle with a flit
};

Stimulus make_stimulus(const Recording& rec, const Scenario& s, std::mt19937_64& rng) {
  Stimulus st;
  st.flits.resize(kK);
  st.credits.resize(kK);
  for (uint32_t p = 0; p < kK; ++p) {
    uint64_t extra = 0, prev = 0;
    for (const auto& [cycle, f] : rec.flits[p]) {
      if (!s.exact && rng() % 8 == 0) extra += rng() % 24;  // a stall somewhere upstream
      const uint64_t at = std::max(cycle + extra, st.flits[p].empty() ? 0 : prev + 1);
      st.flits[p][at] = f;
      prev = at;
      st.last = std::max(st.last, at);
    }
    if (s.exact) {
      for (const auto& [cycle, vc] : rec.credits[p]) {
        EXPECT_EQ(st.credits[p].count(cycle), 0u) << "two credits in one cycle";
        st.credits[p][cycle] = vc;
      }
    }
  }
  return st;
}

std::string flit_str(uint32_t type, uint32_t vc, const uint32_t* data) {
  return fmt::format("type {} vc {} data {:08x}_{:08x}_{:08x}_{:08x}", type, vc, data[3], data[2],
                     data[1], data[0]);
}

// What a lockstep run compared.
struct Compared {
  uint64_t cycles = 0, flits_out = 0, flits_in = 0, accesses = 0;
  std::string stopped;  // the NiConfig bound both models stopped the run at; empty if none
  Compared& operator+=(const Compared& o) {
    cycles += o.cycles;
    flits_out += o.flits_out;
    flits_in += o.flits_in;
    accesses += o.accesses;
    return *this;
  }
};

std::string str(const Compared& c) {
  return fmt::format("{} NI-cycles, {} flits out, {} flits in, {} memory accesses compared",
                     c.cycles, c.flits_out, c.flits_in, c.accesses);
}

class NiLockstep : public noc::test::SimTest {
 protected:
  // Records `base` once and runs the lockstep of each of `nodes` on the default RTL NI.
  void check_nodes(Scenario base, const std::vector<uint32_t>& nodes) {
    const std::map<uint32_t, Recording> recs = record(base, nodes);
    if (HasFailure()) return;
    Compared total;
    for (uint32_t node : nodes) {
      base.node = node;
      SCOPED_TRACE(fmt::format("node {}", node));
      total += lockstep<Vnetwork_interface>(base, recs.at(node));
      if (HasFailure()) return;
    }
    std::printf("%s: %zu nodes, %s\n", base.images.c_str(), nodes.size(), str(total).c_str());
  }

 public:
  // Records `s` and runs the lockstep of `s.node` on the RTL NI `Model`, with `s.ni`'s bounds
  // changed by `bound` for the lockstep only (the recording runs within the defaults).
  template <class Model = Vnetwork_interface>
  Compared run(const Scenario& s, void (*bound)(noc::NiConfig&) = nullptr) {
    const std::map<uint32_t, Recording> recs = record(s, {s.node});
    if (HasFailure()) return {};
    if (!bound) return lockstep<Model>(s, recs.at(s.node));
    Scenario bounded = s;
    bound(bounded.ni);
    return lockstep<Model>(bounded, recs.at(s.node));
  }

  // The lockstep of node `s.node`, whose NI saw `rec`, on the RTL NI `Model`.
  template <class Model = Vnetwork_interface>
  Compared lockstep(const Scenario& s, const Recording& rec) {
    Compared out;
    const TableSet set = read_image_set(s.images);
    const std::vector<uint8_t> image = read_bytes(fs::path(s.images) / fmt::format("node_{:02}.bin", s.node));
    std::mt19937_64 rng(s.seed);
    Stimulus st = make_stimulus(rec, s, rng);

    noc::test::fresh_simcontext();
    noc::MemoryConfig mem_cfg = s.memory;
    mem_cfg.base = set.base_addr;
    mem_cfg.bytes = set.bytes;
    mem_cfg.clock_ps = s.noc.clock_ps;
    noc::NocConfig noc = s.noc;
    noc.ni_ports = kK;
    const uint64_t period = sc_core::sc_time(static_cast<double>(noc.clock_ps), sc_core::SC_PS).value();
    noc::CycleScheduler scheduler("scheduler", noc.clock_ps);
    noc::NetworkInterface ni("ni", rec.place, noc, s.ni, s.reduction, set.dtype, scheduler);
    noc::AccelMemory mem("memory", mem_cfg);
    MemoryTap tap("tap", mem, period);
    ni.dma.mem.bind(tap.in);
    std::vector<std::unique_ptr<RouterPort>> ports;
    for (uint32_t p = 0; p < kK; ++p) {
      ports.push_back(std::make_unique<RouterPort>(fmt::format("router_{}", p).c_str()));
      ports.back()->period = period;
      ports.back()->local_latency = noc.local_latency;
      ni.port(p).out.bind(ports.back()->in);
      ports.back()->out.bind(ni.port(p).in);
    }
    HostPort host("host");
    host.socket.bind(ni.table.config);
    noc::GradientData data(set.nodes, set.bytes, set.dtype, 1);  // run_allreduce's seed
    const std::vector<uint8_t> initial = initial_memory(set, s.node, data);
    std::copy(initial.begin(), initial.end(), mem.data());
    host.write(noc::NiScheduleTable::kImageBase, image);
    host.write32(noc::NiScheduleTable::kRegLength, static_cast<uint32_t>(image.size()));
    host.write32(noc::NiScheduleTable::kRegLoad, 1);
    EXPECT_EQ(ni.table.status(), noc::NiScheduleTable::kStatusLoaded) << ni.table.error();

    Clocked<Model> dut;
    cosim::strap_ni<kNodeW>(dut.model(), rec.place, s.ni.flow_control == noc::FlowControl::kPacket);
    dut.reset();
    const cosim::CfgLoad load = cosim::cfg_load(dut, image);
    EXPECT_EQ(load.fault, "");
    EXPECT_EQ(load.status, format::table_status::kLoaded)
        << "table error: " << cosim::table_error_text(dut->table_error_cause_o);
    RtlMemory rtl_mem(mem_cfg, initial);

    auto run_to = [&](uint64_t c) {
      sc_core::sc_start(sc_core::sc_time::from_value(c * period) - sc_core::sc_time_stamp());
    };
    uint64_t c = 0, matched = 0;
    for (;; ++c) {
      if (c > st.last + 400000) {
        ADD_FAILURE() << "cycle " << c << ": no end; SystemC: " << ni.status();
        break;
      }
      run_to(c);
      dut->start_i = c == rec.start;
      if (c == rec.start) ni.start();
      drive(dut.model(), ports, st, c);
      rtl_mem.respond(dut.model(), c);
      dut->mem_req_ready_i = 1;
      // The SystemC NI's cycle c runs in one of the two (sc_stop ends the simulation for good).
      if (ni.fault().empty()) run_to(c + 1);
      dut.settle();
      if (!ni.fault().empty()) {  // the SystemC NI stopped the run in this cycle
        out.stopped = same_error(dut, ni, c);
        return out;
      }
      compare_ports(dut, ports, c, s, st.credits, rng);
      compare_memory(dut, tap, rtl_mem, c, matched);
      compare_state(dut, ni, c);
      out.cycles = c - rec.start;
      out.accesses = matched;
      if (HasFatalFailure()) return out;
      dut.edge();
      if (c > st.last && ni.done() && rtl_mem.idle()) break;
    }
    EXPECT_TRUE(tap.log.empty()) << "SystemC accesses the RTL never made: " << tap.log.size();
    EXPECT_TRUE(rtl_mem.bytes() == std::vector<uint8_t>(mem.data(), mem.data() + mem.size()))
        << "the memories differ";
    if (s.exact) {
      EXPECT_EQ(data.check(s.node, rtl_mem.bytes().data()), "") << "RTL memory";
    }
    for (uint32_t p = 0; p < kK; ++p) {
      out.flits_out += ports[p]->sent.size();
      out.flits_in += st.flits[p].size();
    }
    return out;
  }

  // Node `node`'s buffer before the all-reduce, as run_allreduce fills it.
  static std::vector<uint8_t> initial_memory(const TableSet& set, uint32_t node,
                                             noc::GradientData& data) {
    std::vector<uint8_t> initial;
    for (uint32_t n = 0; n < set.nodes; ++n) {
      std::vector<uint8_t> buf(set.bytes);
      data.fill(n, buf.data());
      if (n == node) initial = std::move(buf);
    }
    return initial;
  }

  // Cycle c's flits and credits on the RTL's pins; cycle c + 1's to the SystemC NI (one cycle
  // ahead, see RouterPort).
  template <class Model>
  static void drive(Model& d, const std::vector<std::unique_ptr<RouterPort>>& ports,
                    Stimulus& st, uint64_t c) {
    for (uint32_t p = 0; p < kK; ++p) {
      const auto f = st.flits[p].find(c);
      cosim::drive_rx_flit<kVcBits>(d, p, f == st.flits[p].end() ? nullptr : &f->second);
      const auto f_next = st.flits[p].find(c + 1);
      if (f_next != st.flits[p].end()) ports[p]->deliver(f_next->second);
      const auto cr = st.credits[p].find(c);
      const bool credit = cr != st.credits[p].end();
      d.tx_credit_i = static_cast<uint8_t>((d.tx_credit_i & ~(1u << p)) | (credit ? 1u << p : 0u));
      d.tx_credit_vc_i = static_cast<uint8_t>((d.tx_credit_vc_i & ~(3u << (2 * p))) |
                                              (credit ? uint32_t{cr->second} << (2 * p) : 0u));
      if (credit) st.credits[p].erase(cr);
      const auto cr_next = st.credits[p].find(c + 1);
      if (cr_next != st.credits[p].end()) ports[p]->credit(cr_next->second);
    }
  }

  // The SystemC NI stopped the run in cycle c (a bound exceeded; sc_stop was called). The RTL
  // registers the same error: error_o after this cycle's edge, or the next one where the
  // block sees the overflow a cycle later (the memory queue counts accesses as they leave its
  // input register), its cause naming the same NiConfig bound. Returns that bound.
  template <class Model>
  static std::string same_error(Clocked<Model>& d, const noc::NetworkInterface& ni, uint64_t c) {
    for (int edges = 0; edges < 2 && !d->error_o; ++edges) {
      d.edge();
      d.settle();
    }
    const std::string rtl = cosim::run_error_text(d->error_cause_o);
    std::smatch m;
    const std::string& sc = ni.fault();
    EXPECT_TRUE(std::regex_search(sc, m, std::regex(R"(NiConfig::(\w+))")))
        << "cycle " << c << ": the SystemC NI stopped naming no NiConfig bound: " << sc;
    const std::string bound = m.empty() ? "" : m[1].str();
    EXPECT_TRUE(d->error_o) << "cycle " << c << ": the SystemC NI stopped (" << sc
                            << "); the RTL raised no error";
    EXPECT_NE(rtl.find("NiConfig::" + bound), std::string::npos)
        << "cycle " << c << ": SystemC: " << sc << "\n  RTL: " << rtl;
    return bound;
  }

  template <class Model>
  static void compare_state(Clocked<Model>& d, const noc::NetworkInterface& ni,
                            uint64_t c) {
    ASSERT_EQ(d->error_o, 0u) << "cycle " << c << ": RTL error: "
                              << cosim::run_error_text(d->error_cause_o);
    // The RTL step register takes this cycle's advance at the edge.
    ASSERT_EQ(d->step_o + d->step_advance_o, ni.timestep.value())
        << "cycle " << c << ": timestep; RTL head " << d->head_o << " lockstep " << d->lockstep_o
        << (d->waiting_o ? " waiting" : "") << "; SystemC: " << ni.status()
        << " lockstep " << ni.lockstep.value(c);
    ASSERT_EQ(d->done_o != 0, ni.done()) << "cycle " << c << ": done; SystemC: " << ni.status();
  }

  template <class Model>
  void compare_ports(Clocked<Model>& d,
                     const std::vector<std::unique_ptr<RouterPort>>& ports, uint64_t c,
                     const Scenario& s, std::vector<std::map<uint64_t, uint8_t>>& credits,
                     std::mt19937_64& rng) {
    for (uint32_t p = 0; p < kK; ++p) {
      const auto it = ports[p]->sent.find(c);
      const bool rtl_tx = (d->tx_valid_o >> p) & 1;
      const noc::WireFlit tx = cosim::tx_flit<kVcBits>(d.model(), p);
      std::string sc = "none";
      if (it != ports[p]->sent.end()) {
        const noc::WireFlit w = noc::pack(it->second);
        sc = flit_str(static_cast<uint32_t>(w.type), w.vc, w.data.data());
        if (!s.exact) {  // the bench is the router: the credit comes back after a while
          // At least two cycles on: the SystemC side gets next cycle's stimuli now.
          uint64_t at = c + s.noc.local_latency + 1 + (rng() % 4 == 0 ? rng() % 40 : 0);
          while (credits[p].count(at)) ++at;
          credits[p][at] = w.vc;
        }
      }
      const std::string rtl =
          rtl_tx ? flit_str(static_cast<uint32_t>(tx.type), tx.vc, tx.data.data()) : "none";
      ASSERT_EQ(rtl, sc) << "cycle " << c << ", port " << p << ": injected flit (RTL vs SystemC)";
      const auto cr = ports[p]->credited.find(c);
      const bool rtl_credit = (d->rx_credit_o >> p) & 1;
      ASSERT_EQ(rtl_credit, cr != ports[p]->credited.end())
          << "cycle " << c << ", port " << p << ": ejection credit";
      if (rtl_credit) {
        ASSERT_EQ((d->rx_credit_vc_o >> (2 * p)) & 3, cr->second)
            << "cycle " << c << ", port " << p << ": ejection credit VC";
      }
    }
  }

  template <class Model>
  void compare_memory(Clocked<Model>& d, MemoryTap& tap, RtlMemory& rtl_mem,
                      uint64_t c, uint64_t& matched) {
    if (d->mem_req_valid_o) {
      const Access a = rtl_mem.accept(d.model(), c);
      ASSERT_FALSE(tap.log.empty()) << "cycle " << c << ": RTL memory " << str(a)
                                    << "; SystemC made no access";
      ASSERT_TRUE(a == tap.log.front()) << "cycle " << c << ": memory access " << matched
                                        << "\n  RTL     " << str(a) << "\n  SystemC "
                                        << str(tap.log.front());
      tap.log.pop_front();
      ++matched;
    }
    // The RTL hands an access over no later than it starts.
    ASSERT_TRUE(tap.log.empty() || tap.log.front().start > c)
        << "cycle " << c << ": SystemC memory " << str(tap.log.front())
        << " started; the RTL has not asked for it";
  }
};

// Writes the image set of a plan into a fresh directory under the build's temp dir.
std::string plan_images(const std::string& topology, const std::string& algorithm, uint64_t bytes,
                        DType dtype) {
  const Topology topo = parse_topology(topology);
  PlanOptions po;
  po.bytes = bytes;
  po.dtype = dtype;
  const Plan plan = build_plan(topo, algorithm, po);
  const TableSet set = compile_tables(plan, TableOptions{});
  const fs::path dir = fs::temp_directory_path() /
                       fmt::format("mt_ni_lockstep_{}_{}_{}_{}", ::getpid(), algorithm, bytes,
                                   topology.substr(0, topology.find(':')));
  fs::remove_all(dir);
  write_image_set(set, dir.string());
  return dir.string();
}

std::string golden(const std::string& set) { return std::string(MT_SOURCE_DIR) + "/schedules/" + set; }

// Fig. 5: MultiTree on a 2x2 mesh, every node, message-based and packet-based.
TEST_F(NiLockstep, Fig5Mesh2x2EveryNode) {
  for (const auto fc : {noc::FlowControl::kMessage, noc::FlowControl::kPacket}) {
    Scenario s;
    s.images = golden("multitree_mesh2x2");
    s.ni.flow_control = fc;
    SCOPED_TRACE(noc::flow_control_name(fc));
    check_nodes(s, {0, 1, 2, 3});
    if (HasFailure()) return;
  }
}

// Every golden set (schedules/) but Fig. 5's, message-based, on corner, edge and inner nodes.
TEST_F(NiLockstep, GoldenSetsScriptedNeighbours) {
  const std::vector<std::pair<std::string, std::vector<uint32_t>>> sets = {
      {"multitree_mesh4x4", {0, 5, 6, 15}},
      {"multitree_torus4x4", {0, 9}},
      {"multitree_torus8x8", {0, 27, 63}}};
  for (const auto& [set, nodes] : sets) {
    Scenario s;
    s.images = golden(set);
    SCOPED_TRACE(set);
    check_nodes(s, nodes);
    if (HasFailure()) return;
  }
}

// Put entries: ring2d-paper spreads each row's partial sums with Puts and ends each chain with
// a terminal Put (a wait with no sends). Every node of a 4x2 and a 3x2 torus, message- and
// packet-based, replayed exactly with exact sums; then nodes of the 4x2 torus under random
// timing and back-pressure.
TEST_F(NiLockstep, PutEntriesEveryNode) {
  for (const auto& [topology, bytes] : {std::pair<std::string, uint64_t>{"torus:4x2", 24 << 10},
                                        std::pair<std::string, uint64_t>{"torus:3x2", 12 << 10}}) {
    const uint32_t n = parse_topology(topology).nodes();
    std::vector<uint32_t> nodes(n);
    for (uint32_t v = 0; v < n; ++v) nodes[v] = v;
    for (const auto fc : {noc::FlowControl::kMessage, noc::FlowControl::kPacket}) {
      Scenario s;
      s.images = plan_images(topology, "ring2d-paper", bytes, DType::kFp32);
      s.ni.flow_control = fc;
      SCOPED_TRACE(fmt::format("{} {}", topology, noc::flow_control_name(fc)));
      check_nodes(s, nodes);
      fs::remove_all(s.images);
      if (HasFailure()) return;
    }
  }
  std::mt19937_64 rng(40);
  for (int k = 0; k < 6; ++k) {
    Scenario s;
    const uint64_t bytes = 4 * (256 + rng() % 4096);
    s.images = plan_images("torus:4x2", "ring2d-paper", bytes, k % 2 ? DType::kInt32 : DType::kFp32);
    s.node = static_cast<uint32_t>(rng() % 8);
    s.ni.flow_control = rng() % 2 ? noc::FlowControl::kMessage : noc::FlowControl::kPacket;
    s.memory.latency = static_cast<uint32_t>(10 + rng() % 110);
    s.noc.link_latency = static_cast<uint32_t>(1 + rng() % 40);
    s.noc.credit_latency = static_cast<uint32_t>(1 + rng() % 40);
    s.exact = false;
    s.seed = rng();
    SCOPED_TRACE(fmt::format("random run {}: {} bytes, node {}", k, bytes, s.node));
    run(s);
    fs::remove_all(s.images);
    if (HasFailure()) return;
  }
}

// A random scenario: plan (topology, algorithm, size, element type, flow control), memory
// timing, link latencies, exact replay or random delays and back-pressure. Empty `images`
// when the algorithm does not run on the topology.
struct Random {
  Scenario scenario;
  std::string algorithm, what;
};

Random random_scenario(std::mt19937_64& rng) {
  const std::vector<std::string> topologies = {"ring:5",   "ring:8",    "mesh:2x3", "mesh:3x3",
                                               "torus:3x3", "torus:4x4", "mesh:4x4", "torus:2x4"};
  const std::vector<std::string> algorithms = {"multitree", "ring", "ring2d", "dbtree"};
  const std::string topo = topologies[rng() % topologies.size()];
  const std::string alg = algorithms[rng() % algorithms.size()];
  const uint64_t bytes = 4 * (256 + rng() % 8192);
  const DType dtype = rng() % 2 ? DType::kFp32 : DType::kInt32;
  Random r;
  r.algorithm = alg;
  Scenario& s = r.scenario;
  try {
    s.images = plan_images(topo, alg, bytes, dtype);
  } catch (const InputError&) {
    return r;
  }
  s.node = static_cast<uint32_t>(rng() % parse_topology(topo).nodes());
  s.ni.flow_control = rng() % 2 ? noc::FlowControl::kMessage : noc::FlowControl::kPacket;
  // Memories the NI's bounds keep up with (rtl/README.md, Parameters).
  s.memory.latency = static_cast<uint32_t>(10 + rng() % 110);
  s.memory.bytes_per_cycle = 128u << (rng() % 2);
  s.noc.link_latency = static_cast<uint32_t>(1 + rng() % 40);
  s.noc.credit_latency = static_cast<uint32_t>(1 + rng() % 40);
  s.exact = rng() % 3 == 0;
  s.seed = rng();
  r.what = fmt::format("{} {} {} bytes {} {}, node {}, memory {} B/cycle latency {}, links {}/{}, {}",
                     topo, alg, bytes, dtype_name(dtype), noc::flow_control_name(s.ni.flow_control),
                     s.node, s.memory.bytes_per_cycle, s.memory.latency, s.noc.link_latency,
                     s.noc.credit_latency, s.exact ? "exact replay" : "random timing");
  return r;
}

// Random scenarios on the RTL NI `Model` until `want` NI-cycles are compared; `fit` adapts a
// scenario to the model's parameters.
template <class Model, class Fit>
void random_runs(NiLockstep& t, uint64_t want, uint64_t seed, Fit fit) {
  std::mt19937_64 rng(seed);
  Compared total;
  std::map<std::string, int> runs_of;
  int runs = 0;
  while (total.cycles < want) {
    Random r = random_scenario(rng);
    Scenario& s = r.scenario;
    if (s.images.empty()) continue;  // the algorithm does not run on this topology
    fit(s);
    SCOPED_TRACE(fmt::format("run {}: {}", runs, r.what));
    total += t.run<Model>(s);
    fs::remove_all(s.images);
    ++runs;
    ++runs_of[r.algorithm + (s.exact ? " exact" : " random")];
    if (::testing::Test::HasFailure()) return;
  }
  std::string mix;
  for (const auto& [kind, n] : runs_of) mix += fmt::format(" {} x{},", kind, n);
  std::printf("%d runs (%s): %s\n", runs, mix.c_str(), str(total).c_str());
}

uint64_t wanted_cycles() {
  const char* env = std::getenv("MT_NI_LOCKSTEP_CYCLES");
  return env ? std::strtoull(env, nullptr, 10) : 60000;
}

// Random scenarios on the default NI. MT_NI_LOCKSTEP_CYCLES sets how many NI-cycles to compare
// at least (the slow test NiLockstep.MillionCycles asks for a million).
TEST_F(NiLockstep, RandomPlansTimingAndBackPressure) {
  random_runs<Vnetwork_interface>(*this, wanted_cycles(), 2026, [](Scenario&) {});
}

// Random scenarios on an NI with small bounds (tb/CMakeLists.txt: Vnetwork_interface_bounds):
// the lockstep runs with these bounds, the recording within the defaults, so a run that needs
// more must stop both models in the same cycle, the SystemC NI's fault and the RTL's
// error_cause_o naming the same NiConfig bound. Each bound is reached.
TEST_F(NiLockstep, BoundsStopBothModelsAlike) {
  auto small = [](noc::NiConfig& ni) {
    ni.block_slots = 4;
    ni.reducing_blocks = 4;
    ni.memory_requests = 32;
    ni.packet_messages = 1;
  };
  constexpr int kRuns = 120;
  std::mt19937_64 rng(11);
  std::map<std::string, int> stopped;
  Compared total;
  for (int runs = 0; runs < kRuns;) {
    Random r = random_scenario(rng);
    Scenario& s = r.scenario;
    if (s.images.empty()) continue;
    SCOPED_TRACE(fmt::format("run {}: {}", runs, r.what));
    const Compared c = run<Vnetwork_interface_bounds>(s, small);
    fs::remove_all(s.images);
    if (HasFailure()) return;
    total += c;
    ++stopped[c.stopped.empty() ? "(none: completed)" : c.stopped];
    ++runs;
  }
  std::string counts;
  for (const auto& [bound, n] : stopped) counts += fmt::format(" {} x{},", bound, n);
  std::printf("%d runs stopped at:%s %s\n", kRuns, counts.c_str(), str(total).c_str());
  for (const char* b : {"block_slots", "reducing_blocks", "memory_requests", "packet_messages"}) {
    EXPECT_GT(stopped[b], 0) << "no run reached NiConfig::" << b;
  }
}

// NiConfig::open_messages on a build of its own (tb/CMakeLists.txt:
// Vnetwork_interface_messages, 8 records; every other bound at its default). Plans of many
// small messages on 64 nodes hold more than 8 open at some nodes (the most on any node: 10),
// and there both models stop in the same cycle, naming it; elsewhere they run to the end.
TEST_F(NiLockstep, OpenMessagesBoundStopsBothModelsAlike) {
  auto small = [](noc::NiConfig& ni) { ni.open_messages = 8; };
  const std::vector<std::tuple<std::string, uint64_t, noc::FlowControl>> plans = {
      {"torus:8x8", 16 << 10, noc::FlowControl::kPacket},
      {"mesh:8x8", 8 << 10, noc::FlowControl::kMessage}};
  int runs = 0, stopped = 0;
  for (const auto& [topo, bytes, fc] : plans) {
    Scenario s;
    s.images = plan_images(topo, "multitree", bytes, DType::kFp32);
    s.ni.flow_control = fc;
    for (const uint32_t node : {0u, 9u, 18u, 27u, 36u, 45u, 54u, 63u}) {
      s.node = node;
      SCOPED_TRACE(fmt::format("{} {} bytes, node {}", topo, bytes, node));
      const Compared c = run<Vnetwork_interface_messages>(s, small);
      if (HasFailure()) return;
      EXPECT_TRUE(c.stopped.empty() || c.stopped == "open_messages") << c.stopped;
      ++runs;
      stopped += c.stopped == "open_messages";
    }
    fs::remove_all(s.images);
  }
  std::printf("%d runs, %d stopped at open_messages\n", runs, stopped);
  EXPECT_GT(stopped, 0) << "no run reached NiConfig::open_messages";
}

// Random scenarios on an NI with small buffers (tb/CMakeLists.txt: Vnetwork_interface_small),
// so the NI buffer, the router's VC buffers and the reduction unit are what limit it.
TEST_F(NiLockstep, SmallBuffersRandomPlans) {
  random_runs<Vnetwork_interface_small>(*this, wanted_cycles() / 2, 7, [](Scenario& s) {
    s.noc.vc_depth = 20;
    s.ni.buffer_flits = 40;
    s.ni.buffer_lines = 3;
    s.reduction.elements_per_cycle = 4;
    s.reduction.latency = 2;
  });
}

}  // namespace
}  // namespace mt::tb
