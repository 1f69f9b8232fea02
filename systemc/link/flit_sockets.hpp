// The sockets of the flit links (flit_protocol.hpp): a TLM-2.0 target socket that serves
// nb_transport_fw and an initiator socket that serves nb_transport_bw, each by calling one
// registered member function of its module (with a tag naming the port, or without).
//
// tlm_utils' simple sockets do the same with more layers on every call: a credit sent back
// through simple_target_socket goes through its backward process, which first looks the
// payload up in a map of blocking calls in flight and then calls the initiator socket's own
// process; the b_transport adapters they compile are never used here (no blocking transport).
// Here a flit or a credit costs one virtual call into the other side's socket and one call
// of the registered function. Both bind to any TLM-2.0 socket of the protocol (the RTL NI's
// transactor keeps tlm_utils' simple sockets).
#pragma once

#include <string>

#include <systemc>
#include <tlm>

#include "link/flit_protocol.hpp"

namespace mt::noc {

// The function of `Module` one socket calls: f(flit, phase, delay) or f(tag, flit, phase,
// delay).
template <typename Module>
class FlitCallback {
 public:
  using Plain = tlm::tlm_sync_enum (Module::*)(Flit&, tlm::tlm_phase&, sc_core::sc_time&);
  using Tagged = tlm::tlm_sync_enum (Module::*)(int, Flit&, tlm::tlm_phase&, sc_core::sc_time&);

  void set(Module* m, Plain f) {
    module_ = m;
    plain_ = f;
  }
  void set(Module* m, Tagged f, int tag) {
    module_ = m;
    tagged_ = f;
    tag_ = tag;
  }
  // `socket` names the socket in an error only: its name is not read on every call.
  tlm::tlm_sync_enum operator()(const sc_core::sc_object* socket, Flit& flit,
                                tlm::tlm_phase& phase, sc_core::sc_time& delay) const {
    if (tagged_ != nullptr) return (module_->*tagged_)(tag_, flit, phase, delay);
    if (plain_ == nullptr) {
      SC_REPORT_ERROR("mt/noc/link",
                      (std::string(socket->name()) + ": no function registered").c_str());
    }
    return (module_->*plain_)(flit, phase, delay);
  }

 private:
  Module* module_ = nullptr;
  Plain plain_ = nullptr;
  Tagged tagged_ = nullptr;
  int tag_ = 0;
};

template <typename Module>
class FlitTargetSocket : public tlm::tlm_target_socket<kFlitBits, FlitProtocol> {
 public:
  explicit FlitTargetSocket(const char* name)
      : tlm::tlm_target_socket<kFlitBits, FlitProtocol>(name), fw_(this) {
    tlm::tlm_target_socket<kFlitBits, FlitProtocol>::bind(fw_);
  }
  void register_nb_transport_fw(Module* m, typename FlitCallback<Module>::Plain f) {
    fw_.callback.set(m, f);
  }
  void register_nb_transport_fw(Module* m, typename FlitCallback<Module>::Tagged f, int tag) {
    fw_.callback.set(m, f, tag);
  }

 private:
  struct Fw : tlm::tlm_fw_transport_if<FlitProtocol> {
    explicit Fw(const sc_core::sc_object* s) : socket(s) {}
    tlm::tlm_sync_enum nb_transport_fw(Flit& flit, tlm::tlm_phase& phase,
                                       sc_core::sc_time& delay) override {
      return callback(socket, flit, phase, delay);
    }
    void b_transport(Flit&, sc_core::sc_time&) override { refuse("b_transport"); }
    bool get_direct_mem_ptr(Flit&, tlm::tlm_dmi&) override { return false; }
    unsigned int transport_dbg(Flit&) override { return 0; }
    void refuse(const char* what) const {
      SC_REPORT_ERROR("mt/noc/link",
                      (std::string(socket->name()) + ": flit links carry no " + what).c_str());
    }
    const sc_core::sc_object* socket;
    FlitCallback<Module> callback;
  };
  Fw fw_;
};

template <typename Module>
class FlitInitiatorSocket : public tlm::tlm_initiator_socket<kFlitBits, FlitProtocol> {
 public:
  explicit FlitInitiatorSocket(const char* name)
      : tlm::tlm_initiator_socket<kFlitBits, FlitProtocol>(name), bw_(this) {
    tlm::tlm_initiator_socket<kFlitBits, FlitProtocol>::bind(bw_);
  }
  void register_nb_transport_bw(Module* m, typename FlitCallback<Module>::Plain f) {
    bw_.callback.set(m, f);
  }
  void register_nb_transport_bw(Module* m, typename FlitCallback<Module>::Tagged f, int tag) {
    bw_.callback.set(m, f, tag);
  }

 private:
  struct Bw : tlm::tlm_bw_transport_if<FlitProtocol> {
    explicit Bw(const sc_core::sc_object* s) : socket(s) {}
    tlm::tlm_sync_enum nb_transport_bw(Flit& credit, tlm::tlm_phase& phase,
                                       sc_core::sc_time& delay) override {
      return callback(socket, credit, phase, delay);
    }
    void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override {}
    const sc_core::sc_object* socket;
    FlitCallback<Module> callback;
  };
  Bw bw_;
};

}  // namespace mt::noc
