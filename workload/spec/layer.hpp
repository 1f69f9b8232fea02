// One layer of a DNN workload: its kind, its geometry (or, for a `given` layer, its cycles) and
// the parameter count its weight gradient carries into the all-reduce. The keys of each kind in
// the JSON format are documented in docs/workloads.md.
#pragma once

#include <cstdint>
#include <string>

namespace mt::workload {

enum class LayerKind {
  kConv,       // a convolution in SCALE-Sim's terms (ifmap size includes the padding)
  kFc,         // a fully connected layer: one input vector per sample
  kGemm,       // a product with a weight matrix, m rows per sample (a linear layer over tokens)
  kMatmul,     // a product of two activations (attention scores), no weights
  kEmbedding,  // a table lookup: no multiply-accumulate, a dense weight gradient
  kGiven,      // cycles and parameters given, no geometry (ASTRA-sim's workload files)
};

// "conv", "fc", "gemm", "matmul", "embedding", "given".
const char* kind_name(LayerKind kind);

// Convolution geometry, per sample, in SCALE-Sim's topology terms: the ifmap size includes any
// zero padding, the output is floor((ifmap - filter) / stride) + 1 in each dimension.
struct ConvGeometry {
  uint64_t ifmap_h = 0, ifmap_w = 0;
  uint64_t filter_h = 0, filter_w = 0;
  uint64_t channels = 0;  // input channels
  uint64_t filters = 0;   // output channels
  uint64_t stride = 0;    // the same in both dimensions, as in SCALE-Sim
  uint64_t ofmap_h() const { return (ifmap_h - filter_h) / stride + 1; }
  uint64_t ofmap_w() const { return (ifmap_w - filter_w) / stride + 1; }
};

// C[m x n] = A[m x k] * B[k x n] per sample: for kFc m is 1, k the inputs and n the outputs; for
// kGemm B is the layer's weight; for kMatmul both operands are activations.
struct GemmGeometry {
  uint64_t m = 0, k = 0, n = 0;
};

// A lookup of `lookups` rows per sample from a rows x dim table.
struct EmbeddingGeometry {
  uint64_t rows = 0, dim = 0, lookups = 0;
};

// Cycles of one accelerator for its whole local mini-batch, as given by the workload file.
struct GivenCycles {
  uint64_t forward = 0, input_grad = 0, weight_grad = 0;
  uint64_t update = 0;  // after the layer's all-reduce (ASTRA-sim's weight-update delay)
};

struct Layer {
  std::string name;
  LayerKind kind = LayerKind::kConv;
  ConvGeometry conv;            // kConv
  GemmGeometry gemm;            // kFc, kGemm, kMatmul
  EmbeddingGeometry embedding;  // kEmbedding
  GivenCycles given;            // kGiven
  uint64_t given_params = 0;    // kGiven: the parameter count of its weight gradient
  // Independent inputs per sample that share the layer's weights (regions of interest of a
  // detection head, attention heads of a score product); 1 for most layers. Not for kEmbedding
  // (its `lookups`) nor kGiven.
  uint64_t instances = 1;
  // The earlier layer whose weight this layer uses (a tied embedding or output projection):
  // the gradient is all-reduced once, with that layer, so this layer carries no parameters.
  std::string tied_to;
};

// The parameters of the layer's own weight (0 for kMatmul and for a tied layer): filter_h *
// filter_w * channels * filters, k * n, rows * dim, or the given count. Biases and
// normalisation parameters are not counted (docs/workloads.md, "Parameters").
uint64_t weight_count(const Layer& layer);
uint64_t parameter_count(const Layer& layer);

}  // namespace mt::workload
