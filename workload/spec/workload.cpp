#include "spec/workload.hpp"

#include <fmt/format.h>

#include <map>

#include "common/error.hpp"
#include "spec/checked_math.hpp"

namespace mt::workload {

namespace {

// The sizes of a layer that must be positive, by their key names in the JSON format.
std::vector<std::pair<const char*, uint64_t>> sizes_of(const Layer& l) {
  switch (l.kind) {
    case LayerKind::kConv:
      return {{"ifmap_h", l.conv.ifmap_h},   {"ifmap_w", l.conv.ifmap_w},
              {"filter_h", l.conv.filter_h}, {"filter_w", l.conv.filter_w},
              {"channels", l.conv.channels}, {"filters", l.conv.filters},
              {"stride", l.conv.stride},     {"instances", l.instances}};
    case LayerKind::kFc:
      return {{"inputs", l.gemm.k}, {"outputs", l.gemm.n}, {"instances", l.instances}};
    case LayerKind::kGemm:
    case LayerKind::kMatmul:
      return {{"m", l.gemm.m}, {"k", l.gemm.k}, {"n", l.gemm.n}, {"instances", l.instances}};
    case LayerKind::kEmbedding:
      return {
          {"rows", l.embedding.rows}, {"dim", l.embedding.dim}, {"lookups", l.embedding.lookups}};
    case LayerKind::kGiven:
      return {};
  }
  return {};
}

void check_geometry(const Layer& l, const std::string& at) {
  for (const auto& [key, value] : sizes_of(l)) {
    if (value == 0) throw InputError(fmt::format("{}: {} is 0; it must be positive", at, key));
  }
  if (l.kind == LayerKind::kFc && l.gemm.m != 1) {
    throw InputError(fmt::format("{}: an fc layer has one row per sample, not {}", at, l.gemm.m));
  }
  if (l.kind == LayerKind::kConv) {
    if (l.conv.filter_h > l.conv.ifmap_h || l.conv.filter_w > l.conv.ifmap_w) {
      throw InputError(fmt::format("{}: the {}x{} filter is larger than the {}x{} ifmap", at,
                                   l.conv.filter_h, l.conv.filter_w, l.conv.ifmap_h,
                                   l.conv.ifmap_w));
    }
  }
  (void)weight_count(l);  // throws when the parameter count does not fit in 64 bits
}

// `earlier` maps the names of the layers before l to their layers; `uses` counts every name.
void check_tie(const Layer& l, const std::map<std::string, const Layer*>& earlier,
               const std::map<std::string, size_t>& uses, const std::string& at) {
  if (l.tied_to.empty()) return;
  if (l.kind != LayerKind::kFc && l.kind != LayerKind::kGemm && l.kind != LayerKind::kEmbedding) {
    throw InputError(fmt::format("{}: a {} layer has no weight to tie", at, kind_name(l.kind)));
  }
  const auto it = earlier.find(l.tied_to);
  if (it == earlier.end()) {
    throw InputError(fmt::format("{}: tied_to \"{}\" names no earlier layer", at, l.tied_to));
  }
  if (uses.at(l.tied_to) > 1) {
    throw InputError(fmt::format("{}: tied_to \"{}\" names more than one layer", at, l.tied_to));
  }
  const Layer& owner = *it->second;
  if (!owner.tied_to.empty() || parameter_count(owner) == 0) {
    throw InputError(
        fmt::format("{}: tied_to \"{}\" names a layer without weights of its own", at, l.tied_to));
  }
  if (weight_count(owner) != weight_count(l)) {
    throw InputError(
        fmt::format("{}: tied_to \"{}\": its weight has {} parameters, this layer's {}", at,
                    l.tied_to, weight_count(owner), weight_count(l)));
  }
}

}  // namespace

void validate(const Workload& w, const std::string& origin, const std::vector<std::string>& where) {
  if (w.layers.empty()) throw InputError(fmt::format("{}: the workload has no layers", origin));
  std::map<std::string, size_t> uses;
  for (const Layer& l : w.layers) ++uses[l.name];
  std::map<std::string, const Layer*> earlier;
  uint64_t total = 0;
  for (size_t i = 0; i < w.layers.size(); ++i) {
    const Layer& l = w.layers[i];
    const std::string at =
        origin + ": " + (i < where.size() ? where[i] : fmt::format("layer {} ({})", i, l.name));
    if (l.name.empty()) throw InputError(fmt::format("{}: the layer name is empty", at));
    check_geometry(l, at);
    check_tie(l, earlier, uses, at);
    total = checked_add(total, parameter_count(l), at + ": total parameters");
    earlier.emplace(l.name, &l);
  }
}

uint64_t total_parameters(const Workload& w) {
  uint64_t total = 0;
  for (const Layer& l : w.layers) total = checked_add(total, parameter_count(l), w.name);
  return total;
}

}  // namespace mt::workload
