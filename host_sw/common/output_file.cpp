#include "common/output_file.hpp"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <system_error>

#include <fmt/format.h>

#include "common/error.hpp"

namespace mt {

namespace fs = std::filesystem;

void check_writable(const std::string& path, const char* what) {
  const fs::path dir = fs::absolute(path).parent_path();
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    throw InputError(fmt::format("{} {}: directory {} does not exist", what, path, dir.string()));
  }
  if (::access(dir.c_str(), W_OK) != 0) {
    throw InputError(fmt::format("{} {}: cannot write in {}", what, path, dir.string()));
  }
}

void write_file(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream f(tmp);
    if (!(f << text) || !f.flush()) {
      std::error_code ec;
      fs::remove(tmp, ec);
      throw InputError(fmt::format("cannot write {}", path));
    }
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) {
    fs::remove(tmp, ec);
    throw InputError(fmt::format("cannot write {}: {}", path, ec.message()));
  }
}

}  // namespace mt
