#include "spec/layer.hpp"

#include "spec/checked_math.hpp"

namespace mt::workload {

const char* kind_name(LayerKind kind) {
  switch (kind) {
    case LayerKind::kConv:
      return "conv";
    case LayerKind::kFc:
      return "fc";
    case LayerKind::kGemm:
      return "gemm";
    case LayerKind::kMatmul:
      return "matmul";
    case LayerKind::kEmbedding:
      return "embedding";
    case LayerKind::kGiven:
      return "given";
  }
  return "?";
}

uint64_t weight_count(const Layer& layer) {
  const std::string what = "layer " + layer.name + ": parameter count";
  switch (layer.kind) {
    case LayerKind::kConv: {
      const ConvGeometry& c = layer.conv;
      const uint64_t window =
          checked_mul(checked_mul(c.filter_h, c.filter_w, what), c.channels, what);
      return checked_mul(window, c.filters, what);
    }
    case LayerKind::kFc:
    case LayerKind::kGemm:
      return checked_mul(layer.gemm.k, layer.gemm.n, what);
    case LayerKind::kMatmul:
      return 0;
    case LayerKind::kEmbedding:
      return checked_mul(layer.embedding.rows, layer.embedding.dim, what);
    case LayerKind::kGiven:
      return layer.given_params;
  }
  return 0;
}

uint64_t parameter_count(const Layer& layer) {
  return layer.tied_to.empty() ? weight_count(layer) : 0;
}

}  // namespace mt::workload
