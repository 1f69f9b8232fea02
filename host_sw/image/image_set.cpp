// Image sets on disk: node_<n>.bin/.hex/.json plus manifest.json, written atomically.
#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <stdexcept>

#include "common/error.hpp"
#include "common/input_file.hpp"
#include "common/output_file.hpp"
#include "image/image.hpp"
#include "image/image_detail.hpp"
#include "image/image_json.hpp"

namespace mt {

using namespace image_detail;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

std::string read_text(const fs::path& p) { return read_input_file(p.string()); }

std::vector<uint8_t> read_bytes(const fs::path& p) {
  const std::string s = read_text(p);
  return std::vector<uint8_t>(s.begin(), s.end());
}

// Writes file `name` of the set being written into `tmp`; errors name it in the set's `dir`.
void write_bytes(const std::string& tmp, const std::string& dir, const std::string& name,
                 const char* data, size_t size) {
  write_new_file((fs::path(tmp) / name).string(), data, size, (fs::path(dir) / name).string());
}

json parse_json_file(const fs::path& p) {
  try {
    return json::parse(read_text(p));
  } catch (const json::exception& e) {  // parse_error, or out_of_range for 1e400
    throw InputError(fmt::format("{}: not valid JSON: {}", p.string(), e.what()));
  }
}

// Absolute, normalised, without a trailing slash, so that it has a parent to hold the
// temporary sibling and a name to rename to. A symbolic link stands for its target, which is
// replaced (the link kept), as every output file's is.
fs::path set_dir(const std::string& dir) {
  if (dir.empty()) throw InputError("image set: the directory name is empty");
  std::error_code ec;
  fs::path p = fs::absolute(fs::path(dir), ec);
  if (ec) throw InputError(fmt::format("image set {}: {}", dir, ec.message()));
  p = p.lexically_normal();
  if (!p.has_filename()) p = p.parent_path();
  if (fs::is_symlink(p, ec)) {
    p = fs::canonical(p, ec);
    if (ec) {
      throw InputError(fmt::format("image set {}: a symbolic link to nowhere ({})", dir,
                                   ec.message()));
    }
  }
  if (p == p.root_path() || p.filename() == "..") {
    throw InputError(fmt::format("image set {}: not a directory that can be replaced", dir));
  }
  return p;
}

bool holds_image_set(const fs::path& dir) {
  const fs::path m = dir / "manifest.json";
  std::error_code ec;
  if (!fs::is_regular_file(m, ec)) return false;
  try {
    const json j = json::parse(read_text(m));
    return j.is_object() && j.contains("format") && j["format"] == kImageSetFormat;
  } catch (const std::exception&) {
    return false;
  }
}

// A name next to `dir` that does not exist yet ("." prefix keeps it out of plain listings).
fs::path fresh_sibling(const fs::path& dir, const char* tag) {
  std::random_device rd;
  for (int attempt = 0; attempt < 64; ++attempt) {
    const fs::path p = dir.parent_path() /
                       fmt::format(".{}.{}-{:08x}", dir.filename().string(), tag, rd());
    std::error_code ec;
    if (!fs::exists(p, ec) && !ec) return p;
    if (ec && ec.value() == ENAMETOOLONG) {
      throw InputError(fmt::format("image set {}: the name is too long ({}; the set is written "
                                   "through a directory named 14 characters longer beside it)",
                                   dir.string(), ec.message()));
    }
    if (ec) {
      throw InputError(fmt::format("image set {}: cannot use {} beside it: {}", dir.string(),
                                   p.string(), ec.message()));
    }
  }
  throw InputError(fmt::format("image set {}: cannot find a free temporary name", dir.string()));
}

}  // namespace

std::string image_stem(uint32_t node, uint32_t nodes) {
  const uint32_t last = nodes == 0 ? 0 : nodes - 1;
  const size_t width = std::max<size_t>(2, std::to_string(last).size());
  return fmt::format("node_{:0{}}", node, width);
}

