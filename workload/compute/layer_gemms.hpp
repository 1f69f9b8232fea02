// The GEMMs of one layer's training step on one PE: the forward pass, the input gradient (what
// back-propagation hands to the layer before) and the weight gradient (what the all-reduce
// sums). For a layer y = x * W (per sample x: m x k, W: k x n, y: m x n):
//
//   forward          y[m x n]  = x[m x k]     * W[k x n]
//   input gradient   dx[m x k] = dy[m x n]    * W^T[n x k]
//   weight gradient  dW[k x n] = x^T[k x m]   * dy[m x n]
//
// A convolution is this product over its convolution windows (SCALE-Sim's mapping:
// m = ofmap pixels E_h * E_w, k = the window filter_h * filter_w * channels, n = filters). Its
// input gradient is the transposed convolution the paper names (§VI-C): a stride-1 convolution
// of the output gradient, zero-inserted between pixels for a stride above 1 and zero-padded by
// the filter size less one, with the filters rotated: m = H' * W' input pixels, k = filter_h *
// filter_w * filters, n = channels, where H' = (E_h - 1) * stride + filter_h is the part of the
// ifmap the forward windows read (the rows a floor in E_h leaves unread get no gradient). The
// array computes the inserted zeros like any operand; nothing skips them.
//
// Samples: a PE's samples (and a layer's instances) are one GEMM, stacked along m for the
// forward pass and the input gradient and along the accumulated dimension for the weight
// gradient, which the output-stationary PEs sum in place. Each PE's weight gradient covers its
// own samples; summing the PEs' partial gradients is not a GEMM and is not counted.
#pragma once

#include <cstdint>
#include <optional>

#include "compute/systolic_model.hpp"
#include "spec/layer.hpp"

namespace mt::workload {

struct LayerGemms {
  std::optional<Gemm> forward, input_grad, weight_grad;  // absent: no GEMM for this pass
};

// The GEMMs of `layer` for `samples` samples on one PE. None for an embedding (a lookup and a
// scatter-add of rows, no multiply-accumulate) or a given layer. No input gradient when
// `input_is_data` (the first layer: the training data needs no gradient). A matmul's "weight
// gradient" is the gradient of its second operand, an activation. InputError when a size does
// not fit in 64 bits.
LayerGemms layer_gemms(const Layer& layer, uint64_t samples, bool input_is_data);

}  // namespace mt::workload
