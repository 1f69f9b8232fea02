#include "import/load_workload.hpp"

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

#include "common/error.hpp"
#include "import/astrasim_text.hpp"
#include "import/scalesim_csv.hpp"
#include "models/bundled.hpp"
#include "spec/workload_json.hpp"

namespace mt::workload {

bool is_workload_path(const std::string& name_or_path) {
  return name_or_path.find('/') != std::string::npos ||
         std::filesystem::path(name_or_path).has_extension();
}

Workload load_workload(const std::string& name_or_path) {
  if (!is_workload_path(name_or_path)) {
    const std::vector<std::string>& names = bundled_model_names();
    if (std::find(names.begin(), names.end(), name_or_path) == names.end()) {
      throw InputError(fmt::format("\"{}\" is not a bundled model ({}) nor a workload file's "
                                   "path (ending in .json, .csv or .txt)",
                                   name_or_path, fmt::join(names, ", ")));
    }
    return bundled_model(name_or_path);
  }
  const std::string ext = std::filesystem::path(name_or_path).extension().string();
  if (ext == ".json") return read_workload_file(name_or_path);
  if (ext == ".csv") return read_scalesim_csv(name_or_path);
  if (ext == ".txt") return read_astrasim_text(name_or_path);
  throw InputError(fmt::format("{}: {} (.json: the workload format, .csv: a SCALE-Sim topology, "
                               ".txt: an ASTRA-sim text workload)", name_or_path,
                               ext.empty() ? std::string("a workload file needs an extension")
                                           : "unknown workload file extension \"" + ext + "\""));
}

}  // namespace mt::workload
