// The sockets of the flit links (flit_protocol.hpp): a TLM-2.0 target socket that serves
// nb_transport_fw and an initiator socket that serves nb_transport_bw, each by calling one
// registered member function of its module (with a tag naming the port, or without).
//
// tlm_utils' simple sockets do the same with more layers on every call: a credit sent back
// through simple_target_socket goes through its backward process, which first looks the
// payload up in a map of blocking calls in flight and then calls the initiator socket's own
// process; the b_transport adapters they compile are never used here (no blocking transport).
// Here a flit or a credit costs one virtual call into the other side's socket and one call
// of a function that calls the registered one (FlitCallback). Both bind to any TLM-2.0
// socket of the protocol (the RTL NI's transactor keeps tlm_utils' simple sockets).
#pragma once

#include <string>

#include <systemc>
#include <tlm>

#include "link/flit_peer.hpp"
#include "link/flit_protocol.hpp"

namespace mt::noc {

// What a socket's interface tells the module bound to it about the module behind it: a peer to
// call directly (flit_peer.hpp), or none (call through TLM).
struct FlitPeerRef {
  FlitPeer* peer = nullptr;
  unsigned port = 0;    // the peer's port the link is
  uint64_t period = 0;  // the peer's clock period (sc_time::value())
};

// The peer behind a bound interface, if the interface is one of the sockets below, its module
// named itself the peer (set_flit_peer) and runs on a clock of `period` (a peer on another
// clock would count the latency in cycles of its own); empty otherwise: call through TLM.
template <typename Interface>
FlitPeerRef flit_peer_of(Interface* bound, uint64_t period) {
  const FlitPeerRef* ref = dynamic_cast<const FlitPeerRef*>(bound);
  return ref != nullptr && ref->period == period ? *ref : FlitPeerRef{};
}

// Hands a flit on VC `vc` to the receiver behind `fw`: directly with the cycle it is usable
// from when the receiver is a peer (`usable`: the current cycle plus `delay` in cycles), through
// nb_transport_fw with `delay` and flit.vc = vc otherwise.
inline void hand_flit(const FlitPeerRef& peer, tlm::tlm_fw_transport_if<FlitProtocol>* fw,
                      Flit& flit, uint8_t vc, uint64_t usable, const sc_core::sc_time& delay) {
  if (peer.peer != nullptr) {
    peer.peer->accept_flit(peer.port, flit, vc, usable);
    return;
  }
  flit.vc = vc;
  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  sc_core::sc_time d = delay;
  fw->nb_transport_fw(flit, phase, d);
}

// The same for a credit for VC `vc` to the sender behind `bw` (`scratch` carries it over TLM).
inline void hand_credit(const FlitPeerRef& peer, tlm::tlm_bw_transport_if<FlitProtocol>* bw,
                        Flit& scratch, uint8_t vc, uint64_t usable,
                        const sc_core::sc_time& delay) {
  if (peer.peer != nullptr) {
    peer.peer->accept_credit(peer.port, vc, usable);
    return;
  }
  scratch.vc = vc;
  tlm::tlm_phase phase = CREDIT;
  sc_core::sc_time d = delay;
  bw->nb_transport_bw(scratch, phase, d);
}

// The function of `Module` one socket calls: f(flit, phase, delay) or f(tag, flit, phase,
// delay). Named as a template argument (set<&Module::f>), the call is one indirect call of a
// function that calls f directly; given at run time (a pointer to member), it goes through
// that pointer too. A flit or credit is the model's most frequent call, so the routers and
// endpoints name theirs as template arguments.
template <typename Module>
class FlitCallback {
 public:
  using Phase = tlm::tlm_phase;
  using Time = sc_core::sc_time;
  using Plain = tlm::tlm_sync_enum (Module::*)(Flit&, Phase&, Time&);
  using Tagged = tlm::tlm_sync_enum (Module::*)(int, Flit&, Phase&, Time&);

  // `socket` names the socket in an error only.
  explicit FlitCallback(const sc_core::sc_object* socket) : socket_(socket) {}

