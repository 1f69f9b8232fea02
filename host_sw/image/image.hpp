// Schedule-table images: what the NIs are loaded with. One TableSet becomes, per node, a
// binary image (.bin), the same entries for Verilog $readmemh (.hex) and a human view (.json).
// The byte-level format is specified in host_sw/image/IMAGE_FORMAT.md; the SystemC and
// Verilog readers implement that document, so any change here must change it too.
//
// Every reader rejects what the NI could not execute (InputError naming the entry and field),
// and every writer refuses to produce what a reader would reject.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "ni_formats.hpp"
#include "table/schedule_table.hpp"
#include "table/table_sink.hpp"

namespace mt {

// From the one description of the format (format/ni_formats.json).
static_assert(sizeof(format::image::kMagic) == 5, "the magic is four characters");
constexpr std::array<char, 4> kImageMagic = {format::image::kMagic[0], format::image::kMagic[1],
                                             format::image::kMagic[2], format::image::kMagic[3]};
constexpr uint16_t kImageVersion = format::image::kVersion;
constexpr uint16_t kImageHeaderBytes = format::image::kHeaderBytes;  // crc32 included
constexpr uint32_t kImageCrcOffset = format::image::field::kCrc32.offset;
constexpr uint32_t kImageOpBits = format::image::kOpBits;
constexpr const char* kImageSetFormat = "multitree-schedule-images";
constexpr uint32_t kImageSetFormatVersion = 1;

// The bus widths of the NI the images are for. Addresses and sizes are the only fields whose
// width is a hardware choice; every other width follows from the table set.
struct ImageOptions {
  uint32_t addr_bits = 32;  // 1..64
  uint32_t size_bits = 32;  // 1..64
};

// Field widths of one entry. Entry fields, LSB first: op, flow, parent, children[0..K-1],
// step, start_addr, size.
struct ImageLayout {
  uint32_t children_slots = 0;  // K
  uint32_t op_bits = 0;         // 2
  uint32_t flow_bits = 0;       // max(1, bit_width(flows - 1))
  uint32_t node_bits = 0;       // bit_width(nodes): all ones (nil) is never a node id
  uint32_t step_bits = 0;       // bit_width(2 * steps_per_phase)
  uint32_t addr_bits = 0;
  uint32_t size_bits = 0;
  uint32_t entry_bits = 0;      // op + flow + node * (1 + K) + step + addr + size
  uint32_t entry_bytes = 0;     // ceil(entry_bits / 8)
};

// Throws InputError when no layout exists (no nodes, K > 255, addr/size bits outside 1..64,
// an entry wider than 65535 bits).
ImageLayout image_layout(const TableSet& set, const ImageOptions& opt = {});

// The version 1 header, field for field (offsets in IMAGE_FORMAT.md).
struct ImageHeader {
  std::array<char, 4> magic = kImageMagic;
  uint16_t version = kImageVersion;
  uint16_t header_bytes = kImageHeaderBytes;
  uint32_t node_id = 0;
  uint32_t nodes = 0;
  uint32_t flows = 0;
  uint32_t entries = 0;
  uint32_t steps_per_phase = 0;
  uint8_t children_slots = 0;
  uint8_t op_bits = 0;
  uint8_t flow_bits = 0;
  uint8_t node_bits = 0;
  uint8_t step_bits = 0;
  uint8_t addr_bits = 0;
  uint8_t size_bits = 0;
  DType dtype = DType::kFp32;
  uint16_t entry_bits = 0;
  uint16_t entry_bytes = 0;
  uint64_t bytes = 0;
  uint64_t base_addr = 0;
  uint32_t crc32 = 0;

