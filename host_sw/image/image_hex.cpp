// The .hex form of a binary image: header fields as `//` comments, entries as $readmemh words.
#include <fmt/format.h>

#include <array>
#include <cctype>
#include <cstring>
#include <iterator>
#include <limits>
#include <map>
#include <optional>
#include <sstream>

#include "common/error.hpp"
#include "image/image.hpp"
#include "image/image_detail.hpp"

namespace mt {

using namespace image_detail;

namespace {

uint32_t hex_digits(uint32_t entry_bits) { return (entry_bits + 3) / 4; }

constexpr const char* kHexDigits = "0123456789abcdef";

// Byte b's two digits, most significant first, at 2 * b (a torus:64x64 set has 1.3 GB of them).
constexpr std::array<char, 512> kHexPairs = [] {
  std::array<char, 512> t{};
  for (size_t b = 0; b < 256; ++b) {
    t[2 * b] = kHexDigits[b >> 4];
    t[2 * b + 1] = kHexDigits[b & 0xFu];
  }
  return t;
}();

std::vector<std::string> split_ws(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> out;
  for (std::string t; in >> t;) out.push_back(t);
  return out;
}

std::string trim(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Decimal, or hexadecimal with 0x. No octal: "010" is ten.
std::optional<uint64_t> parse_number(const std::string& s) {
  const bool hex = s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
  const size_t start = hex ? 2 : 0;
  if (s.size() == start) return std::nullopt;
  const uint64_t base = hex ? 16 : 10;
  uint64_t v = 0;
  for (size_t i = start; i < s.size(); ++i) {
    const bool digit = std::isdigit(static_cast<unsigned char>(s[i])) != 0;
    const int d = hex ? hex_value(s[i]) : (digit ? s[i] - '0' : -1);
    if (d < 0) return std::nullopt;
    if (v > (std::numeric_limits<uint64_t>::max() - static_cast<uint64_t>(d)) / base) {
      return std::nullopt;
    }
    v = v * base + static_cast<uint64_t>(d);
  }
  return v;
}

const HeaderField* find_field(const std::string& name) {
  for (const HeaderField& f : format::image::kHeader) {
    if (name == f.name) return &f;
  }
  return nullptr;
}

}  // namespace

namespace {

// The `//` lines before the entries: the header fields and the entry fields' bit ranges.
void append_hex_comments(const uint8_t* d, const ImageLayout& l, DType dtype,
                         fmt::memory_buffer& out) {
  auto o = std::back_inserter(out);
  const FieldOffsets off = field_offsets(l);
  const auto node = get_field(d, format::image::field::kNodeId);
  fmt::format_to(o, "// MultiTree schedule table image, node {}: hex form of format version {}\n",
                 node, kImageVersion);
  fmt::format_to(o, "// (host_sw/image/IMAGE_FORMAT.md). For $readmemh into\n");
  fmt::format_to(
      o, "// reg [{}:0] mem [0:ENTRIES-1]; one entry per line, most significant digit first.\n",
      l.entry_bits - 1);
  fmt::format_to(o, "// Header fields, the same values as in the .bin header:\n");
  for (const HeaderField& f : format::image::kHeader) {
    const std::string name = f.name;
    if (name == "magic") {
      fmt::format_to(o, "// magic {}\n", std::string(kImageMagic.begin(), kImageMagic.end()));
    } else if (name == "crc32") {
      fmt::format_to(o, "// crc32 {:#010x}\n", get_le(d + f.offset, f.bytes));
    } else {
      fmt::format_to(o, "// {} {}\n", name, get_le(d + f.offset, f.bytes));
    }
  }
  fmt::format_to(o, "// dtype: 0 = int32, 1 = fp32 (this image: {})\n", dtype_name(dtype));
  fmt::format_to(o, "// Entry fields, LSB first: op [{}:{}], flow [{}:{}], parent [{}:{}]",
                 off.flow - 1, off.op, off.parent - 1, off.flow, off.child0 - 1, off.parent);
  for (uint32_t k = 0; k < l.children_slots; ++k) {
    const uint32_t lo = off.child0 + k * l.node_bits;
    fmt::format_to(o, ", child{} [{}:{}]", k, lo + l.node_bits - 1, lo);
  }
  // A zero-width step field (steps_per_phase 0) has no bit range to show.
  if (l.step_bits > 0) fmt::format_to(o, ", step [{}:{}]", off.start_addr - 1, off.step);
  fmt::format_to(o, ", start_addr [{}:{}], size [{}:{}]\n", off.size - 1, off.start_addr,
                 l.entry_bits - 1, off.size);
}

}  // namespace

void ImageEncoder::append_hex(fmt::memory_buffer& out) const {
  const ImageLayout& l = layout_;
  const uint8_t* d = image_.data();
  append_hex_comments(d, l, set_.dtype, out);
  const uint64_t entries = get_field(d, format::image::field::kEntries);
  const uint32_t digits = hex_digits(l.entry_bits);
  const size_t start = out.size();
  out.resize(start + entries * (digits + 1));
  char* line = out.data() + start;
  for (uint64_t i = 0; i < entries; ++i, line += digits + 1) {
    // Digit j (from the right) is nibble j: the low half of byte j / 2 for even j, so byte k
    // is the two digits ending at digit 2k.
    const uint8_t* p = d + kImageHeaderBytes + i * l.entry_bytes;
    char* last = line + digits - 1;
    for (uint32_t k = 0; 2 * k + 1 < digits; ++k) {
      std::memcpy(last - 2 * k - 1, &kHexPairs[2 * size_t{p[k]}], 2);
    }
    if (digits % 2 != 0) line[0] = kHexDigits[p[digits / 2] & 0xFu];
    line[digits] = '\n';
  }
}

std::string encode_hex(const TableSet& set, uint32_t node, const ImageOptions& opt) {
  const ScheduleTable& table = node_table(set, node, opt);
  ImageEncoder encoder(set, opt);
  encoder.bin(table);
  fmt::memory_buffer out;
  encoder.append_hex(out);
  return fmt::to_string(out);
}

std::vector<uint8_t> hex_to_image(const std::string& hex) {
  std::map<std::string, uint64_t> values;
  std::string magic;
  std::vector<std::pair<size_t, std::string>> words;  // (line number, digits)

  std::istringstream in(hex);
  size_t line_no = 0;
  for (std::string raw; std::getline(in, raw);) {
    ++line_no;
    const std::string line = trim(raw);
    auto fail = [&](const std::string& msg) {
      return InputError(fmt::format("hex image, line {}: {}", line_no, msg));
    };
    if (line.empty()) continue;
    if (line.rfind("//", 0) == 0) {
      // A header field is exactly "// <field> <value>"; any other comment is free text.
      const std::vector<std::string> t = split_ws(line.substr(2));
      if (t.size() != 2) continue;
      const HeaderField* f = find_field(t[0]);
      if (f == nullptr) continue;
      if (values.count(f->name) != 0 || (t[0] == "magic" && !magic.empty())) {
        throw fail(fmt::format("header field '{}' given twice", f->name));
      }
      if (t[0] == "magic") {
        if (t[1].size() != kImageMagic.size()) {
          throw fail(fmt::format("magic '{}' is not 4 characters", t[1]));
        }
        magic = t[1];
        continue;
      }
      const std::optional<uint64_t> v = parse_number(t[1]);
      if (!v) throw fail(fmt::format("header field '{}': '{}' is not a number", f->name, t[1]));
      if (!fits(*v, 8 * f->bytes)) {
        throw fail(fmt::format("header field '{}': {} does not fit {} bytes", f->name, *v,
                               f->bytes));
      }
      values[f->name] = *v;
      continue;
    }
    for (char c : line) {
      if (hex_value(c) < 0) {
        throw fail(fmt::format("'{}' is not a hex entry word (only hex digits allowed)", line));
      }
    }
    words.emplace_back(line_no, line);
  }

  std::vector<uint8_t> out(kImageHeaderBytes, 0);
  for (const HeaderField& f : format::image::kHeader) {
    const std::string name = f.name;
    if (name == "magic") {
      if (magic.empty()) throw InputError("hex image: missing header field 'magic'");
      for (size_t i = 0; i < magic.size(); ++i) out[i] = static_cast<uint8_t>(magic[i]);
      continue;
    }
    const auto it = values.find(name);
    if (it == values.end()) {
      throw InputError(fmt::format("hex image: missing header field '{}'", name));
    }
    for (uint32_t b = 0; b < f.bytes; ++b) {
      out[f.offset + b] = static_cast<uint8_t>(it->second >> (8 * b));
    }
  }

  const auto entry_bits = static_cast<uint32_t>(values["entry_bits"]);
  const auto entry_bytes = static_cast<uint32_t>(values["entry_bytes"]);
  const uint32_t digits = hex_digits(entry_bits);
  if (uint64_t{digits} * 4 > uint64_t{entry_bytes} * 8) {
    throw InputError(fmt::format(
        "hex image: inconsistent header: entry_bytes = {} cannot hold entry_bits = {}",
        entry_bytes, entry_bits));
  }
  for (const auto& [no, word] : words) {
    if (word.size() != digits) {
      throw InputError(fmt::format(
          "hex image, line {}: {} hex digits, entry_bits = {} needs exactly {}", no, word.size(),
          entry_bits, digits));
    }
    std::vector<uint8_t> entry(entry_bytes, 0);
    for (uint32_t j = 0; j < digits; ++j) {
      const auto nibble = static_cast<uint32_t>(hex_value(word[digits - 1 - j]));
      entry[j / 2] = static_cast<uint8_t>(entry[j / 2] | (nibble << (4 * (j % 2))));
    }
    out.insert(out.end(), entry.begin(), entry.end());
  }
  return out;
}

DecodedImage decode_hex(const std::string& hex, const ImageExpect& expect) {
  return decode_image(hex_to_image(hex), expect);
}

}  // namespace mt