  template <Plain F>
  void set(Module* m) {
    module_ = m;
    call_ = [](const FlitCallback& c, Flit& flit, Phase& phase, Time& delay) {
      return (c.module_->*F)(flit, phase, delay);
    };
  }
  template <Tagged F>
  void set(Module* m, int tag) {
    module_ = m;
    tag_ = tag;
    call_ = [](const FlitCallback& c, Flit& flit, Phase& phase, Time& delay) {
      return (c.module_->*F)(c.tag_, flit, phase, delay);
    };
  }
  void set(Module* m, Plain f) {
    module_ = m;
    plain_ = f;
    call_ = [](const FlitCallback& c, Flit& flit, Phase& phase, Time& delay) {
      return (c.module_->*c.plain_)(flit, phase, delay);
    };
  }
  void set(Module* m, Tagged f, int tag) {
    module_ = m;
    tagged_ = f;
    tag_ = tag;
    call_ = [](const FlitCallback& c, Flit& flit, Phase& phase, Time& delay) {
      return (c.module_->*c.tagged_)(c.tag_, flit, phase, delay);
    };
  }

  tlm::tlm_sync_enum operator()(Flit& flit, Phase& phase, Time& delay) const {
    return call_(*this, flit, phase, delay);
  }

 private:
  using Call = tlm::tlm_sync_enum (*)(const FlitCallback&, Flit&, Phase&, Time&);
  static tlm::tlm_sync_enum unset(const FlitCallback& c, Flit&, Phase&, Time&) {
    SC_REPORT_ERROR("mt/noc/link",
                    (std::string(c.socket_->name()) + ": no function registered").c_str());
    return tlm::TLM_COMPLETED;
  }

  const sc_core::sc_object* socket_;
  Call call_ = &unset;
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
  // The same with the function as a template argument: register_nb_transport_fw<&M::f>(m),
  // or (m, tag).
  template <auto F, typename... Tag>
  void register_nb_transport_fw(Module* m, Tag... tag) {
    fw_.callback.template set<F>(m, tag...);
  }
  // Senders bound to this socket may call peer->accept_flit(port, ...) instead of
  // nb_transport_fw: the registered function does what that does (flit_peer.hpp).
  void set_flit_peer(FlitPeer* peer, unsigned port, uint64_t clock_period) {
    fw_.peer = peer;
    fw_.port = port;
    fw_.period = clock_period;
  }

 private:
  struct Fw : tlm::tlm_fw_transport_if<FlitProtocol>, FlitPeerRef {
    explicit Fw(const sc_core::sc_object* s) : socket(s), callback(s) {}
    tlm::tlm_sync_enum nb_transport_fw(Flit& flit, tlm::tlm_phase& phase,
                                       sc_core::sc_time& delay) override {
      return callback(flit, phase, delay);
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
  // The same with the function as a template argument: register_nb_transport_bw<&M::f>(m),
  // or (m, tag).
  template <auto F, typename... Tag>
  void register_nb_transport_bw(Module* m, Tag... tag) {
    bw_.callback.template set<F>(m, tag...);
  }
  // Receivers bound to this socket may call peer->accept_credit(port, ...) instead of
  // nb_transport_bw: the registered function does what that does (flit_peer.hpp).
  void set_flit_peer(FlitPeer* peer, unsigned port, uint64_t clock_period) {
    bw_.peer = peer;
    bw_.port = port;
    bw_.period = clock_period;
  }

 private:
  struct Bw : tlm::tlm_bw_transport_if<FlitProtocol>, FlitPeerRef {
    explicit Bw(const sc_core::sc_object* s) : callback(s) {}
    tlm::tlm_sync_enum nb_transport_bw(Flit& credit, tlm::tlm_phase& phase,
                                       sc_core::sc_time& delay) override {
      return callback(credit, phase, delay);
    }
    void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override {}
    FlitCallback<Module> callback;
  };
  Bw bw_;
};

}  // namespace mt::noc
