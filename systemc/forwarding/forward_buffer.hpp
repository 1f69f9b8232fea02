// The NI's forwarding buffer (NiConfig::forward, mtsim --ni-forward; systemc/ni/README.md,
// "Forwarding reduced data"): the sums the reduction unit produces, kept in the NI beside
// their write-back, so that a send of those bytes takes them from here instead of reading
// them back from the accelerator memory. A model experiment: the RTL NI has no such buffer.
//
// It holds bytes by address (a later sum of the same bytes replaces the earlier one) and
// counts how many it holds, which is the SRAM the hardware would need.
#pragma once

#include <array>
#include <bitset>
#include <cstdint>
#include <unordered_map>

namespace mt::noc {

class ForwardBuffer {
 public:
  // Holds [addr, addr + len) = data, replacing what it held of those bytes.
  void put(uint64_t addr, const uint8_t* data, uint64_t len);
  // Forgets [addr, addr + len) (what it held of it).
  void erase(uint64_t addr, uint64_t len);
  // Whether it holds every byte of [addr, addr + len).
  bool holds(uint64_t addr, uint64_t len) const;
  // Copies [addr, addr + len) out; throws std::logic_error unless holds(addr, len).
  void read(uint64_t addr, uint8_t* data, uint64_t len) const;

  uint64_t held_bytes() const { return held_; }
  // The most bytes held at once so far.
  uint64_t peak_bytes() const { return peak_; }

 private:
  static constexpr uint64_t kPage = 256;
  struct Page {
    std::array<uint8_t, kPage> data{};
    std::bitset<kPage> valid;
  };
  // Calls f(page base, offset in page, bytes, offset in [addr, addr + len)) for each page
  // [addr, addr + len) touches; addr + len may be 2^64.
  template <typename F>
  static void pieces(uint64_t addr, uint64_t len, F f);

  std::unordered_map<uint64_t, Page> pages_;
  uint64_t held_ = 0, peak_ = 0;
};

}  // namespace mt::noc
