// JSON helpers shared by image_json.cpp and image_set.cpp. Not part of the public API.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>
#include <string>

#include <nlohmann/json.hpp>

#include "table/schedule_table.hpp"

namespace mt::image_detail {

// Reads one JSON object strictly: missing keys, keys never read (finish) and wrong types are
// InputErrors that name `where` and the key.
// Names a place in a JSON document for messages; built only when a message is (a large
// table set has millions of entries).
using Where = std::function<std::string()>;

class JsonObject {
 public:
  JsonObject(const nlohmann::json& j, Where where);
  const nlohmann::json& at(const std::string& key);
  uint64_t u64(const std::string& key);
  uint32_t u32(const std::string& key);
  std::string str(const std::string& key);
  void finish() const;
  Where field(const std::string& key) const;  // "where: key 'k'"

 private:
  const nlohmann::json& j_;
  Where where_;
  std::vector<std::string> used_;  // a handful of keys: a list beats a tree
};

uint64_t json_u64(const nlohmann::json& v, const Where& where);

// The set-wide keys shared by tables_json and manifest.json.
void set_fields_to_json(const TableSet& set, nlohmann::json& j);
void set_fields_from_json(JsonObject& o, TableSet& set);

}  // namespace mt::image_detail