namespace {

// Refuses a dir that exists and is not a directory, or is neither empty nor an image set
// (never delete something that is not ours); true when it exists.
bool check_replaceable(const fs::path& dir) {
  std::error_code ec;
  if (!fs::exists(dir, ec)) return false;
  if (!fs::is_directory(dir, ec)) {
    throw InputError(fmt::format("image set {}: exists and is not a directory", dir.string()));
  }
  if (!fs::is_empty(dir, ec) && !holds_image_set(dir)) {
    throw InputError(fmt::format(
        "image set {}: refusing to replace a directory that is neither empty nor an image "
        "set (no manifest.json with format \"{}\")",
        dir.string(), kImageSetFormat));
  }
  return true;
}

// A fresh temporary directory beside dir (its parent made if need be).
fs::path make_temporary(const fs::path& dir) {
  std::error_code ec;
  fs::create_directories(dir.parent_path(), ec);
  if (ec) {
    throw InputError(fmt::format("image set {}: cannot create {}: {}", dir.string(),
                                 dir.parent_path().string(), ec.message()));
  }
  const fs::path tmp = fresh_sibling(dir, "tmp");
  if (!fs::create_directory(tmp, ec) || ec) {
    throw InputError(fmt::format("image set {}: cannot create {}: {}", dir.string(),
                                 tmp.string(), ec.message()));
  }
  return tmp;
}

// Renames the written set tmp to dir. A directory cannot be renamed over a non-empty one: an
// old set is moved aside first and put back if the new one cannot take its place.
void put_in_place(const fs::path& tmp, const fs::path& dir, bool replace) {
  std::error_code ec;
  const fs::path old = replace ? fresh_sibling(dir, "old") : fs::path();
  if (replace) {
    fs::rename(dir, old, ec);
    if (ec) {
      throw InputError(fmt::format("image set {}: cannot move the old set aside: {}",
                                   dir.string(), ec.message()));
    }
  }
  fs::rename(tmp, dir, ec);
  if (ec) {
    std::error_code ignored;
    if (replace) fs::rename(old, dir, ignored);
    throw InputError(fmt::format("image set {}: cannot rename {} into place: {}", dir.string(),
                                 tmp.string(), ec.message()));
  }
  if (replace) fs::remove_all(old, ec);  // a leftover hidden directory is harmless
}

}  // namespace

ImageSetWriter::ImageSetWriter(const TableSet& set, const std::string& dir_name,
                               const ImageOptions& opt)
    : set_(set), opt_(opt), encoder_(set, opt) {  // no nodes, bad options: before the disk
  const fs::path dir = set_dir(dir_name);
  replace_ = check_replaceable(dir);
  dir_ = dir.string();
  tmp_ = make_temporary(dir).string();
}

ImageSetWriter::~ImageSetWriter() {
  if (!tmp_.empty()) {
    std::error_code ec;
    fs::remove_all(tmp_, ec);
  }
}

void ImageSetWriter::add(const ScheduleTable& table) {
  if (table.node != added_) {
    throw std::logic_error(fmt::format("image set: table of node {} given as node {}",
                                       table.node, added_));
  }
  const std::string stem = image_stem(table.node, set_.nodes);
  const std::vector<uint8_t>& bin = encoder_.bin(table);
  const std::string rule = table_rule_error(table);  // read_image_set refuses it
  if (!rule.empty()) throw InputError("image set: " + rule);
  write_bytes(tmp_, dir_, stem + ".bin", reinterpret_cast<const char*>(bin.data()), bin.size());
  text_.clear();
  encoder_.append_hex(text_);
  write_bytes(tmp_, dir_, stem + ".hex", text_.data(), text_.size());
  text_.clear();
  append_table_json_text(table, text_);
  write_bytes(tmp_, dir_, stem + ".json", text_.data(), text_.size());
  ++added_;
}

void ImageSetWriter::finish() {
  if (added_ != set_.nodes) {
    throw std::logic_error(fmt::format("image set: {} tables written of {}", added_, set_.nodes));
  }
  json manifest;
  set_fields_to_json(set_, manifest);
  manifest["format"] = kImageSetFormat;
  manifest["format_version"] = kImageSetFormatVersion;
  manifest["addr_bits"] = opt_.addr_bits;
  manifest["size_bits"] = opt_.size_bits;
  json stems = json::array();
  for (uint32_t n = 0; n < set_.nodes; ++n) stems.push_back(image_stem(n, set_.nodes));
  manifest["files"] = std::move(stems);
  const std::string text = manifest.dump(2) + "\n";
  write_bytes(tmp_, dir_, "manifest.json", text.data(), text.size());
  put_in_place(tmp_, dir_, replace_);
  tmp_.clear();
}

void write_image_set(const TableSet& set, const std::string& dir, const ImageOptions& opt) {
  ImageSetWriter writer(set, dir, opt);
  for (uint32_t n = 0; n < set.nodes; ++n) writer.add(node_table(set, n, opt));
  writer.finish();
}

