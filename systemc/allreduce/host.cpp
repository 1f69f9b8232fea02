#include "allreduce/host.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "memory/plain_access.hpp"
#include "ni/schedule_table.hpp"

namespace mt::noc {

Host::Host(sc_core::sc_module_name name, const std::vector<NiModel*>& nis,
           const std::vector<std::vector<uint8_t>>& images)
    : sc_module(name), nis_(nis), images_(images) {
  for (size_t n = 0; n < nis_.size(); ++n) {
    sockets_.push_back(std::make_unique<Socket>(fmt::format("config_{}", n).c_str()));
    sockets_.back()->bind(nis_[n]->config());
  }
  // A method, run once at initialization (no sensitivity): the loads take no simulated time,
  // and a method runs on the kernel's stack (no thread stack for a sanitizer to lose).
  SC_METHOD(load_and_start);
}

void Host::access(size_t n, tlm::tlm_command cmd, uint64_t addr, uint8_t* data, unsigned len) {
  tlm::tlm_generic_payload t;
  set_plain_access(t, cmd, addr, data, len);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  (*sockets_[n])->b_transport(t, delay);
  if (t.is_response_error()) {
    throw std::runtime_error(fmt::format("host: NI {} refused an access at 0x{:x}: {}", n, addr,
                                         t.get_response_string()));
  }
}

void Host::write32(size_t n, uint64_t addr, uint32_t v) {
  uint8_t b[4] = {uint8_t(v), uint8_t(v >> 8), uint8_t(v >> 16), uint8_t(v >> 24)};
  access(n, tlm::TLM_WRITE_COMMAND, addr, b, 4);
}

void Host::load_and_start() {
  for (size_t n = 0; n < nis_.size(); ++n) {
    std::vector<uint8_t> image = images_[n];
    if (image.size() > NiScheduleTable::kImageWindow) {
      error_ = fmt::format("the table image of node {} has {} bytes; the NI holds {}", n,
                           image.size(), NiScheduleTable::kImageWindow);
      sc_core::sc_stop();
      return;
    }
    access(n, tlm::TLM_WRITE_COMMAND, NiScheduleTable::kImageBase, image.data(),
           static_cast<unsigned>(image.size()));
    write32(n, NiScheduleTable::kRegLength, static_cast<uint32_t>(image.size()));
    write32(n, NiScheduleTable::kRegLoad, 1);
    if (nis_[n]->table_status() != NiScheduleTable::kStatusLoaded) {
      error_ = fmt::format("NI {} rejected its table image: {}", n, nis_[n]->table_error());
      sc_core::sc_stop();
      return;
    }
  }
  for (NiModel* ni : nis_) ni->start();
}

}  // namespace mt::noc
