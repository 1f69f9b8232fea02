// The memory port of the RTL NI (rtl/network_interface.sv): the access it asks for on
// mem_req_*_o in a cycle with mem_req_valid_o (its users hold mem_req_ready_i at 1, so it is
// taken in that cycle), and the completion driven on mem_rsp_*_i in the cycle the memory
// completes an access, in order.
#pragma once

#include <cstdint>
#include <vector>

namespace mt::cosim {

struct MemRequest {
  bool write = false;
  uint64_t addr = 0;
  uint32_t len = 0;             // bytes
  std::vector<uint32_t> words;  // a write's data, (len + 3) / 4 little-endian words; a read: 0s
};

template <class Model>
MemRequest mem_request(const Model& d) {
  MemRequest r;
  r.write = d.mem_req_write_o;
  r.addr = d.mem_req_addr_o;
  r.len = d.mem_req_len_o;
  r.words.resize((r.len + 3) / 4);
  if (r.write) {
    for (size_t w = 0; w < r.words.size(); ++w) r.words[w] = d.mem_req_wdata_o[w];
  }
  return r;
}

// This cycle's completion: mem_rsp_valid_i, and the read data `words` followed by zeros up
// to the bus's kBusWords (a write's completion has none); null `words`: no completion (the
// read data keep their values).
template <uint32_t kBusWords, class Model>
void drive_mem_response(Model& d, const std::vector<uint32_t>* words) {
  d.mem_rsp_valid_i = words != nullptr;
  if (words == nullptr) return;
  for (uint32_t w = 0; w < kBusWords; ++w) {
    d.mem_rsp_rdata_i[w] = w < words->size() ? (*words)[w] : 0;
  }
}

}  // namespace mt::cosim
