// Drives a Verilated model cycle by cycle from a GoogleTest test, and writes its waves as FST
// into waves/<Suite>.<Test>.fst when the environment variable MT_WAVES is set (tb/README.md).
//
// Per cycle: set the inputs, call settle() to read the combinational outputs of this cycle,
// then tick() for the rising edge. cycle() counts the edges since construction.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <verilated.h>
#include <verilated_fst_c.h>

namespace mt::tb {

// The FST path for the running test, or "" when MT_WAVES is not set.
inline std::string waves_path(const std::string& suffix = "") {
  const char* on = std::getenv("MT_WAVES");
  if (on == nullptr || *on == '\0') return "";
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string name = info ? std::string(info->test_suite_name()) + "." + info->name() : "tb";
  for (char& c : name) {
    if (c == '/') c = '_';  // parameterised test names
  }
  return std::string(MT_SOURCE_DIR) + "/waves/" + name + suffix + ".fst";
}

template <class Model>
class Clocked {
 public:
  // `plusargs` ("+name=value") are what the model's $value$plusargs see.
  explicit Clocked(const std::string& wave_suffix = "",
                   const std::vector<std::string>& plusargs = {})
      : ctx_(std::make_unique<VerilatedContext>()) {
    std::vector<const char*> argv{"tb"};
    for (const std::string& a : plusargs) argv.push_back(a.c_str());
    ctx_->commandArgs(static_cast<int>(argv.size()), argv.data());
    const std::string path = waves_path(wave_suffix);
    if (!path.empty()) ctx_->traceEverOn(true);
    model_ = std::make_unique<Model>(ctx_.get());
    if (!path.empty()) {
      fst_ = std::make_unique<VerilatedFstC>();
      model_->trace(fst_.get(), 99);
      fst_->open(path.c_str());
    }
    model_->clk_i = 0;
    model_->rst_ni = 0;
    model_->eval();
  }
  ~Clocked() {
    if (fst_) fst_->close();
    model_->final();
  }
  Clocked(const Clocked&) = delete;
  Clocked& operator=(const Clocked&) = delete;

  Model* operator->() { return model_.get(); }
  Model& model() { return *model_; }
  uint64_t cycle() const { return cycle_; }

  // Synchronous reset for `cycles` edges, then released.
  void reset(int cycles = 2) {
    model_->rst_ni = 0;
    for (int i = 0; i < cycles; ++i) tick();
    model_->rst_ni = 1;
  }
  // Evaluates the combinational logic for the inputs as they are now (clock low).
  void settle() {
    model_->clk_i = 0;
    model_->eval();
  }
  // The rising edge that ends this cycle.
  void tick() {
    settle();
    if (fst_) fst_->dump(2 * cycle_);
    model_->clk_i = 1;
    model_->eval();
    if (fst_) fst_->dump(2 * cycle_ + 1);
    ++cycle_;
  }

 private:
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Model> model_;
  std::unique_ptr<VerilatedFstC> fst_;
  uint64_t cycle_ = 0;
};

}  // namespace mt::tb
