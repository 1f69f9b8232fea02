// A Verilated model with its own VerilatedContext, clocked cycle by cycle from C++: the RTL NI
// of mtsim --rtl (rtl_network_interface.cpp) and every test bench of tb/. `Model` is the
// Verilated class, with the inputs clk_i and rst_ni.
//
// One cycle: set the inputs, settle() evaluates the combinational outputs for them with the
// clock low, edge() is the rising edge that ends the cycle; tick() is settle() then edge().
// edge() leaves clk_i low again without evaluating it, which the next settle() does (the RTL
// has no falling-edge logic). cycle() counts the edges since construction.
//
// Waves: with ModelOptions::waves the model's signals go into that FST file. With
// sample_edges, every edge samples them twice, before it at 2 * cycle() and after it at
// 2 * cycle() + 1 (the time unit is half a cycle); without it only sample() writes them, at the
// caller's times.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <verilated.h>
#include <verilated_fst_c.h>

namespace mt::cosim {

struct ModelOptions {
  std::string name = "TOP";            // the model's top scope (waves, %m)
  std::vector<std::string> plusargs;   // "+name=value": what the model's $value$plusargs see
  std::string waves;                   // the FST file; empty: no waves
  bool picoseconds = false;            // the waves' time unit is 1 ps (else Verilator's default)
  bool sample_edges = true;            // edge() samples the waves (else only sample() does)
};

template <class Model>
class ClockedModel {
 public:
  // Constructs the model with clk_i and rst_ni low, evaluated once.
  explicit ClockedModel(const ModelOptions& o = {})
      : ctx_(std::make_unique<VerilatedContext>()), sample_edges_(o.sample_edges) {
    std::vector<const char*> argv{"verilated"};
    for (const std::string& a : o.plusargs) argv.push_back(a.c_str());
    ctx_->commandArgs(static_cast<int>(argv.size()), argv.data());
    if (!o.waves.empty()) {
      ctx_->traceEverOn(true);
      if (o.picoseconds) {
        ctx_->timeunit(-12);
        ctx_->timeprecision(-12);
      }
    }
    model_ = std::make_unique<Model>(ctx_.get(), o.name.c_str());
    if (!o.waves.empty()) {
      fst_ = std::make_unique<VerilatedFstC>();
      model_->trace(fst_.get(), 99);
      fst_->open(o.waves.c_str());
    }
    model_->clk_i = 0;
    model_->rst_ni = 0;
    model_->eval();
  }
  ~ClockedModel() {
    if (fst_) fst_->close();
    model_->final();
  }
  ClockedModel(const ClockedModel&) = delete;
  ClockedModel& operator=(const ClockedModel&) = delete;

  Model* operator->() { return model_.get(); }
  const Model* operator->() const { return model_.get(); }
  Model& model() { return *model_; }
  uint64_t cycle() const { return cycle_; }

  // Synchronous reset: rst_ni low for `cycles` cycles, then high (not yet evaluated).
  void reset(int cycles = 2) {
    model_->rst_ni = 0;
    for (int i = 0; i < cycles; ++i) tick();
    model_->rst_ni = 1;
  }
  // Evaluates the combinational logic for the inputs as they are now, clock low.
  void settle() {
    model_->clk_i = 0;
    model_->eval();
  }
  // The rising edge that ends this cycle, on the inputs settle() last evaluated.
  void edge() {
    if (sample_edges_) sample(2 * cycle_);
    model_->clk_i = 1;
    model_->eval();
    if (sample_edges_) sample(2 * cycle_ + 1);
    model_->clk_i = 0;
    ++cycle_;
  }
  void tick() {
    settle();
    edge();
  }
  // Writes the signals' values into the waves at `time` (nothing without waves).
  void sample(uint64_t time) {
    if (fst_) fst_->dump(time);
  }

 private:
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Model> model_;
  std::unique_ptr<VerilatedFstC> fst_;
  bool sample_edges_;
  uint64_t cycle_ = 0;
};

}  // namespace mt::cosim
