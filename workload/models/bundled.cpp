#include "models/bundled.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "common/error.hpp"
#include "spec/workload_json.hpp"

namespace mt::workload {

const std::vector<std::string>& bundled_model_names() {
  static const std::vector<std::string> names = {
      "alexnet", "alphagozero", "fasterrcnn", "googlenet", "ncf", "resnet50", "transformer"};
  return names;
}

std::string bundled_models_dir() {
  std::error_code ec;
  if (std::filesystem::is_directory(MT_WORKLOAD_MODELS_DIR, ec)) return MT_WORKLOAD_MODELS_DIR;
  return MT_WORKLOAD_MODELS_INSTALLED_DIR;
}

Workload bundled_model(const std::string& name) {
  const std::vector<std::string>& names = bundled_model_names();
  if (std::find(names.begin(), names.end(), name) == names.end()) {
    throw InputError(
        fmt::format("\"{}\" is not a bundled model ({})", name, fmt::join(names, ", ")));
  }
  return read_workload_file(bundled_models_dir() + "/" + name + ".json");
}

}  // namespace mt::workload
