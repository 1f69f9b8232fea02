#include "spec/workload_json.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <set>
#include <vector>

#include "common/error.hpp"
#include "common/input_file.hpp"

namespace mt::workload {

namespace {

using Json = nlohmann::json;
using OrderedJson = nlohmann::ordered_json;

// One numeric key of a layer kind and the field it fills.
struct Field {
  const char* key;
  uint64_t& (*get)(Layer&);
  bool optional;  // instances (default 1) and update_cycles (default 0)
};

const std::vector<Field>& fields_of(LayerKind kind) {
  static const std::vector<Field> conv = {
      {"ifmap_h", [](Layer& l) -> uint64_t& { return l.conv.ifmap_h; }, false},
      {"ifmap_w", [](Layer& l) -> uint64_t& { return l.conv.ifmap_w; }, false},
      {"filter_h", [](Layer& l) -> uint64_t& { return l.conv.filter_h; }, false},
      {"filter_w", [](Layer& l) -> uint64_t& { return l.conv.filter_w; }, false},
      {"channels", [](Layer& l) -> uint64_t& { return l.conv.channels; }, false},
      {"filters", [](Layer& l) -> uint64_t& { return l.conv.filters; }, false},
      {"stride", [](Layer& l) -> uint64_t& { return l.conv.stride; }, false},
      {"instances", [](Layer& l) -> uint64_t& { return l.instances; }, true}};
  static const std::vector<Field> fc = {
      {"inputs", [](Layer& l) -> uint64_t& { return l.gemm.k; }, false},
      {"outputs", [](Layer& l) -> uint64_t& { return l.gemm.n; }, false},
      {"instances", [](Layer& l) -> uint64_t& { return l.instances; }, true}};
  static const std::vector<Field> gemm = {
      {"m", [](Layer& l) -> uint64_t& { return l.gemm.m; }, false},
      {"k", [](Layer& l) -> uint64_t& { return l.gemm.k; }, false},
      {"n", [](Layer& l) -> uint64_t& { return l.gemm.n; }, false},
      {"instances", [](Layer& l) -> uint64_t& { return l.instances; }, true}};
  static const std::vector<Field> embedding = {
      {"rows", [](Layer& l) -> uint64_t& { return l.embedding.rows; }, false},
      {"dim", [](Layer& l) -> uint64_t& { return l.embedding.dim; }, false},
      {"lookups", [](Layer& l) -> uint64_t& { return l.embedding.lookups; }, false}};
  static const std::vector<Field> given = {
      {"params", [](Layer& l) -> uint64_t& { return l.given_params; }, false},
      {"forward_cycles", [](Layer& l) -> uint64_t& { return l.given.forward; }, false},
      {"input_grad_cycles", [](Layer& l) -> uint64_t& { return l.given.input_grad; }, false},
      {"weight_grad_cycles", [](Layer& l) -> uint64_t& { return l.given.weight_grad; }, false},
      {"update_cycles", [](Layer& l) -> uint64_t& { return l.given.update; }, true}};
  switch (kind) {
    case LayerKind::kConv:
      return conv;
    case LayerKind::kFc:
      return fc;
    case LayerKind::kGemm:
    case LayerKind::kMatmul:
      return gemm;
    case LayerKind::kEmbedding:
      return embedding;
    case LayerKind::kGiven:
      return given;
  }
  return given;
}

bool may_tie(LayerKind kind) {
  return kind == LayerKind::kFc || kind == LayerKind::kGemm || kind == LayerKind::kEmbedding;
}

LayerKind parse_kind(const std::string& s, const std::string& at) {
  for (LayerKind k : {LayerKind::kConv, LayerKind::kFc, LayerKind::kGemm, LayerKind::kMatmul,
                      LayerKind::kEmbedding, LayerKind::kGiven}) {
    if (s == kind_name(k)) return k;
  }
  throw InputError(
      fmt::format("{}: kind \"{}\" is not one of conv, fc, gemm, matmul, embedding, given", at, s));
}

uint64_t to_count(const Json& v, const std::string& at, const std::string& key) {
  if (v.is_number_unsigned()) return v.get<uint64_t>();
  if (v.is_number_integer()) {
    throw InputError(fmt::format("{}: {} is {}; it must not be negative", at, key, v.dump()));
  }
  if (v.is_number_float()) {
    throw InputError(fmt::format("{}: {} is {}; it must be a whole number", at, key, v.dump()));
  }
  throw InputError(fmt::format("{}: {} is {}, not a number", at, key, v.dump()));
}

std::string to_string(const Json& v, const std::string& at, const std::string& key) {
  if (!v.is_string())
    throw InputError(fmt::format("{}: {} is {}, not a string", at, key, v.dump()));
  return v.get<std::string>();
}

// The keys of a layer object this kind accepts.
std::set<std::string> accepted_keys(LayerKind kind) {
  std::set<std::string> keys = {"name", "kind"};
  for (const Field& f : fields_of(kind)) keys.insert(f.key);
  if (may_tie(kind)) keys.insert("tied_to");
  return keys;
}

Layer parse_layer(const Json& j, const std::string& at_index) {
  if (!j.is_object()) throw InputError(fmt::format("{}: is {}, not an object", at_index, j.dump()));
  if (!j.contains("name"))
    throw InputError(fmt::format("{}: the key \"name\" is missing", at_index));
  Layer l;
  l.name = to_string(j.at("name"), at_index, "name");
  const std::string at = fmt::format("{} ({})", at_index, l.name);
  if (!j.contains("kind")) throw InputError(fmt::format("{}: the key \"kind\" is missing", at));
  l.kind = parse_kind(to_string(j.at("kind"), at, "kind"), at);
  const std::set<std::string> keys = accepted_keys(l.kind);
  for (const auto& item : j.items()) {
    if (keys.count(item.key()) == 0) {
      throw InputError(
          fmt::format("{}: \"{}\" is not a key of a {} layer", at, item.key(), kind_name(l.kind)));
    }
  }
  if (l.kind == LayerKind::kFc) l.gemm.m = 1;
  for (const Field& f : fields_of(l.kind)) {
    if (j.contains(f.key)) {
      f.get(l) = to_count(j.at(f.key), at, f.key);
    } else if (!f.optional) {
      throw InputError(fmt::format("{}: the key \"{}\" is missing", at, f.key));
    }
  }
  if (j.contains("tied_to")) l.tied_to = to_string(j.at("tied_to"), at, "tied_to");
  return l;
}

// nlohmann keeps the last of two equal keys; the format refuses them instead.
Json parse_strict(const std::string& text, const std::string& origin) {
  std::vector<std::set<std::string>> open;
  const Json::parser_callback_t cb = [&](int, Json::parse_event_t event, Json& parsed) {
    if (event == Json::parse_event_t::object_start) open.emplace_back();
    if (event == Json::parse_event_t::object_end) open.pop_back();
    if (event == Json::parse_event_t::key &&
        !open.back().insert(parsed.get<std::string>()).second) {
      throw InputError(fmt::format("{}: the key \"{}\" appears twice in one object", origin,
                                   parsed.get<std::string>()));
    }
    return true;
  };
  try {
    return Json::parse(text, cb);
  } catch (const Json::parse_error& e) {
    throw InputError(fmt::format("{}: not valid JSON: {}", origin, e.what()));
  }
}

void check_top_keys(const Json& j, const std::string& origin) {
  if (!j.is_object())
    throw InputError(fmt::format("{}: the workload is not a JSON object", origin));
  const std::set<std::string> keys = {"version", "name", "source", "notes", "layers"};
  for (const auto& item : j.items()) {
    if (keys.count(item.key()) == 0) {
      throw InputError(fmt::format("{}: \"{}\" is not a key of a workload", origin, item.key()));
    }
  }
  for (const char* key : {"version", "name", "layers"}) {
    if (!j.contains(key))
      throw InputError(fmt::format("{}: the key \"{}\" is missing", origin, key));
  }
  const uint64_t version = to_count(j.at("version"), origin, "version");
  if (version != kWorkloadFormatVersion) {
    throw InputError(fmt::format("{}: version {} is not the version this library reads ({})",
                                 origin, version, kWorkloadFormatVersion));
  }
}

}  // namespace

Workload workload_from_json(const std::string& text, const std::string& origin) {
  const Json j = parse_strict(text, origin);
  check_top_keys(j, origin);
  Workload w;
  w.name = to_string(j.at("name"), origin, "name");
  if (j.contains("source")) w.source = to_string(j.at("source"), origin, "source");
  if (j.contains("notes")) {
    if (!j.at("notes").is_array())
      throw InputError(fmt::format("{}: notes is not an array", origin));
    for (const Json& n : j.at("notes")) w.notes.push_back(to_string(n, origin, "a note"));
  }
  const Json& layers = j.at("layers");
  if (!layers.is_array()) throw InputError(fmt::format("{}: layers is not an array", origin));
  for (size_t i = 0; i < layers.size(); ++i) {
    w.layers.push_back(parse_layer(layers[i], fmt::format("{}: layer {}", origin, i)));
  }
  validate(w, origin);
  return w;
}

Workload read_workload_file(const std::string& path) {
  return workload_from_json(read_input_file(path), path);
}

std::string workload_to_json(const Workload& w) {
  const auto line = [](const char* key, const OrderedJson& value) {
    return fmt::format("  {}: {}", OrderedJson(key).dump(), value.dump());
  };
  std::string s = "{\n" + line("version", kWorkloadFormatVersion) + ",\n" + line("name", w.name);
  if (!w.source.empty()) s += ",\n" + line("source", w.source);
  if (!w.notes.empty()) {
    s += ",\n  \"notes\": [";
    for (size_t i = 0; i < w.notes.size(); ++i) {
      s += (i == 0 ? "\n    " : ",\n    ") + OrderedJson(w.notes[i]).dump();
    }
    s += "\n  ]";
  }
  s += ",\n  \"layers\": [";
  for (size_t i = 0; i < w.layers.size(); ++i) {
    Layer l = w.layers[i];  // a copy: Field::get takes a mutable layer
    OrderedJson j = {{"name", l.name}, {"kind", kind_name(l.kind)}};
    for (const Field& f : fields_of(l.kind)) {
      const uint64_t v = f.get(l);
      const bool is_default = f.optional && v == (std::string(f.key) == "instances" ? 1u : 0u);
      if (!is_default) j[f.key] = v;
    }
    if (!l.tied_to.empty()) j["tied_to"] = l.tied_to;
    s += (i == 0 ? "\n    " : ",\n    ") + j.dump();
  }
  return s + "\n  ]\n}\n";
}

}  // namespace mt::workload
