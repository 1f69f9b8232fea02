#include "common/input_file.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>

#include <fmt/format.h>

#include "common/error.hpp"

namespace mt {

std::string read_input_file(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    throw InputError(fmt::format("{}: cannot open: {}", path, std::strerror(errno)));
  }
  if (S_ISDIR(st.st_mode)) throw InputError(fmt::format("{}: is a directory, not a file", path));
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(fmt::format("{}: cannot open for reading", path));
  std::string s;
  try {
    s.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  } catch (const std::ios_base::failure& e) {
    throw InputError(fmt::format("{}: read error: {}", path, e.what()));
  }
  if (in.bad()) throw InputError(fmt::format("{}: read error", path));
  return s;
}

}  // namespace mt
