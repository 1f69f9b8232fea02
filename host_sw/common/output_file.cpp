#include "common/output_file.hpp"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

#include <fmt/format.h>

#include "common/error.hpp"
#include "common/file_kind.hpp"

namespace mt {

namespace fs = std::filesystem;

std::string write_error_text(int e) {
  std::string text = std::strerror(e);
  rlimit rl{};
  if (e == EFBIG && ::getrlimit(RLIMIT_FSIZE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
    text += fmt::format(": the file-size limit of {} bytes (ulimit -f {}) was reached",
                        static_cast<unsigned long long>(rl.rlim_cur),
                        static_cast<unsigned long long>(rl.rlim_cur / 1024));
  }
  return text;
}

namespace {

// The file `path` names: itself, or the regular file a symbolic link points to (which is then
// replaced, the link kept). Throws InputError for anything that must not be replaced.
fs::path target_of(const std::string& path, const char* what) {
  if (path.empty()) throw InputError(fmt::format("{}: the file name is empty", what));
  if (path == "-") {  // not standard output, which carries the tool's report
    throw InputError(fmt::format("{} -: the output goes to a file, not to standard output; "
                                 "name one (./- for a file named -)", what));
  }
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return fs::path(path);
    throw InputError(fmt::format("{} {}: {}", what, path, write_error_text(errno)));
  }
  fs::path target(path);
  if (S_ISLNK(st.st_mode)) {
    std::error_code ec;
    target = fs::canonical(path, ec);
    if (ec) {
      throw InputError(fmt::format("{} {}: a symbolic link to nowhere ({})", what, path,
                                   ec.message()));
    }
    if (::stat(target.c_str(), &st) != 0) {
      throw InputError(fmt::format("{} {}: {}", what, path, write_error_text(errno)));
    }
  }
  if (!S_ISREG(st.st_mode)) {
    throw InputError(fmt::format("{} {}: is {}; give the name of a regular file to write", what,
                                 path, file_kind(st.st_mode)));
  }
  return target;
}

// Writes all of `data` to `fd`; false (errno set) on a write error.
bool write_all(int fd, const char* data, size_t size) {
  size_t done = 0;
  while (done < size) {
    const ssize_t n = ::write(fd, data + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

// Permission bits for the new file: the old file's, or what a plain create would give.
mode_t mode_for(const fs::path& target) {
  struct stat st {};
  if (::stat(target.c_str(), &st) == 0) return st.st_mode & 07777;
  const mode_t mask = ::umask(0);
  ::umask(mask);
  return 0666 & ~mask;
}

}  // namespace

void check_writable(const std::string& path, const char* what) {
  const fs::path target = target_of(path, what);
  const fs::path dir = fs::absolute(target).parent_path();
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    throw InputError(fmt::format("{} {}: directory {} does not exist", what, path, dir.string()));
  }
  // Try it: access() says yes to root on a read-only or virtual file system such as /proc.
  const bool exists = fs::exists(target, ec);
  const int fd = ::open(target.c_str(), exists ? O_WRONLY : O_WRONLY | O_CREAT | O_EXCL, 0666);
  if (fd < 0) {
    throw InputError(fmt::format("{} {}: cannot write it: {}", what, path, write_error_text(errno)));
  }
  ::close(fd);
  if (!exists) ::unlink(target.c_str());
}

void write_file(const std::string& path, const std::string& text, const char* what) {
  const fs::path target = fs::absolute(target_of(path, what));
  std::string tmp = (target.parent_path() / ("." + target.filename().string() + ".XXXXXX")).string();
  const int fd = ::mkstemp(tmp.data());
  if (fd < 0 && errno == ENAMETOOLONG) {
    throw InputError(fmt::format("{} {}: the name is too long ({}; the file is written through "
                                 "a temporary name 8 characters longer)", what, path,
                                 write_error_text(errno)));
  }
  if (fd < 0) {
    throw InputError(fmt::format("{} {}: cannot create a file in {}: {}", what, path,
                                 target.parent_path().string(), write_error_text(errno)));
  }
  const bool written = write_all(fd, text.data(), text.size()) && ::fchmod(fd, mode_for(target)) == 0;
  const int write_errno = errno;
  const bool closed = ::close(fd) == 0;
  const int close_errno = errno;
  if (!written || !closed || ::rename(tmp.c_str(), target.c_str()) != 0) {
    const int e = !written ? write_errno : !closed ? close_errno : errno;
    ::unlink(tmp.c_str());
    throw InputError(fmt::format("{} {}: cannot write: {}", what, path, write_error_text(e)));
  }
}

void write_new_file(const std::string& path, const char* data, size_t size,
                    const std::string& shown) {
  const std::string& name = shown.empty() ? path : shown;
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) throw InputError(fmt::format("{}: cannot write: {}", name, write_error_text(errno)));
  const bool written = write_all(fd, data, size);
  const int write_errno = errno;
  if (::close(fd) != 0 || !written) {
    throw InputError(fmt::format("{}: cannot write: {}", name,
                                 write_error_text(written ? errno : write_errno)));
  }
}

void finish_output(std::ostream& out) {
  if (out) {  // else errno still tells why the last write failed
    errno = 0;
    out.flush();
  }
  if (out) return;
  const int e = errno;
  throw InputError(std::string("cannot write the standard output") +
                   (e != 0 ? std::string(": ") + write_error_text(e) : std::string()));
}

}  // namespace mt
