// The RTL NI (rtl/network_interface.sv, Verilated as the C++ class Vcosim_ni) behind the
// NiModel sockets, so a node of the SystemC all-reduce system can run the RTL instead of the
// SystemC NI (mtsim --rtl, --rtl-nodes).
//
// A plain Verilated model clocked from one SC_METHOD per node, not `verilator --sc`: the pins
// stay C++ integers (a 2048-bit memory bus and four 128-bit flit ports would otherwise be
// sc_bv signals, evaluated through the kernel every cycle), the table can be written through
// the cfg port at time 0 without advancing SystemC time (as tb/ does before its lockstep),
// and the cycle is exactly the one the lockstep bench checks (tb/network_interface_test.cpp).
//
// Per cycle c, after start(), in this order:
//   inputs   the flits and credits that became usable in cycle c (sent to this node with the
//            link's delay) on rx_*_i and tx_credit*_i, the memory completion of cycle c on
//            mem_rsp_*, start_i in the start cycle; then the combinational outputs settle
//   outputs  each tx_valid_o flit goes to the router with nb_transport_fw and each
//            rx_credit_o credit back with nb_transport_bw, both with the local link latency
//            (what the SystemC NI's Endpoint does); a mem_req_valid_o access is one
//            b_transport to the node's AccelMemory now (mem_req_ready_i is always 1), whose
//            read data wait here until the completion cycle it returns
//   edge     the rising clock edge
// The timestep observer sees step_o + 1 in a cycle with step_advance_o, as the SystemC NI
// reports its advance; an entry issues in the cycle after which head_o has moved past it.
//
// Normal packets' head flits get Flit::length = 1 + ceil(packet_bytes / 16): the VCT router
// model reserves room for the whole packet from that bookkeeping field, which a hardware
// router computes from the head's packet_bytes (the SystemC NI sets the same value).
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include <systemc>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "ni/ni_model.hpp"
#include "table/schedule_table.hpp"

class Vcosim_ni;

namespace mt::cosim {

template <class Model>
class ClockedModel;
struct CfgResponse;

class RtlNetworkInterface : public sc_core::sc_module, public noc::NiModel {
 public:
  // Throws mt::InputError when `setup` asks for something the RTL was not built for (its
  // parameters are cosim/CMakeLists.txt's MT_COSIM_NI_PARAMS), naming the field.
  RtlNetworkInterface(sc_core::sc_module_name name, const noc::NiSetup& setup);
  ~RtlNetworkInterface() override;

  FlitOut& flit_out(uint32_t port) override { return *out_.at(port); }
  FlitIn& flit_in(uint32_t port) override { return *in_.at(port); }
  tlm::tlm_initiator_socket<>& memory() override { return mem_; }
  tlm::tlm_target_socket<>& config() override { return config_; }
  uint32_t table_status() const override;
  std::string table_error() const override;
  void start() override;
  bool done() const override { return done_; }
  uint64_t done_cycle() const override { return done_cycle_; }
  uint64_t progress() const override { return progress_; }
  bool counting(uint64_t now) const override;
  uint64_t flits_injected() const override { return injected_; }
  uint64_t flits_ejected() const override { return ejected_; }
  uint64_t head_flits_injected() const override { return heads_; }
  std::optional<noc::NiPeaks> peaks() const override { return std::nullopt; }
  std::string status() const override;
  void trace(sc_core::sc_trace_file* tf) const override;

 private:
  using OutSocket = tlm_utils::simple_initiator_socket_tagged<RtlNetworkInterface, noc::kFlitBits,
                                                              noc::FlitProtocol>;
  using InSocket = tlm_utils::simple_target_socket_tagged<RtlNetworkInterface, noc::kFlitBits,
                                                          noc::FlitProtocol>;
  struct Timed {  // a flit or credit (its vc) and the cycle it becomes usable
    noc::Flit flit;
    uint64_t cycle = 0;
  };
  struct Completion {  // a memory access and the cycle it completes
    uint64_t cycle = 0;
    std::vector<uint32_t> data;  // read data, as mem_rsp_rdata_i's words
  };
  SC_HAS_PROCESS(RtlNetworkInterface);

  void cycle();
  void drive(uint64_t now);
  void inject();
  void return_credits();
  void request_memory(uint64_t now);
  void observe(uint64_t now);
  void dump(bool after_edge);
  uint64_t now_cycle() const;
  tlm::tlm_sync_enum receive_flit(int port, noc::Flit& f, tlm::tlm_phase& ph, sc_core::sc_time& d);
  tlm::tlm_sync_enum receive_credit(int port, noc::Flit& c, tlm::tlm_phase& ph,
                                    sc_core::sc_time& d);
  void config_access(tlm::tlm_generic_payload& t, sc_core::sc_time& delay);
  // Whether the RTL took a cfg port access without an error; throws when the port faulted.
  bool accepted(const CfgResponse& r) const;
  void decode_loaded_table();

  uint32_t node_;
  uint32_t ports_;
  uint64_t period_;      // sc_time units per cycle
  uint64_t period_ps_;   // picoseconds per cycle
  sc_core::sc_time local_delay_;
  std::unique_ptr<ClockedModel<Vcosim_ni>> model_;
  Vcosim_ni* rtl_ = nullptr;  // model_'s pins
  std::vector<std::unique_ptr<OutSocket>> out_;
  std::vector<std::unique_ptr<InSocket>> in_;
  tlm_utils::simple_initiator_socket<RtlNetworkInterface> mem_;
  tlm_utils::simple_target_socket<RtlNetworkInterface> config_;

  std::vector<std::deque<Timed>> arrivals_;  // per port
  std::vector<std::deque<Timed>> credits_;   // per port
  std::deque<Completion> completions_;
  std::vector<uint8_t> image_;     // what the host wrote into the image window
  uint32_t length_ = 0;            // and into LENGTH
  std::vector<TableEntry> entries_;  // the loaded table, for on_issue
  noc::Flit credit_;
  sc_core::sc_event start_event_;

  bool started_ = false, done_ = false;
  uint64_t start_cycle_ = 0, done_cycle_ = 0, progress_ = 0;
  uint64_t injected_ = 0, ejected_ = 0, heads_ = 0;
  // Traced copies of the status pins (sc_trace samples variables).
  uint32_t trace_step_ = 0, trace_head_ = 0, trace_lockstep_ = 0;
  std::vector<uint64_t> trace_flits_out_, trace_flits_in_;
};

// The NiBuilder for AllReduceOptions::rtl_ni.
std::unique_ptr<noc::NiModel> build_rtl_ni(const std::string& name, const noc::NiSetup& setup);

}  // namespace mt::cosim
