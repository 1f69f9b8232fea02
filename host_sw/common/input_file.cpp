#include "common/input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "common/error.hpp"
#include "common/file_kind.hpp"

namespace mt {

namespace {

std::string too_large(const std::string& path) {
  return fmt::format("{}: holds more than {} bytes (256 MiB), the most an input file may hold",
                     path, kMaxInputBytes);
}

// Closes the descriptor however the read ends.
struct Fd {
  int fd;
  ~Fd() { ::close(fd); }
};

}  // namespace

std::string read_input_file(const std::string& path) {
  // O_NONBLOCK: opening a FIFO for reading does not wait for a writer; fstat then refuses it.
  const Fd f{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)};
  if (f.fd < 0) throw InputError(fmt::format("{}: cannot open: {}", path, std::strerror(errno)));
  struct stat st {};
  if (::fstat(f.fd, &st) != 0) {
    throw InputError(fmt::format("{}: cannot open: {}", path, std::strerror(errno)));
  }
  if (!S_ISREG(st.st_mode)) {
    throw InputError(fmt::format("{}: is {}, not a regular file", path, file_kind(st.st_mode)));
  }
  if (static_cast<uint64_t>(st.st_size) > kMaxInputBytes) throw InputError(too_large(path));
  std::string s;
  s.reserve(static_cast<size_t>(st.st_size));
  char buf[65536];
  for (;;) {  // to the end, however long fstat said it is (a file that grows is still bounded)
    const ssize_t n = ::read(f.fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw InputError(fmt::format("{}: read error: {}", path, std::strerror(errno)));
    if (n == 0) return s;
    if (s.size() + static_cast<size_t>(n) > kMaxInputBytes) throw InputError(too_large(path));
    s.append(buf, static_cast<size_t>(n));
  }
}

}  // namespace mt
