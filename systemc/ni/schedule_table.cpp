#include "ni/schedule_table.hpp"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>

#include <fmt/format.h>

#include "common/error.hpp"
#include "image/image.hpp"

namespace mt::noc {

NiScheduleTable::NiScheduleTable(sc_core::sc_module_name name, uint32_t node, uint32_t nodes,
                                 uint32_t capacity)
    : sc_core::sc_module(name), config("config"), node_(node), nodes_(nodes),
      capacity_(capacity) {
  config.register_b_transport(this, &NiScheduleTable::b_transport);
  config.register_transport_dbg(this, &NiScheduleTable::transport_dbg);
}

bool NiScheduleTable::install(const std::vector<uint8_t>& image) {
  try {
    DecodedImage decoded = decode_image(image, ImageExpect{node_, nodes_});
    if (decoded.table.entries.size() > capacity_) {
      throw InputError(fmt::format("{} entries, more than the RTL table's {} "
                                   "(NiConfig::table_entries)",
                                   decoded.table.entries.size(), capacity_));
    }
    table_ = std::move(decoded.table);
    steps_per_phase_ = decoded.header.steps_per_phase;
    children_slots_ = decoded.header.children_slots;
    status_ = kStatusLoaded;
    error_.clear();
    return true;
  } catch (const InputError& e) {
    status_ = kStatusError;  // the installed table, if any, stays
    error_ = e.what();
    return false;
  }
}

void NiScheduleTable::load_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(fmt::format("{}: cannot open the schedule image", path));
  const std::vector<uint8_t> image{std::istreambuf_iterator<char>(in),
                                   std::istreambuf_iterator<char>()};
  if (!install(image)) throw InputError(fmt::format("{}: {}", path, error_));
}

unsigned int NiScheduleTable::transport_dbg(tlm::tlm_generic_payload& trans) {
  sc_core::sc_time none = sc_core::SC_ZERO_TIME;
  b_transport(trans, none);
  return trans.is_response_ok() ? trans.get_data_length() : 0;
}

void NiScheduleTable::window_access(uint64_t offset, uint8_t* data, uint32_t len, bool write) {
  if (write) {
    if (window_.size() < offset + len) window_.resize(offset + len, 0);
    std::memcpy(window_.data() + offset, data, len);
    return;
  }
  const uint64_t held =
      offset < window_.size() ? std::min<uint64_t>(len, window_.size() - offset) : 0;
  if (held != 0) std::memcpy(data, window_.data() + offset, held);
  std::memset(data + held, 0, len - held);
}

void NiScheduleTable::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time&) {
  const uint64_t addr = trans.get_address();
  const uint32_t len = trans.get_data_length();
  uint8_t* data = trans.get_data_ptr();
  const bool write = trans.is_write();
  trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
  if (trans.get_byte_enable_ptr() != nullptr || (!write && !trans.is_read())) {
    trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    return;
  }
  if (addr >= kImageBase && addr + len <= kImageBase + kImageWindow) {
    window_access(addr - kImageBase, data, len, write);
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }
  if (len != 4) return;  // registers are 32 bits wide
  uint32_t value = 0;
  if (write) std::memcpy(&value, data, 4);
  switch (addr) {
    case kRegLength:
      if (!write || value > kImageWindow) return;
      length_ = value;
      break;
    case kRegLoad:
      if (!write || value != 1) return;
      if (window_.size() < length_) window_.resize(length_, 0);
      install({window_.begin(), window_.begin() + length_});
      break;
    case kRegStatus:
      if (write) return;
      value = status_;
      break;
    case kRegEntries:
      if (write) return;
      value = static_cast<uint32_t>(table_.entries.size());
      break;
    default:
      return;
  }
  if (!write) std::memcpy(data, &value, 4);
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

}  // namespace mt::noc