  bool operator==(const ImageHeader& o) const;
  bool operator!=(const ImageHeader& o) const { return !(*this == o); }
};

// What the loader knows independently of the image; checked when given.
struct ImageExpect {
  std::optional<uint32_t> node;
  std::optional<uint32_t> nodes;
};

struct DecodedImage {
  ImageHeader header;
  ScheduleTable table;
};

// Binary image of tables[node]. Throws InputError naming node, entry and field when a value
// does not fit its width or would be rejected by decode_image (K exceeded, flow >= flows,
// step outside 1..2T, range outside the buffer, ...).
std::vector<uint8_t> encode_image(const TableSet& set, uint32_t node,
                                  const ImageOptions& opt = {});
// The image's CRC-32 (zlib's): header bytes before the crc32 field, then every entry byte.
// InputError for an image shorter than the header.
uint32_t image_crc(const std::vector<uint8_t>& image);
// Parses and fully validates a binary image; decode_image(encode_image(s, n)).table ==
// s.tables[n] exactly.
DecodedImage decode_image(const std::vector<uint8_t>& image, const ImageExpect& expect = {});

// $readmemh text: `//` header comments, then one line per entry, ceil(entry_bits / 4) hex
// digits, most significant first.
std::string encode_hex(const TableSet& set, uint32_t node, const ImageOptions& opt = {});

// The images of a set's tables one table at a time, in memory reused from table to table
// (what encode_image and encode_hex give for each node; a set on torus:64x64 has 3.4e7
// entries). Checks the set's fields once (InputError as encode_image).
class ImageEncoder {
 public:
  // `set` gives the fields and must outlive the encoder; its tables are not used.
  ImageEncoder(const TableSet& set, const ImageOptions& opt);
  // The binary image of `table`, the table of node table.node; valid until the next call.
  const std::vector<uint8_t>& bin(const ScheduleTable& table);
  // Throws what bin(table) would throw, without encoding.
  void check(const ScheduleTable& table) const;
  // The $readmemh form of the image bin() returned last, appended to `out`.
  void append_hex(fmt::memory_buffer& out) const;

 private:
  const TableSet& set_;
  ImageLayout layout_;
  std::vector<uint8_t> image_;
};
// Rebuilds the exact .bin bytes a .hex file was made from (header from its comments). Checks
// syntax only; decode_image does the rest.
std::vector<uint8_t> hex_to_image(const std::string& hex);
DecodedImage decode_hex(const std::string& hex, const ImageExpect& expect = {});

// Human view. Key names are a contract (IMAGE_FORMAT.md, "JSON").
nlohmann::json table_json(const TableSet& set, uint32_t node);
// The same table as text, one entry per line with the keys in the order above (what
// write_image_set puts in node_NN.json for people to read).
std::string table_json_text(const TableSet& set, uint32_t node);
void append_table_json_text(const ScheduleTable& table, fmt::memory_buffer& out);
nlohmann::json tables_json(const TableSet& set);

// tables_json(set) with the keys of `extra` added, as dump(2) prints it (and a newline),
// written table by table: the text is never whole in memory (1.5 GB on torus:32x32).
class TablesJsonWriter : public TableSink {
 public:
  // `set` gives the fields; its tables are not used. Writes up to "tables" at once.
  TablesJsonWriter(std::ostream& out, const TableSet& set,
                   const nlohmann::json& extra = nlohmann::json::object());
  void add(const ScheduleTable& table) override;  // in node order
  void finish() override;

 private:
  void write_keys(bool after_tables);

  ChunkedOutput out_;
  nlohmann::json top_;  // the keys other than "tables"
  size_t tables_ = 0;
};
// Inverses; InputError on missing, unknown or mistyped keys. They check structure only (the
// image encoder checks the values).
ScheduleTable table_from_json(const nlohmann::json& j);
TableSet tables_from_json(const nlohmann::json& j);

// "node_07": the file stem of a node, zero-padded to max(2, digits of nodes - 1).
std::string image_stem(uint32_t node, uint32_t nodes);

// Writes node_<n>.bin/.hex/.json for every node plus manifest.json into dir. Everything is
// written into a temporary sibling directory that is then renamed into place, so dir never
// holds a half-written set, and a table that cannot be encoded leaves dir as it was. An
// existing dir is replaced only when it is empty or holds an image set (its manifest says
// so); anything else is an InputError.
void write_image_set(const TableSet& set, const std::string& dir, const ImageOptions& opt = {});

// write_image_set a table at a time: the directory is checked and the temporary sibling made
// on construction, each table's files are written as it is added (in node order), and
// finish() writes the manifest and renames the set into place. Destroyed before finish() (an
// error on the way), it removes the temporary directory and leaves dir as it was.
class ImageSetWriter : public TableSink {
 public:
  // `set` gives the fields and must outlive the writer; its tables are not used.
  ImageSetWriter(const TableSet& set, const std::string& dir, const ImageOptions& opt = {});
  ~ImageSetWriter() override;
  ImageSetWriter(const ImageSetWriter&) = delete;
  ImageSetWriter& operator=(const ImageSetWriter&) = delete;
  void add(const ScheduleTable& table) override;
  void finish() override;

 private:
  const TableSet& set_;
  ImageOptions opt_;
  std::string dir_, tmp_;  // the set's directory and the temporary one being written
  bool replace_ = false;   // dir exists (empty or an image set)
  uint32_t added_ = 0;
  ImageEncoder encoder_;
  fmt::memory_buffer text_;
};
// Reads a set back: every .bin checked against its node id, the node count and the manifest,
// every .hex and .json against its .bin. Errors name the file.
TableSet read_image_set(const std::string& dir);

}  // namespace mt
