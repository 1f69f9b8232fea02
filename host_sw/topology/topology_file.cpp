// JSON topology files: any network the builders do not cover (format in README.md here).
#include <algorithm>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common/error.hpp"
#include "common/input_file.hpp"
#include "topology/topology.hpp"

namespace mt {
namespace {

using nlohmann::json;

void check_keys(const json& obj, const std::set<std::string>& allowed, const std::string& where,
                const std::string& spec) {
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    if (allowed.count(it.key()) == 0) {
      throw InputError(fmt::format("topology {}: unknown key \"{}\" in {}", spec, it.key(), where));
    }
  }
}

// Reads a list of ids that must be exactly 0..count-1, each once, in any order.
uint32_t read_ids(const json& doc, const char* key, const std::string& spec, bool required) {
  if (!doc.contains(key)) {
    if (required) throw InputError(fmt::format("topology {}: missing key \"{}\"", spec, key));
    return 0;
  }
  const json& ids = doc.at(key);
  if (!ids.is_array()) {
    throw InputError(fmt::format("topology {}: \"{}\" must be an array of ids", spec, key));
  }
  std::vector<bool> seen(ids.size(), false);
  for (const json& id : ids) {
    if (!id.is_number_integer() || id.get<int64_t>() < 0) {
      throw InputError(fmt::format("topology {}: \"{}\" holds {}, not a non-negative integer id",
                                   spec, key, id.dump()));
    }
    const int64_t v = id.get<int64_t>();
    if (v >= static_cast<int64_t>(ids.size())) {
      throw InputError(fmt::format("topology {}: {} id {} is out of range: {} ids must be 0..{}",
                                   spec, key, v, ids.size(), ids.size() - 1));
    }
    if (seen[static_cast<size_t>(v)]) {
      throw InputError(fmt::format("topology {}: duplicate {} id {}", spec, key, v));
    }
    seen[static_cast<size_t>(v)] = true;
  }
  return static_cast<uint32_t>(ids.size());
}

// "n3" is node 3, "s1" is switch 1.
uint32_t endpoint(const json& e, uint32_t nodes, uint32_t switches, size_t link,
                  const std::string& spec) {
  const std::string where = fmt::format("link {}", link);
  if (!e.is_string() || e.get<std::string>().size() < 2) {
    throw InputError(fmt::format("topology {}: {} endpoint {} must be \"n<id>\" or \"s<id>\"", spec,
                                 where, e.dump()));
  }
  const std::string s = e.get<std::string>();
  const char kind = s[0];
  uint64_t id = 0;
  for (size_t i = 1; i < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9' || id > (1u << 30)) {
      throw InputError(fmt::format("topology {}: {} endpoint \"{}\" must be \"n<id>\" or "
                                   "\"s<id>\"", spec, where, s));
    }
    id = id * 10 + static_cast<uint64_t>(s[i] - '0');
  }
  if (kind == 'n') {
    if (id >= nodes) {
      throw InputError(fmt::format("topology {}: {} names node {}, which does not exist", spec,
                                   where, id));
    }
    return static_cast<uint32_t>(id);
  }
  if (kind == 's') {
    if (id >= switches) {
      throw InputError(fmt::format("topology {}: {} names switch {}, which does not exist", spec,
                                   where, id));
    }
    return nodes + static_cast<uint32_t>(id);
  }
  throw InputError(fmt::format("topology {}: {} endpoint \"{}\" must be \"n<id>\" or \"s<id>\"",
                               spec, where, s));
}

int64_t read_width(const json& l, size_t i, const std::string& spec) {
  if (!l.contains("width")) return 1;
  const json& w = l.at("width");
  if (!w.is_number_integer() || w.get<int64_t>() < 1 || w.get<int64_t>() > 64) {
    throw InputError(fmt::format("topology {}: link {} width must be an integer 1..64, is {}",
                                 spec, i, w.dump()));
  }
  return w.get<int64_t>();
}

// A link's latency in cycles, for flits and credits alike; 0 when the link gives none.
uint32_t read_latency(const json& l, size_t i, const std::string& spec) {
  if (!l.contains("latency")) return 0;
  const json& c = l.at("latency");
  constexpr int64_t kMax = std::numeric_limits<uint32_t>::max();
  if (!c.is_number_integer() || c.get<int64_t>() < 1 ||
      (c.is_number_unsigned() ? c.get<uint64_t>() > uint64_t{kMax} : c.get<int64_t>() > kMax)) {
    throw InputError(fmt::format("topology {}: link {} latency must be an integer number of "
                                 "cycles 1..{}, is {}", spec, i, kMax, c.dump()));
  }
  return static_cast<uint32_t>(c.get<int64_t>());
}

