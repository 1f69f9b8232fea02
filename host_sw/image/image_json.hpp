// JSON helpers shared by image_json.cpp and image_set.cpp. Not part of the public API.
#pragma once

#include <cstdint>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "table/schedule_table.hpp"

namespace mt::image_detail {

// Reads one JSON object strictly: missing keys, keys never read (finish) and wrong types are
// InputErrors that name `where` and the key.
class JsonObject {
 public:
  JsonObject(const nlohmann::json& j, std::string where);
  const nlohmann::json& at(const std::string& key);
  uint64_t u64(const std::string& key);
  uint32_t u32(const std::string& key);
  std::string str(const std::string& key);
  void finish() const;
  std::string field(const std::string& key) const;  // "where: key 'k'" for messages

 private:
  const nlohmann::json& j_;
  std::string where_;
  std::set<std::string> used_;
};

uint64_t json_u64(const nlohmann::json& v, const std::string& where);

// The set-wide keys shared by tables_json and manifest.json.
void set_fields_to_json(const TableSet& set, nlohmann::json& j);
void set_fields_from_json(JsonObject& o, TableSet& set);

}  // namespace mt::image_detail
