#include "compute/layer_gemms.hpp"

#include "spec/checked_math.hpp"

namespace mt::workload {

namespace {

LayerGemms conv_gemms(const ConvGeometry& c, uint64_t stack, const std::string& what) {
  const uint64_t pixels = checked_mul(c.ofmap_h(), c.ofmap_w(), what);
  const uint64_t filter_area = checked_mul(c.filter_h, c.filter_w, what);
  const uint64_t window = checked_mul(filter_area, c.channels, what);
  // The ifmap rows and columns the forward windows read: (E - 1) * stride + filter.
  const uint64_t read_h =
      checked_add(checked_mul(c.ofmap_h() - 1, c.stride, what), c.filter_h, what);
  const uint64_t read_w =
      checked_add(checked_mul(c.ofmap_w() - 1, c.stride, what), c.filter_w, what);
  const uint64_t in_pixels = checked_mul(read_h, read_w, what);
  LayerGemms g;
  g.forward = Gemm{checked_mul(stack, pixels, what), window, c.filters};
  g.input_grad = Gemm{checked_mul(stack, in_pixels, what),
                      checked_mul(filter_area, c.filters, what), c.channels};
  g.weight_grad = Gemm{window, checked_mul(stack, pixels, what), c.filters};
  return g;
}

LayerGemms product_gemms(const GemmGeometry& p, uint64_t stack, const std::string& what) {
  const uint64_t rows = checked_mul(stack, p.m, what);
  LayerGemms g;
  g.forward = Gemm{rows, p.k, p.n};
  g.input_grad = Gemm{rows, p.n, p.k};
  g.weight_grad = Gemm{p.k, rows, p.n};
  return g;
}

}  // namespace

LayerGemms layer_gemms(const Layer& layer, uint64_t samples, bool input_is_data) {
  const std::string what = "layer " + layer.name + ": GEMM size";
  const uint64_t stack = checked_mul(samples, layer.instances, what);
  LayerGemms g;
  switch (layer.kind) {
    case LayerKind::kConv:
      g = conv_gemms(layer.conv, stack, what);
      break;
    case LayerKind::kFc:
    case LayerKind::kGemm:
    case LayerKind::kMatmul:
      g = product_gemms(layer.gemm, stack, what);
      break;
    case LayerKind::kEmbedding:
    case LayerKind::kGiven:
      return g;
  }
  if (input_is_data) g.input_grad.reset();
  return g;
}

}  // namespace mt::workload
