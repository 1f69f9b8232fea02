// Binary schedule images (version 1) and the helpers the other image formats share.
#include "image/image.hpp"

#include <fmt/format.h>
#include <zlib.h>

#include <algorithm>
#include <limits>

#include "common/error.hpp"
#include "image/image_detail.hpp"

namespace mt {
namespace image_detail {

uint32_t bit_width(uint64_t v) {
  uint32_t n = 0;
  for (; v != 0; v >>= 1) ++n;
  return n;
}

bool fits(uint64_t v, uint32_t bits) { return bits >= 64 || (v >> bits) == 0; }

uint64_t all_ones(uint32_t bits) {
  return bits >= 64 ? std::numeric_limits<uint64_t>::max() : (uint64_t{1} << bits) - 1;
}

uint64_t get_bits(const uint8_t* base, uint64_t bit, uint32_t width) {
  uint64_t v = 0;
  for (uint32_t done = 0; done < width;) {
    const uint32_t shift = static_cast<uint32_t>(bit % 8);
    const uint32_t take = std::min(width - done, 8 - shift);
    const uint64_t part = (base[bit / 8] >> shift) & ((1u << take) - 1);
    v |= part << done;
    bit += take;
    done += take;
  }
  return v;
}

void put_le(std::vector<uint8_t>& out, uint64_t v, uint32_t bytes) {
  for (uint32_t i = 0; i < bytes; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

uint64_t get_le(const uint8_t* p, uint32_t bytes) {
  uint64_t v = 0;
  for (uint32_t i = 0; i < bytes; ++i) v |= uint64_t{p[i]} << (8 * i);
  return v;
}

ImageLayout derive_layout(uint64_t nodes, uint64_t flows, uint64_t steps_per_phase,
                          uint64_t children_slots, uint64_t addr_bits, uint64_t size_bits) {
  if (nodes == 0) throw InputError("nodes = 0: a table set needs at least one node");
  if (children_slots > 255) {
    throw InputError(fmt::format(
        "children_slots K = {} exceeds 255 (a u8 in the image header)", children_slots));
  }
  if (addr_bits < 1 || addr_bits > 64) {
    throw InputError(fmt::format("addr_bits = {} is outside 1..64", addr_bits));
  }
  if (size_bits < 1 || size_bits > 64) {
    throw InputError(fmt::format("size_bits = {} is outside 1..64", size_bits));
  }
  ImageLayout l;
  l.children_slots = static_cast<uint32_t>(children_slots);
  l.op_bits = kImageOpBits;
  l.flow_bits = std::max<uint32_t>(1, bit_width(flows == 0 ? 0 : flows - 1));
  l.node_bits = bit_width(nodes);
  l.step_bits = bit_width(2 * steps_per_phase);
  l.addr_bits = static_cast<uint32_t>(addr_bits);
  l.size_bits = static_cast<uint32_t>(size_bits);
  const uint64_t bits = uint64_t{l.op_bits} + l.flow_bits +
                        uint64_t{l.node_bits} * (1 + children_slots) + l.step_bits +
                        l.addr_bits + l.size_bits;
  if (bits > std::numeric_limits<uint16_t>::max()) {
    throw InputError(fmt::format(
        "an entry would be {} bits wide, more than the 65535 the u16 entry_bits holds", bits));
  }
  l.entry_bits = static_cast<uint32_t>(bits);
  l.entry_bytes = (l.entry_bits + 7) / 8;
  return l;
}

FieldOffsets field_offsets(const ImageLayout& l) {
  FieldOffsets o{};
  o.op = 0;
  o.flow = o.op + l.op_bits;
  o.parent = o.flow + l.flow_bits;
  o.child0 = o.parent + l.node_bits;
  o.step = o.child0 + l.node_bits * l.children_slots;
  o.start_addr = o.step + l.step_bits;
  o.size = o.start_addr + l.addr_bits;
  return o;
}

bool buffer_fits(uint64_t base_addr, uint64_t bytes) {
  // The end may be exactly 2^64; only a buffer that extends past it wraps.
  return bytes == 0 || bytes - 1 <= std::numeric_limits<uint64_t>::max() - base_addr;
}

std::string EntryWhere::str() const { return fmt::format("{}, entry {}", context, index); }

void check_entry(const TableEntry& e, const EntryLimits& lim, const EntryWhere& where) {
  auto fail = [&](const std::string& field, const std::string& msg) {
    throw InputError(fmt::format("{}, field {}: {}", where.str(), field, msg));
  };
  const auto code = static_cast<uint32_t>(e.op);
  if (e.op != Op::kNop && e.op != Op::kReduce && e.op != Op::kGather && e.op != Op::kPut) {
    fail("op", fmt::format("code {} is not an op (0 nop, 1 reduce, 2 gather, 3 put)", code));
  }
  if (e.flow >= lim.flows) {
    fail("flow", fmt::format("{} is not below flows = {}", e.flow, lim.flows));
  }
  if (e.parent != kNil && e.parent >= lim.nodes) {
    fail("parent", fmt::format("{} is neither a node (nodes = {}) nor nil", e.parent, lim.nodes));
  }
  if (e.children.size() > lim.children_slots) {
    fail("children", fmt::format("{} children, more than children_slots K = {}",
                                 e.children.size(), lim.children_slots));
  }
  for (size_t k = 0; k < e.children.size(); ++k) {
    const uint32_t c = e.children[k];
    if (c == kNil) {
      fail(fmt::format("children[{}]", k), "nil in the list of used children");
    }
    if (c >= lim.nodes) {
      fail(fmt::format("children[{}]", k),
           fmt::format("{} is not a node (nodes = {})", c, lim.nodes));
    }
  }
  const uint64_t last_step = 2 * uint64_t{lim.steps_per_phase};
  if (e.step == 0 || e.step > last_step) {
    fail("step", fmt::format("{} is outside 1..{} (2 * steps_per_phase)", e.step, last_step));
  }
  if (e.op == Op::kNop && e.parent != kNil) {
    fail("parent", fmt::format("a nop must have parent nil, this one has {}", e.parent));
  }
  if (e.start_addr < lim.base_addr) {
    fail("start_addr",
         fmt::format("{:#x} is below base_addr {:#x}", e.start_addr, lim.base_addr));
  }
  const uint64_t offset = e.start_addr - lim.base_addr;
  if (offset > lim.bytes || e.size > lim.bytes - offset) {
    fail("start_addr/size",
         fmt::format("[{:#x}, +{:#x}) ends past the buffer end (base_addr {:#x} + bytes {:#x})",
                     e.start_addr, e.size, lim.base_addr, lim.bytes));
  }
  // No plan sends an empty chunk (the verifier rejects empty transfers), and the NI's
  // hardware has no zero-length memory access or message: refuse them here.
  if (e.op != Op::kNop && e.size == 0) {
    fail("size", fmt::format("0: a {} entry must move at least one byte", op_name(e.op)));
  }
}

namespace hf = format::image::field;

void put_field(std::vector<uint8_t>& header, const HeaderField& f, uint64_t v) {
  for (uint32_t i = 0; i < f.bytes; ++i) header[f.offset + i] = static_cast<uint8_t>(v >> (8 * i));
}

uint64_t get_field(const uint8_t* header, const HeaderField& f) {
  return get_le(header + f.offset, f.bytes);
}

std::vector<uint8_t> header_bytes(const ImageHeader& h) {
  std::vector<uint8_t> out(kImageHeaderBytes, 0);
  std::copy(h.magic.begin(), h.magic.end(), out.begin() + hf::kMagic.offset);
  put_field(out, hf::kVersion, h.version);
  put_field(out, hf::kHeaderBytes, h.header_bytes);
  put_field(out, hf::kNodeId, h.node_id);
  put_field(out, hf::kNodes, h.nodes);
  put_field(out, hf::kFlows, h.flows);
  put_field(out, hf::kEntries, h.entries);
  put_field(out, hf::kStepsPerPhase, h.steps_per_phase);
  put_field(out, hf::kChildrenSlots, h.children_slots);
  put_field(out, hf::kOpBits, h.op_bits);
  put_field(out, hf::kFlowBits, h.flow_bits);
  put_field(out, hf::kNodeBits, h.node_bits);
  put_field(out, hf::kStepBits, h.step_bits);
  put_field(out, hf::kAddrBits, h.addr_bits);
  put_field(out, hf::kSizeBits, h.size_bits);
  put_field(out, hf::kDtype, static_cast<uint8_t>(h.dtype));
  put_field(out, hf::kEntryBits, h.entry_bits);
  put_field(out, hf::kEntryBytes, h.entry_bytes);
  put_field(out, hf::kBytes, h.bytes);
  put_field(out, hf::kBaseAddr, h.base_addr);
  put_field(out, hf::kCrc32, h.crc32);
  return out;
}

}  // namespace image_detail

using namespace image_detail;

bool ImageHeader::operator==(const ImageHeader& o) const {
  return magic == o.magic && version == o.version && header_bytes == o.header_bytes &&
         node_id == o.node_id && nodes == o.nodes && flows == o.flows && entries == o.entries &&
         steps_per_phase == o.steps_per_phase && children_slots == o.children_slots &&
         op_bits == o.op_bits && flow_bits == o.flow_bits && node_bits == o.node_bits &&
         step_bits == o.step_bits && addr_bits == o.addr_bits && size_bits == o.size_bits &&
         dtype == o.dtype && entry_bits == o.entry_bits && entry_bytes == o.entry_bytes &&
         bytes == o.bytes && base_addr == o.base_addr && crc32 == o.crc32;
}

ImageLayout image_layout(const TableSet& set, const ImageOptions& opt) {
  try {
    return derive_layout(set.nodes, set.flows, set.steps_per_phase, set.children_slots,
                         opt.addr_bits, opt.size_bits);
  } catch (const InputError& e) {
    throw InputError(std::string("schedule image: ") + e.what());
  }
}

uint32_t image_crc(const std::vector<uint8_t>& image) {
  if (image.size() < kImageHeaderBytes) {
    throw InputError(fmt::format("schedule image: {} bytes, shorter than the {}-byte header",
                                 image.size(), kImageHeaderBytes));
  }
  uLong c = crc32_z(0, Z_NULL, 0);
  c = crc32_z(c, image.data(), kImageCrcOffset);
  c = crc32_z(c, image.data() + kImageHeaderBytes, image.size() - kImageHeaderBytes);
  return static_cast<uint32_t>(c);
}

namespace {

ImageHeader header_of(const TableSet& set, const ImageLayout& l, uint32_t node, size_t entries) {
  ImageHeader h;
  h.node_id = node;
  h.nodes = set.nodes;
  h.flows = set.flows;
  h.entries = static_cast<uint32_t>(entries);
  h.steps_per_phase = set.steps_per_phase;
  h.children_slots = static_cast<uint8_t>(l.children_slots);
  h.op_bits = static_cast<uint8_t>(l.op_bits);
  h.flow_bits = static_cast<uint8_t>(l.flow_bits);
  h.node_bits = static_cast<uint8_t>(l.node_bits);
  h.step_bits = static_cast<uint8_t>(l.step_bits);
  h.addr_bits = static_cast<uint8_t>(l.addr_bits);
  h.size_bits = static_cast<uint8_t>(l.size_bits);
  h.dtype = set.dtype;
  h.entry_bits = static_cast<uint16_t>(l.entry_bits);
  h.entry_bytes = static_cast<uint16_t>(l.entry_bytes);
  h.bytes = set.bytes;
  h.base_addr = set.base_addr;
  return h;
}

// Each field of `e` fits its width, and the entry is one the decoder accepts.
void check_encodable(const TableEntry& e, const ImageLayout& l, const EntryLimits& lim,
                     const EntryWhere& where) {
  auto need = [&](auto&& field, uint64_t v, uint32_t bits, const char* width) {
    if (!fits(v, bits)) {
      throw InputError(fmt::format("{}, field {}: {:#x} does not fit {} = {}", where.str(),
                                   field(), v, width, bits));
    }
  };
  auto named = [](const char* name) { return [name] { return std::string(name); }; };
  need(named("flow"), e.flow, l.flow_bits, "flow_bits");
  if (e.parent != kNil) need(named("parent"), e.parent, l.node_bits, "node_bits");
  for (size_t k = 0; k < e.children.size(); ++k) {
    if (e.children[k] != kNil) {
      need([k] { return fmt::format("children[{}]", k); }, e.children[k], l.node_bits,
           "node_bits");
    }
  }
  need(named("step"), e.step, l.step_bits, "step_bits");
  need(named("start_addr"), e.start_addr, l.addr_bits, "addr_bits");
  need(named("size"), e.size, l.size_bits, "size_bits");
  // Also everything the decoder rejects, so no image we write fails to load.
  check_entry(e, lim, where);
}

// The fields in their order in the entry (field_offsets).
void put_entry(uint8_t* p, const TableEntry& e, const ImageLayout& l) {
  const uint64_t nil = all_ones(l.node_bits);
  BitWriter w(p);
  w.put(static_cast<uint64_t>(e.op), l.op_bits);
  w.put(e.flow, l.flow_bits);
  w.put(e.parent == kNil ? nil : e.parent, l.node_bits);
  for (uint32_t k = 0; k < l.children_slots; ++k) {
    w.put(k < e.children.size() ? e.children[k] : nil, l.node_bits);
  }
  w.put(e.step, l.step_bits);
  w.put(e.start_addr, l.addr_bits);
  w.put(e.size, l.size_bits);
  w.finish();
}

}  // namespace

ImageEncoder::ImageEncoder(const TableSet& set, const ImageOptions& opt)
    : set_(set), layout_(image_layout(set, opt)) {
  if (set.dtype != DType::kInt32 && set.dtype != DType::kFp32) {
    throw InputError(fmt::format("schedule image: dtype code {} is not 0 (int32) or 1 (fp32)",
                                 static_cast<uint32_t>(set.dtype)));
  }
  if (!buffer_fits(set.base_addr, set.bytes)) {
    throw InputError(fmt::format(
        "schedule image: the buffer (base_addr {:#x} + bytes {:#x}) wraps past 2^64",
        set.base_addr, set.bytes));
  }
}

void ImageEncoder::check(const ScheduleTable& table) const {
  const std::string table_name = fmt::format("schedule table of node {}", table.node);
  if (table.node >= set_.nodes) {
    throw InputError(fmt::format("{}: no such node (nodes = {})", table_name, set_.nodes));
  }
  if (table.entries.size() > std::numeric_limits<uint32_t>::max()) {
    throw InputError(fmt::format("{}: {} entries do not fit the u32 entry count", table_name,
                                 table.entries.size()));
  }
  const EntryLimits lim{set_.nodes, set_.flows, set_.steps_per_phase, set_.children_slots,
                        set_.bytes, set_.base_addr};
  for (size_t i = 0; i < table.entries.size(); ++i) {
    check_encodable(table.entries[i], layout_, lim, EntryWhere{table_name, i});
  }
}

const std::vector<uint8_t>& ImageEncoder::bin(const ScheduleTable& table) {
  check(table);
  const ImageLayout& l = layout_;
  const size_t size = kImageHeaderBytes + table.entries.size() * l.entry_bytes;
  image_.assign(size + 8, 0);  // BitWriter's slack
  const std::vector<uint8_t> header =
      header_bytes(header_of(set_, l, table.node, table.entries.size()));
  std::copy(header.begin(), header.end(), image_.begin());
  for (size_t i = 0; i < table.entries.size(); ++i) {  // in order (BitWriter)
    put_entry(image_.data() + kImageHeaderBytes + i * l.entry_bytes, table.entries[i], l);
  }
  image_.resize(size);
  const uint32_t crc = image_crc(image_);
  for (uint32_t b = 0; b < 4; ++b) {
    image_[kImageCrcOffset + b] = static_cast<uint8_t>(crc >> (8 * b));
  }
  return image_;
}

const ScheduleTable& image_detail::node_table(const TableSet& set, uint32_t node,
                                             const ImageOptions& opt) {
  image_layout(set, opt);  // no nodes, bad options: before anything else
  if (node >= set.nodes) {
    throw InputError(fmt::format("schedule table of node {}: no such node (nodes = {})", node,
                                 set.nodes));
  }
  if (set.tables.size() != set.nodes) {
    throw InputError(fmt::format("schedule image: the table set has {} tables for {} nodes",
                                 set.tables.size(), set.nodes));
  }
  const ScheduleTable& table = set.tables[node];
  if (table.node != node) {
    throw InputError(fmt::format("schedule table of node {}: tables[{}] is the table of node {}",
                                 node, node, table.node));
  }
  return table;
}

std::vector<uint8_t> encode_image(const TableSet& set, uint32_t node, const ImageOptions& opt) {
  const ScheduleTable& table = node_table(set, node, opt);
  ImageEncoder encoder(set, opt);
  return encoder.bin(table);
}

DecodedImage decode_image(const std::vector<uint8_t>& image, const ImageExpect& expect) {
  const size_t size = image.size();
  const uint8_t* d = image.data();
  auto truncated_header = [&]() {
    return InputError(fmt::format(
        "schedule image: header too short (truncated file): {} bytes, a header is {}", size,
        kImageHeaderBytes));
  };
  if (size < 4) throw truncated_header();
  if (!std::equal(kImageMagic.begin(), kImageMagic.end(), d,
                  [](char a, uint8_t b) { return static_cast<uint8_t>(a) == b; })) {
    throw InputError(fmt::format(
        "schedule image: wrong magic {:02x} {:02x} {:02x} {:02x}, expected \"MTST\" "
        "(4d 54 53 54)",
        d[0], d[1], d[2], d[3]));
  }
  if (size < hf::kVersion.offset + hf::kVersion.bytes) throw truncated_header();
  const auto version = static_cast<uint16_t>(get_field(d, hf::kVersion));
  if (version != kImageVersion) {
    throw InputError(fmt::format(
        "schedule image: unsupported format version {} (this reader reads version {})", version,
        kImageVersion));
  }
  if (size < kImageHeaderBytes) throw truncated_header();

  ImageHeader h;
  h.version = version;
  h.header_bytes = static_cast<uint16_t>(get_field(d, hf::kHeaderBytes));
  h.node_id = static_cast<uint32_t>(get_field(d, hf::kNodeId));
  h.nodes = static_cast<uint32_t>(get_field(d, hf::kNodes));
  h.flows = static_cast<uint32_t>(get_field(d, hf::kFlows));
  h.entries = static_cast<uint32_t>(get_field(d, hf::kEntries));
  h.steps_per_phase = static_cast<uint32_t>(get_field(d, hf::kStepsPerPhase));
  h.children_slots = static_cast<uint8_t>(get_field(d, hf::kChildrenSlots));
  h.op_bits = static_cast<uint8_t>(get_field(d, hf::kOpBits));
  h.flow_bits = static_cast<uint8_t>(get_field(d, hf::kFlowBits));
  h.node_bits = static_cast<uint8_t>(get_field(d, hf::kNodeBits));
  h.step_bits = static_cast<uint8_t>(get_field(d, hf::kStepBits));
  h.addr_bits = static_cast<uint8_t>(get_field(d, hf::kAddrBits));
  h.size_bits = static_cast<uint8_t>(get_field(d, hf::kSizeBits));
  const auto dtype = static_cast<uint8_t>(get_field(d, hf::kDtype));
  h.entry_bits = static_cast<uint16_t>(get_field(d, hf::kEntryBits));
  h.entry_bytes = static_cast<uint16_t>(get_field(d, hf::kEntryBytes));
  h.bytes = get_field(d, hf::kBytes);
  h.base_addr = get_field(d, hf::kBaseAddr);
  h.crc32 = static_cast<uint32_t>(get_field(d, hf::kCrc32));

  const std::string ctx = fmt::format("schedule image (node {})", h.node_id);
  auto fail = [&](const std::string& msg) { return InputError(ctx + ": " + msg); };
  if (h.header_bytes != kImageHeaderBytes) {
    throw fail(fmt::format("header_bytes = {}, a version {} header is {} bytes", h.header_bytes,
                           kImageVersion, kImageHeaderBytes));
  }

  // The widths must be the ones the header's own parameters imply, so that a reader can
  // derive them instead of trusting them, and two writers can never disagree.
  ImageLayout l;
  try {
    l = derive_layout(h.nodes, h.flows, h.steps_per_phase, h.children_slots, h.addr_bits,
                      h.size_bits);
  } catch (const InputError& e) {
    throw fail(std::string("inconsistent header: ") + e.what());
  }
  auto same = [&](const char* field, uint32_t got, uint32_t want, const std::string& why) {
    if (got != want) {
      throw fail(fmt::format("inconsistent header: {} = {}, {} needs {}", field, got, why, want));
    }
  };
  same("op_bits", h.op_bits, l.op_bits, fmt::format("version {}", kImageVersion));
  same("flow_bits", h.flow_bits, l.flow_bits, fmt::format("flows = {}", h.flows));
  same("node_bits", h.node_bits, l.node_bits, fmt::format("nodes = {}", h.nodes));
  same("step_bits", h.step_bits, l.step_bits,
       fmt::format("steps_per_phase = {}", h.steps_per_phase));
  same("entry_bits", h.entry_bits, l.entry_bits, "the sum of the field widths");
  same("entry_bytes", h.entry_bytes, l.entry_bytes, fmt::format("entry_bits = {}", l.entry_bits));
  if (dtype > static_cast<uint8_t>(DType::kFp32)) {
    throw fail(fmt::format("dtype code {} is not 0 (int32) or 1 (fp32)", dtype));
  }
  h.dtype = static_cast<DType>(dtype);
  if (!buffer_fits(h.base_addr, h.bytes)) {
    throw fail(fmt::format("the buffer (base_addr {:#x} + bytes {:#x}) wraps past 2^64",
                           h.base_addr, h.bytes));
  }

  const uint64_t want_size = kImageHeaderBytes + uint64_t{h.entries} * h.entry_bytes;
  if (size < want_size) {
    throw fail(fmt::format("truncated file: {} entries of {} bytes need {} bytes, the file has {}",
                           h.entries, h.entry_bytes, want_size, size));
  }
  if (size > want_size) {
    throw fail(fmt::format(
        "{} trailing bytes after the last entry ({} entries of {} bytes end at byte {}, the "
        "file has {})",
        size - want_size, h.entries, h.entry_bytes, want_size, size));
  }
  const uint32_t crc = image_crc(image);
  if (crc != h.crc32) {
    throw fail(fmt::format("CRC mismatch: header says {:#010x}, contents give {:#010x}", h.crc32,
                           crc));
  }

  if (h.node_id >= h.nodes) {
    throw fail(fmt::format("node_id {} is not below nodes = {}", h.node_id, h.nodes));
  }
  if (expect.node && *expect.node != h.node_id) {
    throw fail(fmt::format("node id mismatch: the image is for node {}, expected node {}",
                           h.node_id, *expect.node));
  }
  if (expect.nodes && *expect.nodes != h.nodes) {
    throw fail(fmt::format("node count mismatch: the image says nodes = {}, expected {}",
                           h.nodes, *expect.nodes));
  }

  DecodedImage out;
  out.header = h;
  out.table.node = h.node_id;
  out.table.entries.reserve(h.entries);
  const FieldOffsets off = field_offsets(l);
  const EntryLimits lim{h.nodes, h.flows, h.steps_per_phase, h.children_slots, h.bytes,
                        h.base_addr};
  const uint64_t nil = all_ones(l.node_bits);
  const uint32_t pad = l.entry_bytes * 8 - l.entry_bits;
  for (uint32_t i = 0; i < h.entries; ++i) {
    const uint8_t* p = d + kImageHeaderBytes + uint64_t{i} * l.entry_bytes;
    const EntryWhere where{ctx, i};
    auto bad = [&](const std::string& field, const std::string& msg) {
      return InputError(fmt::format("{}, field {}: {}", where.str(), field, msg));
    };
    if (get_bits(p, l.entry_bits, pad) != 0) {
      throw bad("pad", fmt::format("non-zero pad bits above entry_bits = {}", l.entry_bits));
    }
    TableEntry e;
    e.op = static_cast<Op>(get_bits(p, off.op, l.op_bits));
    e.flow = static_cast<uint32_t>(get_bits(p, off.flow, l.flow_bits));
    const uint64_t parent = get_bits(p, off.parent, l.node_bits);
    e.parent = parent == nil ? kNil : static_cast<uint32_t>(parent);
    bool empty_seen = false;
    for (uint32_t k = 0; k < l.children_slots; ++k) {
      const uint64_t c = get_bits(p, off.child0 + uint64_t{k} * l.node_bits, l.node_bits);
      if (c == nil) {
        empty_seen = true;
      } else if (empty_seen) {
        throw bad(fmt::format("children[{}]", k),
                  fmt::format("used slot (node {}) after an empty slot", c));
      } else {
        e.children.push_back(static_cast<uint32_t>(c));
      }
    }
    const uint64_t step = get_bits(p, off.step, l.step_bits);
    if (step > std::numeric_limits<uint32_t>::max()) {
      throw bad("step", fmt::format("{} is outside 1..{} (2 * steps_per_phase)", step,
                                    2 * uint64_t{h.steps_per_phase}));
    }
    e.step = static_cast<uint32_t>(step);
    e.start_addr = get_bits(p, off.start_addr, l.addr_bits);
    e.size = get_bits(p, off.size, l.size_bits);
    check_entry(e, lim, where);
    out.table.entries.push_back(std::move(e));
  }
  return out;
}

}  // namespace mt
