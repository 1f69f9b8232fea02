#include "traffic/child_process.hpp"

#include <poll.h>
#include <sys/resource.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <optional>
#include <stdexcept>

#include <fmt/format.h>

#include "common/error.hpp"
#include "common/resource_error.hpp"

// libgcov's dump of the profile counters: present in a build instrumented for profile-guided
// optimisation (cmake -DMT_PGO=generate links it in), null in any other build.
extern "C" void __gcov_dump(void) __attribute__((weak));

namespace mt::noc {
namespace {

// First byte of a child's message: how the job ended.
constexpr char kOk = 'o', kInput = 'i', kInternal = 'x';

void write_all(int fd, const std::string& s) {
  size_t done = 0;
  while (done < s.size()) {
    const ssize_t n = ::write(fd, s.data() + done, s.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;  // the parent went away; nothing left to tell
    done += static_cast<size_t>(n);
  }
}

// A child dies with its parent however the parent ends (SIGTERM, SIGINT, SIGKILL, a crash):
// the kernel sends it SIGKILL when the thread that forked it ends, so a killed tool leaves no
// simulation running. A parent that died before prctl took effect is seen in getppid().
void die_with_parent(pid_t parent) {
  if (::prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || ::getppid() != parent) ::_exit(2);
}

[[noreturn]] void child_main(const std::function<std::string()>& job, int fd) {
  ::dup2(STDERR_FILENO, STDOUT_FILENO);
  char status = kOk;
  std::string text;
  try {
    text = job();
  } catch (const InputError& e) {
    status = kInput;
    text = e.what();
  } catch (const std::exception& e) {
    const auto refused = refused_resource(e);  // too large for the limits, as bad input
    status = refused ? kInput : kInternal;
    text = refused ? *refused : e.what();
  } catch (...) {
    status = kInternal;
    text = "unknown exception";
  }
  write_all(fd, std::string(1, status) + text);
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  // _exit: the parent's atexit handlers and static destructors (SystemC's included) belong to
  // the parent. libgcov's dump at exit is one of them, so an instrumented child writes its
  // profile here.
  if (__gcov_dump != nullptr) __gcov_dump();
  ::_exit(status == kOk ? 0 : status == kInput ? 1 : 2);
}

struct Running {
  pid_t pid;
  int fd;
  size_t job;
  std::string data;
};

double cpu_seconds(const rusage& used) {
  return static_cast<double>(used.ru_utime.tv_sec + used.ru_stime.tv_sec) +
         1e-6 * static_cast<double>(used.ru_utime.tv_usec + used.ru_stime.tv_usec);
}

// A child killed for its CPU time: SIGXCPU at the soft limit of RLIMIT_CPU (ulimit -t), SIGKILL
// at the hard one, with that much CPU used. The limit is a bound the run was given, like the
// memory of refused_resource: the run is too long for it, an input error naming it.
std::optional<std::string> cpu_limit_kill(int signal, const rusage& used) {
  rlimit rl{};
  if ((signal != SIGXCPU && signal != SIGKILL) || ::getrlimit(RLIMIT_CPU, &rl) != 0 ||
      rl.rlim_cur == RLIM_INFINITY) {
    return std::nullopt;
  }
  const double seconds = cpu_seconds(used);
  // The kernel kills on its exact count; the usage reported after is sampled and runs up to
  // about half a second short of it under load.
  const double limit = static_cast<double>(rl.rlim_cur);
  if (signal == SIGKILL && seconds + std::max(1.0, 0.1 * limit) < limit) return std::nullopt;
  return fmt::format("the CPU-time limit of {} s (ulimit -t {}) was reached: a simulation "
                     "process was killed by signal {} ({}) after {:.1f} s of CPU; a smaller run "
                     "or a higher limit may fit",
                     static_cast<unsigned long long>(rl.rlim_cur),
                     static_cast<unsigned long long>(rl.rlim_cur), signal, ::strsignal(signal),
                     seconds);
}

ChildResult finish(Running& r) {
  ::close(r.fd);
  int wstatus = 0;
  rusage used{};
  while (::wait4(r.pid, &wstatus, 0, &used) < 0 && errno == EINTR) {
  }
  ChildResult res;
  if (WIFSIGNALED(wstatus)) {
    if (const auto limit = cpu_limit_kill(WTERMSIG(wstatus), used)) {
      res.status = ChildResult::Status::kInputError;
      res.text = *limit;
      return res;
    }
    res.text = fmt::format("simulation process killed by signal {} ({}) after {:.1f} s of CPU",
                           WTERMSIG(wstatus), ::strsignal(WTERMSIG(wstatus)), cpu_seconds(used));
    return res;
  }
  if (r.data.empty()) {
    res.text = fmt::format("simulation process exited with status {} without a result",
                           WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1);
    return res;
  }
  res.status = r.data[0] == kOk      ? ChildResult::Status::kOk
               : r.data[0] == kInput ? ChildResult::Status::kInputError
                                     : ChildResult::Status::kInternalError;
  res.text = r.data.substr(1);
  if (res.ok() && !(WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0)) {
    res.status = ChildResult::Status::kInternalError;
    res.text = "simulation process failed after reporting its result";
  }
  return res;
}

}  // namespace

std::vector<ChildResult> run_in_children(const std::vector<std::function<std::string()>>& jobs,
                                         unsigned parallel) {
  if (parallel < 1) parallel = 1;
  std::vector<ChildResult> results(jobs.size());
  std::vector<Running> running;
  size_t next = 0;
  while (next < jobs.size() || !running.empty()) {
    while (running.size() < parallel && next < jobs.size()) {
      int fds[2];
      if (::pipe(fds) != 0) throw std::runtime_error(fmt::format("pipe: {}", std::strerror(errno)));
      std::cout.flush();
      std::cerr.flush();
      std::fflush(nullptr);  // or the child would print the parent's buffered output again
      const pid_t parent = ::getpid();
      const pid_t pid = ::fork();
      if (pid < 0) throw std::runtime_error(fmt::format("fork: {}", std::strerror(errno)));
      if (pid == 0) {
        die_with_parent(parent);
        ::close(fds[0]);
        for (const Running& r : running) ::close(r.fd);
        child_main(jobs[next], fds[1]);
      }
      ::close(fds[1]);
      running.push_back({pid, fds[0], next++, {}});
    }
    // Read every child's pipe as data comes, so none blocks on a full pipe.
    std::vector<pollfd> pfds;
    for (const Running& r : running) pfds.push_back({r.fd, POLLIN, 0});
    if (::poll(pfds.data(), pfds.size(), -1) < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error(fmt::format("poll: {}", std::strerror(errno)));
    }
    for (size_t i = running.size(); i-- > 0;) {
      if (pfds[i].revents == 0) continue;
      char buf[65536];
      const ssize_t n = ::read(running[i].fd, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n > 0) {
        running[i].data.append(buf, static_cast<size_t>(n));
        continue;
      }
      results[running[i].job] = finish(running[i]);
      running.erase(running.begin() + static_cast<std::ptrdiff_t>(i));
    }
  }
  return results;
}

}  // namespace mt::noc
