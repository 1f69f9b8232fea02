// The flit link sockets (link/flit_sockets.hpp): a function registered as a template argument
// or at run time, with a tag or without, is called with the flit, phase, delay and tag it is
// given and its answer is returned; a socket with no function registered reports an error
// naming itself.
#include <memory>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "link/flit_sockets.hpp"
#include "sim_test_util.hpp"

namespace mt::noc {
namespace {

using FlitSockets = test::SimTest;

struct Call {
  int tag;
  uint64_t packet;
  uint64_t delay;
};

// Four target sockets and four initiator sockets, one per way of registering.
class Receiver : public sc_core::sc_module {
 public:
  explicit Receiver(sc_core::sc_module_name name) : sc_module(name) {
    for (int i = 0; i < 4; ++i) {
      in.push_back(std::make_unique<FlitTargetSocket<Receiver>>(fmt::format("in{}", i).c_str()));
      out.push_back(
          std::make_unique<FlitInitiatorSocket<Receiver>>(fmt::format("out{}", i).c_str()));
    }
    in[0]->register_nb_transport_fw<&Receiver::plain>(this);
    in[1]->register_nb_transport_fw<&Receiver::tagged>(this, 11);
    in[2]->register_nb_transport_fw(this, &Receiver::plain);
    in[3]->register_nb_transport_fw(this, &Receiver::tagged, 13);
    out[0]->register_nb_transport_bw<&Receiver::plain>(this);
    out[1]->register_nb_transport_bw<&Receiver::tagged>(this, 21);
    out[2]->register_nb_transport_bw(this, &Receiver::plain);
    out[3]->register_nb_transport_bw(this, &Receiver::tagged, 23);
  }
  std::vector<std::unique_ptr<FlitTargetSocket<Receiver>>> in;
  std::vector<std::unique_ptr<FlitInitiatorSocket<Receiver>>> out;
  std::vector<Call> calls;

 private:
  tlm::tlm_sync_enum plain(Flit& f, tlm::tlm_phase&, sc_core::sc_time& d) {
    calls.push_back({-1, f.packet, d.value()});
    return tlm::TLM_ACCEPTED;
  }
  tlm::tlm_sync_enum tagged(int tag, Flit& f, tlm::tlm_phase&, sc_core::sc_time& d) {
    calls.push_back({tag, f.packet, d.value()});
    return tlm::TLM_COMPLETED;
  }
};

// The other ends: `sockets` plain TLM socket pairs of the flit protocol.
struct Sender : sc_core::sc_module, tlm::tlm_bw_transport_if<FlitProtocol>,
                tlm::tlm_fw_transport_if<FlitProtocol> {
  Sender(sc_core::sc_module_name name, int sockets) : sc_module(name) {
    for (int i = 0; i < sockets; ++i) {
      out.push_back(std::make_unique<tlm::tlm_initiator_socket<kFlitBits, FlitProtocol>>(
          fmt::format("out{}", i).c_str()));
      in.push_back(std::make_unique<tlm::tlm_target_socket<kFlitBits, FlitProtocol>>(
          fmt::format("in{}", i).c_str()));
      out.back()->bind(*this);
      in.back()->bind(*this);
    }
  }
  tlm::tlm_sync_enum nb_transport_bw(Flit&, tlm::tlm_phase&, sc_core::sc_time&) override {
    return tlm::TLM_ACCEPTED;
  }
  void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override {}
  tlm::tlm_sync_enum nb_transport_fw(Flit&, tlm::tlm_phase&, sc_core::sc_time&) override {
    return tlm::TLM_ACCEPTED;
  }
  void b_transport(Flit&, sc_core::sc_time&) override {}
  bool get_direct_mem_ptr(Flit&, tlm::tlm_dmi&) override { return false; }
  unsigned int transport_dbg(Flit&) override { return 0; }
  std::vector<std::unique_ptr<tlm::tlm_initiator_socket<kFlitBits, FlitProtocol>>> out;
  std::vector<std::unique_ptr<tlm::tlm_target_socket<kFlitBits, FlitProtocol>>> in;
};

TEST_F(FlitSockets, EveryWayOfRegisteringCallsTheFunctionWithItsTag) {
  Receiver r("r");
  Sender s("s", 4);
  for (int i = 0; i < 4; ++i) {
    s.out[i]->bind(*r.in[i]);
    r.out[i]->bind(*s.in[i]);
  }
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  std::vector<tlm::tlm_sync_enum> answers;
  for (int i = 0; i < 4; ++i) {
    Flit f;
    f.packet = 100 + static_cast<uint64_t>(i);
    tlm::tlm_phase phase = tlm::BEGIN_REQ;
    sc_core::sc_time delay = sc_core::sc_time::from_value(1000 + static_cast<uint64_t>(i));
    answers.push_back((*s.out[i])->nb_transport_fw(f, phase, delay));
  }
  for (int i = 0; i < 4; ++i) {
    Flit c;
    c.packet = 200 + static_cast<uint64_t>(i);
    tlm::tlm_phase phase = CREDIT;
    sc_core::sc_time delay = sc_core::sc_time::from_value(2000 + static_cast<uint64_t>(i));
    answers.push_back((*s.in[i])->nb_transport_bw(c, phase, delay));
  }
  const std::vector<int> tags = {-1, 11, -1, 13, -1, 21, -1, 23};
  ASSERT_EQ(r.calls.size(), tags.size());
  for (size_t k = 0; k < tags.size(); ++k) {
    const uint64_t i = k % 4, base = k < 4 ? 100 : 200;
    EXPECT_EQ(r.calls[k].tag, tags[k]) << k;
    EXPECT_EQ(r.calls[k].packet, base + i) << k;
    EXPECT_EQ(r.calls[k].delay, base * 10 + i) << k;
    EXPECT_EQ(answers[k], tags[k] < 0 ? tlm::TLM_ACCEPTED : tlm::TLM_COMPLETED) << k;
  }
}

struct Unregistered : sc_core::sc_module {
  explicit Unregistered(sc_core::sc_module_name name)
      : sc_module(name), in("in"), out("out") {}
  FlitTargetSocket<Unregistered> in;
  FlitInitiatorSocket<Unregistered> out;
};

TEST_F(FlitSockets, ASocketWithNoFunctionReportsItsName) {
  Unregistered u("u");
  Sender s("s", 1);
  s.out[0]->bind(u.in);
  u.out.bind(*s.in[0]);
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  Flit f;
  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  sc_core::sc_time delay;
  try {
    (*s.out[0])->nb_transport_fw(f, phase, delay);
    ADD_FAILURE() << "no error";
  } catch (const sc_core::sc_report& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("u.in: no function registered"));
  }
  try {
    (*s.in[0])->nb_transport_bw(f, phase, delay);
    ADD_FAILURE() << "no error";
  } catch (const sc_core::sc_report& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("u.out: no function registered"));
  }
}

}  // namespace
}  // namespace mt::noc
