// The host processor of the all-reduce system: writes every NI's table image through its
// configuration target, checks that the NI took it, and starts the all-reduce (paper §IV-A:
// "the schedule table is initialized; the timestep and lockstep counters are reset by the
// processor"). All of it at simulation time 0; every NI then runs from cycle 1.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <systemc>
#include <tlm_utils/simple_initiator_socket.h>

#include "ni/ni_model.hpp"

namespace mt::noc {

class Host : public sc_core::sc_module {
 public:
  // `images[n]` is node n's table image; both vectors outlive the host.
  Host(sc_core::sc_module_name name, const std::vector<NiModel*>& nis,
       const std::vector<std::vector<uint8_t>>& images);
  // Why an NI was not loaded (the simulation stops); empty when all were.
  const std::string& error() const { return error_; }

 private:
  using Socket = tlm_utils::simple_initiator_socket_tagged<Host>;
  SC_HAS_PROCESS(Host);
  void access(size_t n, tlm::tlm_command cmd, uint64_t addr, uint8_t* data, unsigned len);
  void write32(size_t n, uint64_t addr, uint32_t v);
  void load_and_start();

  std::vector<NiModel*> nis_;
  const std::vector<std::vector<uint8_t>>& images_;
  std::vector<std::unique_ptr<Socket>> sockets_;
  std::string error_;
};

}  // namespace mt::noc