// Whether the link is marked failed: "failed": true leaves it out of the network.
bool read_failed(const json& l, size_t i, const std::string& spec) {
  if (!l.contains("failed")) return false;
  const json& f = l.at("failed");
  if (!f.is_boolean()) {
    throw InputError(fmt::format("topology {}: link {} failed must be true or false, is {}",
                                 spec, i, f.dump()));
  }
  return f.get<bool>();
}

Topology topology_from_doc(const json& doc, const std::string& spec) {
  if (!doc.is_object()) throw InputError(fmt::format("topology {}: must be a JSON object", spec));
  check_keys(doc, {"name", "nodes", "switches", "links"}, "the top level", spec);
  const uint32_t nodes = read_ids(doc, "nodes", spec, true);
  const uint32_t switches = read_ids(doc, "switches", spec, false);
  if (!doc.contains("links") || !doc.at("links").is_array()) {
    throw InputError(fmt::format("topology {}: missing \"links\" array", spec));
  }
  std::vector<Link> links;
  std::vector<uint32_t> latencies;  // per directed link; 0: the simulator's
  std::set<std::pair<uint32_t, uint32_t>> pairs;
  std::vector<Topology::VertexPair> failed;
  const json& list = doc.at("links");
  for (size_t i = 0; i < list.size(); ++i) {
    const json& l = list[i];
    if (!l.is_object()) throw InputError(fmt::format("topology {}: link {} must be an object", spec, i));
    check_keys(l, {"a", "b", "width", "latency", "failed"}, fmt::format("link {}", i), spec);
    if (!l.contains("a") || !l.contains("b")) {
      throw InputError(fmt::format("topology {}: link {} needs \"a\" and \"b\"", spec, i));
    }
    const uint32_t a = endpoint(l.at("a"), nodes, switches, i, spec);
    const uint32_t b = endpoint(l.at("b"), nodes, switches, i, spec);
    if (a == b) throw InputError(fmt::format("topology {}: link {} connects {} to itself", spec, i, l.at("a").dump()));
    const int64_t width = read_width(l, i, spec);
    const uint32_t latency = read_latency(l, i, spec);
    if (!pairs.insert({std::min(a, b), std::max(a, b)}).second) {
      throw InputError(fmt::format("topology {}: link {} repeats {} - {}; give one link a width "
                                   "instead", spec, i, l.at("a").dump(), l.at("b").dump()));
    }
    if (read_failed(l, i, spec)) failed.emplace_back(std::min(a, b), std::max(a, b));
    // A link k times wider is k parallel links (paper §VII-B); both directions, one latency.
    for (int64_t k = 0; k < width; ++k) links.push_back({a, b});
    for (int64_t k = 0; k < width; ++k) links.push_back({b, a});
    latencies.insert(latencies.end(), static_cast<size_t>(2 * width), latency);
  }
  std::vector<bool> linked(nodes, false);
  for (const Link& l : links) {
    if (l.src < nodes) linked[l.src] = true;
  }
  for (uint32_t n = 0; n < nodes; ++n) {
    if (!linked[n]) throw InputError(fmt::format("topology {}: node {} has no link", spec, n));
  }
  Topology t(TopologyKind::kFile, spec, nodes, switches, std::move(links));
  t.set_link_latencies(std::move(latencies));
  if (!failed.empty()) {
    std::sort(failed.begin(), failed.end());
    t = without_links(t, failed, spec);
  }
  // Now, so a network whose diameter takes too long to find is refused before any plan.
  t.set_known_diameter(t.diameter());
  return t;
}

}  // namespace

Topology parse_topology_json(const std::string& text, const std::string& spec) {
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::exception& e) {  // parse_error, or out_of_range for 1e400
    throw InputError(fmt::format("topology {}: not valid JSON: {}", spec, e.what()));
  }
  try {
    return topology_from_doc(doc, spec);
  } catch (const json::exception& e) {  // every key is checked; this is the safety net
    throw InputError(fmt::format("topology {}: {}", spec, e.what()));
  }
}

Topology load_topology_file(const std::string& path) {
  std::string text;
  try {
    text = read_input_file(path);
  } catch (const InputError& e) {
    throw InputError(fmt::format("topology file:{}", e.what()));
  }
  return parse_topology_json(text, "file:" + path);
}

}  // namespace mt
