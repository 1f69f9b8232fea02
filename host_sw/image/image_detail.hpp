// Internals shared by the image codec's source files (binary, hex, json, image sets). Not part
// of the public API.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "image/image.hpp"

namespace mt::image_detail {

// Number of bits needed to write v (0 for 0), i.e. C++20 std::bit_width.
uint32_t bit_width(uint64_t v);
bool fits(uint64_t v, uint32_t bits);
uint64_t all_ones(uint32_t bits);

// Writes an entry's fields one after the other, LSB-first from a byte boundary: bit b of the
// entry is bit b % 8 of byte b / 8 (IMAGE_FORMAT.md). It keeps the bits in a 64-bit word and
// stores each word, little-endian, once it is full, and never reads the destination back: a
// plan on torus:64x64 encodes 3.4e7 entries, and reading back bytes just stored at another
// offset stalls the processor. finish() stores the last word whole, so up to 8 bytes past the
// last field are written (zeros above the fields): leave that slack after the last entry, and
// write the entries in order, each over what the one before spilled.
class BitWriter {
 public:
  explicit BitWriter(uint8_t* out) : out_(out) {}
  // The low `width` bits of value (width 0..64; a zero-width step field writes nothing).
  void put(uint64_t value, uint32_t width) {
    if (width < 64) value &= (uint64_t{1} << width) - 1;
    word_ |= value << used_;  // used_ < 64
    const uint32_t total = used_ + width;
    if (total < 64) {
      used_ = total;
      return;
    }
    store();
    word_ = used_ == 0 ? 0 : value >> (64 - used_);  // the bits that did not fit
    used_ = total - 64;
  }
  void finish() {
    if (used_ > 0) store();
  }

 private:
  void store() {
    for (uint32_t b = 0; b < 8; ++b) out_[b] = static_cast<uint8_t>(word_ >> (8 * b));
    out_ += 8;
  }

  uint8_t* out_;
  uint64_t word_ = 0;
  uint32_t used_ = 0;  // bits of word_ in use
};
uint64_t get_bits(const uint8_t* base, uint64_t bit, uint32_t width);

void put_le(std::vector<uint8_t>& out, uint64_t v, uint32_t bytes);
uint64_t get_le(const uint8_t* p, uint32_t bytes);

// The widths implied by a table set's parameters; InputError when there are none.
ImageLayout derive_layout(uint64_t nodes, uint64_t flows, uint64_t steps_per_phase,
                          uint64_t children_slots, uint64_t addr_bits, uint64_t size_bits);

// Bit offset of each field inside an entry.
struct FieldOffsets {
  uint32_t op, flow, parent, child0, step, start_addr, size;
};
FieldOffsets field_offsets(const ImageLayout& l);

// The set-wide values an entry is checked against.
struct EntryLimits {
  uint32_t nodes = 0;
  uint32_t flows = 0;
  uint32_t steps_per_phase = 0;
  uint32_t children_slots = 0;
  uint64_t bytes = 0;
  uint64_t base_addr = 0;
};

// Names an entry in messages, e.g. "schedule image (node 3), entry 5"; formatted only when a
// message is (large tables have millions of entries).
struct EntryWhere {
  const std::string& context;
  size_t index;
  std::string str() const;
};

// The semantic checks shared by encoder and decoder (the decoder first turns all-ones node
// fields into kNil).
void check_entry(const TableEntry& e, const EntryLimits& lim, const EntryWhere& where);

// True when [base, base + bytes) does not wrap past 2^64.
bool buffer_fits(uint64_t base_addr, uint64_t bytes);

// The header fields in file order (magic first), with name, byte offset and size.
using HeaderField = format::ByteField;

// A header field's value (little-endian) and how to write one into a header-sized buffer.
uint64_t get_field(const uint8_t* header, const HeaderField& f);
void put_field(std::vector<uint8_t>& header, const HeaderField& f, uint64_t v);

// set.tables[node], checked to be node's table of a set with a table for every node (after the
// layout of set and opt: InputError as encode_image).
const ScheduleTable& node_table(const TableSet& set, uint32_t node, const ImageOptions& opt);

// Serialises a header (crc32 field as stored in h) into exactly kImageHeaderBytes bytes.
std::vector<uint8_t> header_bytes(const ImageHeader& h);

}  // namespace mt::image_detail
