#include "common/run_files.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <iterator>
#include <system_error>

#include <fmt/format.h>

#include "common/error.hpp"

namespace mt {

namespace fs = std::filesystem;

namespace {

// Where a path leads: its resolved name, and its device and inode when it exists.
struct Place {
  fs::path path;
  bool exists = false;
  dev_t dev = 0;
  ino_t ino = 0;
};

Place place_of(const std::string& path) {
  Place p;
  std::error_code ec;
  p.path = fs::weakly_canonical(fs::absolute(path, ec), ec);
  if (ec) p.path = fs::absolute(path, ec).lexically_normal();
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    p.exists = true;
    p.dev = st.st_dev;
    p.ino = st.st_ino;
  }
  return p;
}

bool same(const Place& a, const Place& b) {
  if (a.exists && b.exists) return a.dev == b.dev && a.ino == b.ino;
  return a.path == b.path;
}

// `inner` lies in directory `outer` (at any depth), by name or by the directories above it.
bool inside(const Place& inner, const Place& outer) {
  const auto o = std::distance(outer.path.begin(), outer.path.end());
  const auto i = std::distance(inner.path.begin(), inner.path.end());
  if (i > o && std::equal(outer.path.begin(), outer.path.end(), inner.path.begin())) return true;
  if (!outer.exists) return false;
  for (fs::path up = inner.path.parent_path(); !up.empty() && up != up.root_path();
       up = up.parent_path()) {
    struct stat st {};
    if (::stat(up.c_str(), &st) == 0 && st.st_dev == outer.dev && st.st_ino == outer.ino) {
      return true;
    }
  }
  return false;
}

std::string named(const RunFile& f) {
  return f.option.back() == ':' ? f.option + f.path : f.option + " " + f.path;
}

// The message when output `out` and input `in` collide, or "" when they do not.
std::string input_clash(const RunFile& out, const Place& op, const RunFile& in, const Place& ip) {
  if (!in.directory && same(op, ip)) {
    return fmt::format("{} is an input of this run ({}); writing it would replace what the run "
                       "reads: give the output another name", named(out), named(in));
  }
  if (out.directory && (same(op, ip) || inside(ip, op))) {
    return fmt::format("{} holds an input of this run ({}), which replacing the directory would "
                       "delete: give the output another directory", named(out), named(in));
  }
  if (in.directory && (same(op, ip) || inside(op, ip))) {
    return fmt::format("{} is in {}, the directory this run reads its input from: give the "
                       "output a name outside it", named(out), named(in));
  }
  return "";
}

}  // namespace

std::vector<RunFile> topology_inputs(const std::string& spec, const std::string& option) {
  const std::string prefix = "file:";
  if (spec.compare(0, prefix.size(), prefix) != 0 || spec.size() == prefix.size()) return {};
  return {{option + " file:", spec.substr(prefix.size()), false}};
}

void check_run_files(const std::vector<RunFile>& outputs, const std::vector<RunFile>& inputs) {
  std::vector<Place> out_places;
  for (const RunFile& o : outputs) out_places.push_back(place_of(o.path));
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (outputs[i].path.empty()) continue;
    for (size_t j = 0; j < i; ++j) {
      if (outputs[j].path.empty() || !same(out_places[i], out_places[j])) continue;
      throw InputError(fmt::format("{} and {} name the same file, so one output would be lost: "
                                   "give each its own name", named(outputs[j]),
                                   named(outputs[i])));
    }
    for (const RunFile& in : inputs) {
      if (in.path.empty()) continue;
      const std::string clash = input_clash(outputs[i], out_places[i], in, place_of(in.path));
      if (!clash.empty()) throw InputError(clash);
    }
  }
}

}  // namespace mt
