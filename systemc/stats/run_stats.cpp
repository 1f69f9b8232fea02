#include "stats/run_stats.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "flit/flit.hpp"

namespace mt::noc {
namespace {

void put_latency(nlohmann::json& j, const std::string& prefix, const LatencySummary& s) {
  const bool none = s.count == 0;
  j[prefix + "_mean"] = none ? nlohmann::json() : nlohmann::json(s.mean);
  j[prefix + "_p99"] = none ? nlohmann::json() : nlohmann::json(s.p99);
  j[prefix + "_min"] = none ? nlohmann::json() : nlohmann::json(s.min);
  j[prefix + "_max"] = none ? nlohmann::json() : nlohmann::json(s.max);
}

LatencySummary get_latency(const nlohmann::json& j, const std::string& prefix, uint64_t count) {
  LatencySummary s;
  if (count == 0 || j.at(prefix + "_mean").is_null()) return s;
  s.count = count;
  s.mean = j.at(prefix + "_mean").get<double>();
  s.p99 = j.at(prefix + "_p99").get<uint64_t>();
  s.min = j.at(prefix + "_min").get<uint64_t>();
  s.max = j.at(prefix + "_max").get<uint64_t>();
  return s;
}

std::string opt(const LatencySummary& s, double v, int decimals) {
  return s.count == 0 ? std::string("-") : fmt::format("{:.{}f}", v, decimals);
}

}  // namespace

bool backlog_grows(const FlowBalance& f, uint32_t packet_flits) {
  const double growth = static_cast<double>(f.injected) - static_cast<double>(f.accepted);
  const double allowed =
      4.0 * std::sqrt(static_cast<double>(packet_flits) *
                      static_cast<double>(f.in_system_start + f.in_system_end)) +
      0.01 * static_cast<double>(f.injected);
  return growth > allowed;
}

std::string saturation_reason(bool drained, const FlowBalance& total,
                              const std::vector<FlowBalance>& per_destination,
                              uint32_t packet_flits) {
  if (!drained) return "measured packets still out at the drain timeout";
  const auto growth = [](const FlowBalance& f) {
    return static_cast<int64_t>(f.injected) - static_cast<int64_t>(f.accepted);
  };
  if (backlog_grows(total, packet_flits)) {
    return fmt::format("undelivered flits grew by {} during the window", growth(total));
  }
  for (size_t d = 0; d < per_destination.size(); ++d) {
    if (backlog_grows(per_destination[d], packet_flits)) {
      return fmt::format("undelivered flits for node {} grew by {} during the window", d,
                         growth(per_destination[d]));
    }
  }
  return "";
}

nlohmann::json to_json(const RunStats& s, bool timing) {
  nlohmann::json j;
  j["offered"] = s.offered;
  j["accepted"] = s.accepted;
  j["injected"] = s.injected;
  put_latency(j, "latency", s.latency);
  put_latency(j, "network_latency", s.network_latency);
  j["packets"] = s.packets;
  j["unfinished"] = s.unfinished;
  j["max_link_utilisation"] = s.max_link_utilisation;
  j["mean_link_utilisation"] = s.mean_link_utilisation;
  j["accepted_at"] = s.accepted_at;
  j["accepted_from"] = s.accepted_from;
  if (!s.accepted_from.empty()) {
    j["accepted_min"] = *std::min_element(s.accepted_from.begin(), s.accepted_from.end());
    j["accepted_max"] = *std::max_element(s.accepted_from.begin(), s.accepted_from.end());
  }
  j["in_system_start"] = s.in_system_start;
  j["in_system_end"] = s.in_system_end;
  j["drained"] = s.drained;
  j["saturated"] = s.saturated;
  j["saturation_reason"] =
      s.saturation_reason.empty() ? nlohmann::json() : nlohmann::json(s.saturation_reason);
  j["cycles"] = s.cycles;
  j["router_cycles"] = s.router_cycles;
  j["routers"] = s.routers;
  j["errors"] = s.errors;
  nlohmann::json links = nlohmann::json::array();
  for (const LinkLoad& l : s.links) links.push_back(to_json(l));
  j["links"] = std::move(links);
  if (timing) {
    j["elaboration_seconds"] = s.elaboration_seconds;
    j["simulation_seconds"] = s.simulation_seconds;
  }
  return j;
}

RunStats run_stats_from_json(const nlohmann::json& j) {
  RunStats s;
  s.offered = j.at("offered").get<double>();
  s.accepted = j.at("accepted").get<double>();
  s.injected = j.at("injected").get<double>();
  s.packets = j.at("packets").get<uint64_t>();
  s.unfinished = j.at("unfinished").get<uint64_t>();
  s.latency = get_latency(j, "latency", s.packets);
  s.network_latency = get_latency(j, "network_latency", s.packets);
  s.max_link_utilisation = j.at("max_link_utilisation").get<double>();
  s.mean_link_utilisation = j.at("mean_link_utilisation").get<double>();
  s.accepted_at = j.value("accepted_at", std::vector<double>{});
  s.accepted_from = j.value("accepted_from", std::vector<double>{});
  s.in_system_start = j.at("in_system_start").get<uint64_t>();
  s.in_system_end = j.at("in_system_end").get<uint64_t>();
  s.drained = j.at("drained").get<bool>();
  s.saturated = j.at("saturated").get<bool>();
  if (!j.at("saturation_reason").is_null()) {
    s.saturation_reason = j.at("saturation_reason").get<std::string>();
  }
  s.cycles = j.at("cycles").get<uint64_t>();
  s.router_cycles = j.at("router_cycles").get<uint64_t>();
  s.routers = j.at("routers").get<uint32_t>();
  s.errors = j.at("errors").get<uint64_t>();
  for (const nlohmann::json& l : j.at("links")) s.links.push_back(link_load_from_json(l));
  s.elaboration_seconds = j.value("elaboration_seconds", 0.0);
  s.simulation_seconds = j.value("simulation_seconds", 0.0);
  return s;
}

std::string points_table(const std::vector<RunStats>& runs) {
  std::string t = fmt::format("{:>8} {:>9} {:>8} {:>9} {:>8} {:>8} {:>9} {:>9}  {}\n", "offered",
                              "accepted", "packets", "mean lat", "p99 lat", "max lat", "net mean",
                              "max link", "saturated");
  for (const RunStats& r : runs) {
    std::string sat = r.saturated ? "yes" : "no";
    if (r.saturated && !r.drained) sat += fmt::format(" ({} not drained)", r.unfinished);
    t += fmt::format("{:>8.4f} {:>9.4f} {:>8} {:>9} {:>8} {:>8} {:>9} {:>9.3f}  {}\n", r.offered,
                     r.accepted, r.packets, opt(r.latency, r.latency.mean, 1),
                     opt(r.latency, static_cast<double>(r.latency.p99), 0),
                     opt(r.latency, static_cast<double>(r.latency.max), 0),
                     opt(r.network_latency, r.network_latency.mean, 1), r.max_link_utilisation,
                     sat);
  }
  return t;
}

std::string links_table(const RunStats& run) {
  std::vector<LinkLoad> links = run.links;
  std::stable_sort(links.begin(), links.end(), [](const LinkLoad& a, const LinkLoad& b) {
    return a.utilisation > b.utilisation;
  });
  std::string t = fmt::format("{:>7} {:>5} {:>7} {:>9} {:>11}\n", "router", "port", "to", "flits",
                              "utilisation");
  for (const LinkLoad& l : links) {
    t += fmt::format("{:>7} {:>5} {:>7} {:>9} {:>11.4f}\n", l.router, l.port, l.to,
                     l.flits, l.utilisation);
  }
  return t;
}

}  // namespace mt::noc