namespace {

// Reads node n's .bin, .hex and .json, checks them against each other and the manifest, and
// appends the table to `set`.
void read_node(const fs::path& dir, uint32_t n, uint32_t addr_bits, uint32_t size_bits,
               TableSet& set) {
  const std::string stem = image_stem(n, set.nodes);
  const fs::path bin_path = dir / (stem + ".bin");
  const std::string bin_name = bin_path.string();
  const std::vector<uint8_t> bin = read_bytes(bin_path);
  DecodedImage img;
  try {
    img = decode_image(bin, ImageExpect{n, set.nodes});
  } catch (const InputError& e) {
    throw InputError(bin_name + ": " + e.what());
  }
  const std::string rule = table_rule_error(img.table);  // each entry decoded, the whole table
  if (!rule.empty()) throw InputError(bin_name + ": " + rule);
  const ImageHeader& h = img.header;
  auto agree = [&](const char* field, uint64_t got, uint64_t want) {
    if (got != want) {
      throw InputError(fmt::format("{}: header {} = {}, the manifest says {}", bin_name, field,
                                   got, want));
    }
  };
  agree("flows", h.flows, set.flows);
  agree("steps_per_phase", h.steps_per_phase, set.steps_per_phase);
  agree("children_slots", h.children_slots, set.children_slots);
  agree("bytes", h.bytes, set.bytes);
  agree("base_addr", h.base_addr, set.base_addr);
  agree("dtype", static_cast<uint64_t>(h.dtype), static_cast<uint64_t>(set.dtype));
  agree("addr_bits", h.addr_bits, addr_bits);
  agree("size_bits", h.size_bits, size_bits);

  // The .hex must carry exactly the .bin: compare the bytes it rebuilds, header included.
  const fs::path hex_path = dir / (stem + ".hex");
  std::vector<uint8_t> from_hex;
  try {
    from_hex = hex_to_image(read_text(hex_path));
  } catch (const InputError& e) {
    throw InputError(hex_path.string() + ": " + e.what());
  }
  if (from_hex != bin) {
    const auto diff = std::mismatch(bin.begin(), bin.end(), from_hex.begin(), from_hex.end());
    throw InputError(fmt::format("{}: does not match {} (first difference at byte {})",
                                 hex_path.string(), bin_name, diff.first - bin.begin()));
  }

  // The .json is for people and is written from the table: it must read exactly as the
  // .bin's table would be written (a text compare; parsing every entry is far slower).
  set.tables.push_back(std::move(img.table));
  const fs::path json_path = dir / (stem + ".json");
  const std::string got = read_text(json_path), want = table_json_text(set, n);
  if (got != want) {
    const auto diff = std::mismatch(want.begin(), want.end(), got.begin(), got.end());
    const auto line = 1 + std::count(want.begin(), diff.first, '\n');
    throw InputError(fmt::format("{}: does not match {} (first difference on line {}); the "
                                 ".json is written from the .bin, regenerate the set",
                                 json_path.string(), bin_name, line));
  }
}

TableSet read_set(const std::string& dir_name) {
  const fs::path dir(dir_name);
  const fs::path mpath = dir / "manifest.json";
  const std::string mname = mpath.string();
  const json m = parse_json_file(mpath);

  JsonObject o(m, [&mname] { return mname; });
  TableSet set;
  set_fields_from_json(o, set);
  const std::string format = o.str("format");
  if (format != kImageSetFormat) {
    throw InputError(fmt::format("{}: format is \"{}\", expected \"{}\"", mname, format,
                                 kImageSetFormat));
  }
  const uint32_t version = o.u32("format_version");
  if (version != kImageSetFormatVersion) {
    throw InputError(fmt::format("{}: unsupported format_version {} (this reader reads {})",
                                 mname, version, kImageSetFormatVersion));
  }
  const uint32_t addr_bits = o.u32("addr_bits");
  const uint32_t size_bits = o.u32("size_bits");
  const json& files = o.at("files");
  o.finish();
  if (set.nodes == 0) throw InputError(mname + ": nodes = 0");
  if (!files.is_array() || files.size() != set.nodes) {
    throw InputError(fmt::format("{}: 'files' must list one stem per node ({} nodes)", mname,
                                 set.nodes));
  }

  for (uint32_t n = 0; n < set.nodes; ++n) {
    const std::string stem = image_stem(n, set.nodes);
    if (!files[n].is_string() || files[n].get<std::string>() != stem) {
      throw InputError(fmt::format("{}: files[{}] is {}, expected \"{}\"", mname, n,
                                   files[n].dump(), stem));
    }
    read_node(dir, n, addr_bits, size_bits, set);
  }
  return set;
}

}  // namespace

TableSet read_image_set(const std::string& dir_name) {
  try {
    return read_set(dir_name);
  } catch (const nlohmann::json::exception& e) {  // every key is checked; the safety net
    throw InputError(fmt::format("{}: {}", (fs::path(dir_name) / "manifest.json").string(),
                                 e.what()));
  }
}

}  // namespace mt
