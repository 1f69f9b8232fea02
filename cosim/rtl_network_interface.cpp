// Verilated headers before SystemC's, as in every bench (verilated_funcs.h).
#include "Vcosim_ni.h"

#include "rtl_network_interface.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

#include "cfg_port.hpp"
#include "clocked_model.hpp"
#include "common/error.hpp"
#include "cosim_ni_params.hpp"
#include "cosim_ni_pins.hpp"
#include "flit/flit.hpp"
#include "image/image.hpp"
#include "memory/plain_access.hpp"
#include "ni_errors.hpp"
#include "ni_flit_pins.hpp"
#include "ni_formats.hpp"
#include "ni_memory_pins.hpp"
#include "ni_straps.hpp"
#include "port_bits.hpp"

namespace mt::cosim {
namespace {

namespace param = rtl_param;
constexpr uint32_t kNil = (1u << param::NODE_W) - 1;

// A configuration the RTL instance cannot run: names the setting and both values.
void need(const char* what, uint64_t asked, uint64_t rtl) {
  if (asked != rtl) {
    throw InputError(fmt::format("the RTL NI is built for {} = {}; this run asks for {} "
                                 "(cosim/CMakeLists.txt MT_COSIM_NI_PARAMS)", what, rtl, asked));
  }
}

void check_setup(const noc::NiSetup& s) {
  const uint64_t most = kNil;  // node ids and grid sizes below the nil id
  for (const auto& [what, v] : {std::pair{"nodes", s.place.nodes},
                                std::pair{"grid width", s.place.grid.width},
                                std::pair{"grid height", s.place.grid.height}}) {
    if (v > most) {
      throw InputError(fmt::format("the RTL NI's {}-bit node ids allow at most {} {}; this "
                                   "network has {}", param::NODE_W, most, what, v));
    }
  }
  need("NI ports K (the tables' children slots)", s.noc.ni_ports, param::K);
  need("virtual channels", s.noc.vcs, param::VCS);
  need("flits per VC buffer", s.noc.vc_depth, param::VC_DEPTH);
  need("wormhole flow control (1) or virtual cut-through (0)", s.noc.wormhole, param::WORMHOLE);
  need("flits per sub-packet", s.noc.subpacket_flits, param::SUBPACKET_FLITS);
  need("packet payload bytes", s.ni.packet_payload_bytes, param::PACKET_BYTES);
  need("NI buffer flits", s.ni.buffer_flits, param::BUFFER_FLITS);
  need("NI buffer bursts", s.ni.buffer_lines, param::LINES);
  need("DMA burst bytes", s.ni.dma_burst_bytes, param::BURST_BYTES);
  need("sends queued per port", s.ni.send_queue, param::SEND_QUEUE);
  need("senders per scoreboard row", s.ni.arrival_slots, param::SLOTS);
  if (s.ni.flows > param::FLOWS) {
    throw InputError(fmt::format("the RTL NI is built with scoreboard rows for {} flows; this "
                                 "run's tables use {} (cosim/CMakeLists.txt MT_COSIM_NI_PARAMS)",
                                 param::FLOWS, s.ni.flows));
  }
  need("table entries (the largest table's)", s.ni.table_entries, param::DEPTH);
  need("open packet-mode messages per ejection port", s.ni.packet_messages, param::PKT_MSGS);
  need("received block slots", s.ni.block_slots, param::BLOCKS);
  need("open messages", s.ni.open_messages, param::MESSAGES);
  need("Reduce blocks being reduced", s.ni.reducing_blocks, param::REDUCING);
  need("outstanding memory accesses", s.ni.memory_requests, param::REQUESTS);
  need("reduction lanes (elements per cycle)", s.reduction.elements_per_cycle, param::LANES);
  need("reduction latency", s.reduction.latency, param::LATENCY);
  need("forwarding of reduced data (--ni-forward, a SystemC model experiment)", s.ni.forward, 0);
}

}  // namespace

RtlNetworkInterface::RtlNetworkInterface(sc_core::sc_module_name name, const noc::NiSetup& setup)
    : sc_module(name), node_(setup.place.node), ports_(setup.noc.ni_ports),
      period_(sc_core::sc_time(static_cast<double>(setup.noc.clock_ps), sc_core::SC_PS).value()),
      period_ps_(setup.noc.clock_ps),
      local_delay_(sc_core::sc_time::from_value(period_ * setup.noc.local_latency)),
      mem_("memory"), config_("config"),
      arrivals_(setup.noc.ni_ports), credits_(setup.noc.ni_ports),
      trace_flits_out_(setup.noc.ni_ports, 0), trace_flits_in_(setup.noc.ni_ports, 0) {
  check_setup(setup);
  ModelOptions o;
  o.name = basename();
  o.waves = setup.waves;
  o.picoseconds = true;    // on the SystemC trace's time axis
  o.sample_edges = false;  // sampled by cycle(), from the start on
  model_ = std::make_unique<ClockedModel<Vcosim_ni>>(o);
  rtl_ = &model_->model();
  for (uint32_t i = 0; i < ports_; ++i) {
    out_.push_back(std::make_unique<OutSocket>(fmt::format("out_{}", i).c_str()));
    out_.back()->register_nb_transport_bw(this, &RtlNetworkInterface::receive_credit,
                                          static_cast<int>(i));
    in_.push_back(std::make_unique<InSocket>(fmt::format("in_{}", i).c_str()));
    in_.back()->register_nb_transport_fw(this, &RtlNetworkInterface::receive_flit,
                                         static_cast<int>(i));
  }
  config_.register_b_transport(this, &RtlNetworkInterface::config_access);
  // check_setup has checked that every strapped value fits NODE_W bits.
  strap_ni<param::NODE_W>(*rtl_, setup.place, setup.ni.flow_control == noc::FlowControl::kPacket);
  rtl_->mem_req_ready_i = 1;
  model_->reset();
  model_->settle();
  SC_METHOD(cycle);
  sensitive << start_event_;
  dont_initialize();
}

RtlNetworkInterface::~RtlNetworkInterface() = default;

uint64_t RtlNetworkInterface::now_cycle() const {
  return sc_core::sc_time_stamp().value() / period_;
}

// Waves from the start on, at the SystemC time of each cycle: the settled values at its
// beginning, the values after its rising edge half a cycle later.
void RtlNetworkInterface::dump(bool after_edge) {
  const uint64_t ps = sc_core::sc_time_stamp().value() * period_ps_ / period_;
  model_->sample(after_edge ? ps + period_ps_ / 2 : ps);
}

// ---- the network side ----

tlm::tlm_sync_enum RtlNetworkInterface::receive_flit(int port, noc::Flit& f, tlm::tlm_phase& ph,
                                                     sc_core::sc_time& d) {
  if (ph != tlm::BEGIN_REQ) throw std::runtime_error(std::string(name()) + ": unexpected phase");
  arrivals_[static_cast<size_t>(port)].push_back({f, (sc_core::sc_time_stamp() + d).value() / period_});
  return tlm::TLM_ACCEPTED;
}

tlm::tlm_sync_enum RtlNetworkInterface::receive_credit(int port, noc::Flit& c, tlm::tlm_phase& ph,
                                                       sc_core::sc_time& d) {
  if (ph != noc::CREDIT) throw std::runtime_error(std::string(name()) + ": unexpected phase");
  credits_[static_cast<size_t>(port)].push_back({c, (sc_core::sc_time_stamp() + d).value() / period_});
  return tlm::TLM_ACCEPTED;
}

void RtlNetworkInterface::start() {
  started_ = true;
  done_ = false;
  start_cycle_ = now_cycle();
  start_event_.notify(sc_core::SC_ZERO_TIME);  // this cycle, with start_i
}

// One clock cycle (SC_METHOD, every cycle from start() on).
void RtlNetworkInterface::cycle() {
  const uint64_t now = now_cycle();
  drive(now);
  model_->settle();
  dump(false);
  if (!fault().empty()) return;  // the run stops at the end of this delta cycle
  if (rtl_->error_o) {
    fail(fmt::format("NI {} (RTL): error_o in cycle {} at table entry {}: {}", node_, now,
                     static_cast<uint32_t>(rtl_->head_o), run_error_text(rtl_->error_cause_o)));
    return;
  }
  inject();
  return_credits();
  request_memory(now);
  const uint32_t head = rtl_->head_o;
  observe(now);
  model_->edge();
  dump(true);
  // The timestep the start edge reset the counter to, reported at start as the SystemC NI does.
  if (now == start_cycle_ && on_step) on_step(node_, rtl_->step_o, now);
  if (on_issue && rtl_->head_o != head && head < entries_.size()) {
    on_issue(node_, head, entries_[head], now);
  }
  next_trigger(sc_core::sc_time::from_value(period_));
}

void RtlNetworkInterface::drive(uint64_t now) {
  Vcosim_ni& d = *rtl_;
  d.start_i = started_ && now == start_cycle_;
  for (uint32_t p = 0; p < ports_; ++p) {
    std::deque<Timed>& in = arrivals_[p];
    const bool flit = !in.empty() && in.front().cycle <= now;
    // A link delivers one flit per cycle, and only to a started NI.
    if (flit && (in.front().cycle < now || (in.size() > 1 && in[1].cycle <= now))) {
      throw std::runtime_error(fmt::format(
          "NI {} (RTL): port {} has a flit usable in cycle {} and one in cycle {} (now {})",
          node_, p, in.front().cycle, in.size() > 1 ? in[1].cycle : in.front().cycle, now));
    }
    drive_rx_flit<kVcBits>(d, p, flit ? &in.front().flit : nullptr);
    if (flit) {
      in.pop_front();
      ++ejected_;
      ++trace_flits_in_[p];
      ++progress_;
    }
    std::deque<Timed>& cr = credits_[p];
    const bool credit = !cr.empty() && cr.front().cycle <= now;
    put(d.tx_credit_i, p, 1, credit);
    if (credit) {
      if (cr.size() > 1 && cr[1].cycle <= now) {
        throw std::runtime_error(fmt::format("NI {} (RTL): two credits on port {} in cycle {}",
                                             node_, p, now));
      }
      put(d.tx_credit_vc_i, kVcBits * p, kVcBits, cr.front().flit.vc);
      cr.pop_front();
    }
  }
  const bool rsp = !completions_.empty() && completions_.front().cycle == now;
  drive_mem_response<kMemWords>(d, rsp ? &completions_.front().data : nullptr);
  if (rsp) {
    completions_.pop_front();
    ++progress_;
  }
}

void RtlNetworkInterface::inject() {
  for (uint32_t p = 0; p < ports_; ++p) {
    if (!get(rtl_->tx_valid_o, p, 1)) continue;
    noc::Flit f = noc::unpack(tx_flit<kVcBits>(*rtl_, p));
    if (noc::is_head(f.type)) {
      const uint64_t bytes = f.type == noc::FlitType::kSubHead ? f.message_bytes : f.packet_bytes;
      f.length = static_cast<uint32_t>(1 + (bytes + noc::kFlitPayloadBytes - 1) / noc::kFlitPayloadBytes);
      ++heads_;
    }
    tlm::tlm_phase phase = tlm::BEGIN_REQ;
    sc_core::sc_time delay = local_delay_;
    (*out_[p])->nb_transport_fw(f, phase, delay);
    ++injected_;
    ++trace_flits_out_[p];
    ++progress_;
  }
}

void RtlNetworkInterface::return_credits() {
  for (uint32_t p = 0; p < ports_; ++p) {
    if (!get(rtl_->rx_credit_o, p, 1)) continue;
    credit_.vc = static_cast<uint8_t>(get(rtl_->rx_credit_vc_o, kVcBits * p, kVcBits));
    tlm::tlm_phase phase = noc::CREDIT;
    sc_core::sc_time delay = local_delay_;
    (*in_[p])->nb_transport_bw(credit_, phase, delay);
  }
}

// ---- the memory side ----

void RtlNetworkInterface::request_memory(uint64_t now) {
  if (!rtl_->mem_req_valid_o) return;
  MemRequest r = mem_request(*rtl_);
  tlm::tlm_generic_payload t;
  noc::set_plain_access(t, r.write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, r.addr,
                        reinterpret_cast<uint8_t*>(r.words.data()), r.len);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  mem_->b_transport(t, delay);
  if (t.is_response_error()) {
    throw std::runtime_error(fmt::format("NI {} (RTL): the memory refused a {}-byte {} at 0x{:x}: {}",
                                         node_, r.len, r.write ? "write" : "read", r.addr,
                                         t.get_response_string()));
  }
  Completion c;
  c.cycle = now + delay.value() / period_;
  if (!r.write) c.data = std::move(r.words);
  if (!completions_.empty() && c.cycle < completions_.back().cycle) {
    throw std::runtime_error(fmt::format("NI {} (RTL): the memory completes out of order", node_));
  }
  completions_.push_back(std::move(c));
  ++progress_;
}

// ---- status, observers ----

void RtlNetworkInterface::observe(uint64_t now) {
  if (rtl_->step_advance_o) {
    ++progress_;
    if (on_step) on_step(node_, static_cast<uint32_t>(rtl_->step_o) + 1, now);
  }
  const bool done = rtl_->done_o;
  if (done && !done_) done_cycle_ = now;
  done_ = done;
  trace_step_ = rtl_->step_o + rtl_->step_advance_o;
  trace_head_ = rtl_->head_o;
  trace_lockstep_ = rtl_->lockstep_o;
}

bool RtlNetworkInterface::counting(uint64_t) const { return rtl_->lockstep_o != 0; }

std::string RtlNetworkInterface::status() const {
  if (done_) return fmt::format("node {} (RTL): done at cycle {}", node_, done_cycle_);
  if (!started_) return fmt::format("node {} (RTL): not started", node_);
  std::string s = fmt::format("node {} (RTL): step {}, table entry {}, lockstep {}", node_,
                              static_cast<uint32_t>(rtl_->step_o), rtl_->head_o, rtl_->lockstep_o);
  if (rtl_->waiting_o) {
    s += fmt::format(", waits for op {} from node {}", static_cast<uint32_t>(rtl_->wait_op_o),
                     static_cast<uint32_t>(rtl_->wait_node_o));
  }
  return s;
}

void RtlNetworkInterface::trace(sc_core::sc_trace_file* tf) const {
  const std::string p = name();
  sc_core::sc_trace(tf, trace_step_, p + ".timestep");
  sc_core::sc_trace(tf, trace_lockstep_, p + ".lockstep");
  sc_core::sc_trace(tf, trace_head_, p + ".table_head");
  sc_core::sc_trace(tf, done_, p + ".done");
  for (size_t i = 0; i < ports_; ++i) {
    sc_core::sc_trace(tf, trace_flits_out_[i], fmt::format("{}.port_{}_flits_out", p, i));
    sc_core::sc_trace(tf, trace_flits_in_[i], fmt::format("{}.port_{}_flits_in", p, i));
  }
}

// ---- the table-write port ----

bool RtlNetworkInterface::accepted(const CfgResponse& r) const {
  const std::string fault = cfg_fault(r);
  if (!fault.empty()) throw std::runtime_error(fmt::format("NI {} (RTL): {}", node_, fault));
  return !r.error;
}

// The host's accesses, as word accesses on the cfg port (it has no byte enables: a write that
// ends inside a word writes zeros to the rest of that word).
void RtlNetworkInterface::config_access(tlm::tlm_generic_payload& t, sc_core::sc_time&) {
  namespace config = format::config;
  const uint64_t addr = t.get_address();
  const uint32_t len = t.get_data_length();
  uint8_t* data = t.get_data_ptr();
  t.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
  if (started_ || addr % 4 != 0 || len == 0 || addr + len > 0xffffffffull ||
      t.get_byte_enable_ptr() != nullptr || (!t.is_write() && !t.is_read())) {
    t.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    return;
  }
  if (t.is_write() && !accepted(cfg_write_bytes(*model_, static_cast<uint32_t>(addr), data, len))) {
    return;
  }
  for (uint32_t at = 0; t.is_read() && at < len; at += 4) {
    const CfgResponse r = cfg_access(*model_, false, static_cast<uint32_t>(addr + at), 0);
    if (!accepted(r)) return;
    std::memcpy(data + at, &r.data, std::min<uint32_t>(4, len - at));
  }
  if (t.is_write() && addr >= config::kImageBase && addr < config::kImageBase + config::kImageWindow) {
    const uint64_t end = addr - config::kImageBase + len;
    if (image_.size() < end) image_.resize(end);
    std::memcpy(image_.data() + (addr - config::kImageBase), data, len);
  }
  if (t.is_write() && addr == config::kRegLength && len == 4) std::memcpy(&length_, data, 4);
  if (t.is_write() && addr == config::kRegLoad) decode_loaded_table();
  t.set_response_status(tlm::TLM_OK_RESPONSE);
}

// The entries the RTL now holds, for on_issue: the image the host wrote, decoded in C++.
void RtlNetworkInterface::decode_loaded_table() {
  entries_.clear();
  if (table_status() != format::table_status::kLoaded) return;
  image_.resize(std::min<size_t>(length_, image_.size()));
  entries_ = decode_image(image_).table.entries;
}

uint32_t RtlNetworkInterface::table_status() const { return rtl_->table_status_o; }

std::string RtlNetworkInterface::table_error() const {
  const uint32_t cause = rtl_->table_error_cause_o;
  std::string s = fmt::format("the RTL table says error cause {}: {}", cause,
                              table_error_text(cause));
  try {
    decode_image(image_);
  } catch (const InputError& e) {
    s += fmt::format("; the C++ image decoder says: {}", e.what());
  }
  return s;
}

std::unique_ptr<noc::NiModel> build_rtl_ni(const std::string& name, const noc::NiSetup& setup) {
  return std::make_unique<RtlNetworkInterface>(name.c_str(), setup);
}

}  // namespace mt::cosim
