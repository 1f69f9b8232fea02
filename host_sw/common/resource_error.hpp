// Memory or a thread the host refused mid-run (a `ulimit -v`, an overcommit or process limit):
// the run is too large for the limits it was given, which is bad input (exit 1), not a bug, so
// the tools say what was refused and the limit.
#pragma once

#include <sys/resource.h>

#include <cerrno>
#include <exception>
#include <new>
#include <optional>
#include <string>
#include <system_error>

#include <fmt/format.h>

namespace mt {

// ", with an address-space limit of N bytes (ulimit -v K)", or "" when there is none.
inline std::string address_space_limit_text() {
  rlimit rl{};
  if (::getrlimit(RLIMIT_AS, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY) return "";
  return fmt::format(", with an address-space limit of {} bytes (ulimit -v {})",
                     static_cast<unsigned long long>(rl.rlim_cur),
                     static_cast<unsigned long long>(rl.rlim_cur / 1024));
}

// The message for an exception that says the host refused memory or a thread, or nothing for
// any other exception. SystemC passes an exception out of a simulation process as its report
// E549 "uncaught exception: <what()>", which is recognised by that text, and a process stack it
// could not allocate as E518.
inline std::optional<std::string> refused_resource(const std::exception& e) {
  const std::string what = e.what();
  const bool sc_uncaught = what.find("uncaught exception: ") != std::string::npos;
  const auto* sys = dynamic_cast<const std::system_error*>(&e);
  const bool no_thread =
      (sys != nullptr && (sys->code().value() == EAGAIN || sys->code().value() == ENOMEM)) ||
      (sc_uncaught && what.find("Resource temporarily unavailable") != std::string::npos);
  if (no_thread) {
    return fmt::format("the host refused a thread or its memory (Resource temporarily "
                       "unavailable){}",
                       address_space_limit_text());
  }
  // SystemC's E518: the stack of a simulation process could not be allocated.
  const bool no_stack = what.find("(E518) stack setup failed") != std::string::npos;
  if (dynamic_cast<const std::bad_alloc*>(&e) != nullptr || no_stack ||
      (sc_uncaught && what.find("std::bad_alloc") != std::string::npos)) {
    return fmt::format("the host refused memory ({}){}; a smaller run or a higher limit may fit",
                       no_stack ? "a simulation process's stack" : "std::bad_alloc",
                       address_space_limit_text());
  }
  return std::nullopt;
}

}  // namespace mt
