// The cycle driver of the test benches: cosim::ClockedModel (cosim/clocked_model.hpp: set the
// inputs, settle() to read this cycle's combinational outputs, edge() or tick() for the rising
// edge), writing its waves into waves/<Suite>.<Test>.fst when the environment variable
// MT_WAVES is set (tb/README.md).
#pragma once

#include <cstdlib>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "clocked_model.hpp"

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

// The waves of the running test (every edge sampled, half a cycle a time unit) and `plusargs`
// ("+name=value", what the model's $value$plusargs see).
inline cosim::ModelOptions bench_options(const std::string& wave_suffix,
                                         const std::vector<std::string>& plusargs) {
  cosim::ModelOptions o;
  o.plusargs = plusargs;
  o.waves = waves_path(wave_suffix);
  return o;
}

template <class Model>
class Clocked : public cosim::ClockedModel<Model> {
 public:
  explicit Clocked(const std::string& wave_suffix = "",
                   const std::vector<std::string>& plusargs = {})
      : cosim::ClockedModel<Model>(bench_options(wave_suffix, plusargs)) {}
};

}  // namespace mt::tb
