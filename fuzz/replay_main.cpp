// Replays files through a fuzz target on the normal build: every file of every directory given
// (recursively), so the checked-in corpus and crash reproducers run with each ctest.
//   fuzz_replay TARGET DIR_OR_FILE...
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

#include "targets.hpp"

namespace fs = std::filesystem;

namespace {

void run_file(mt::fuzz::Target target, const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                                   std::istreambuf_iterator<char>());
  target(bytes.data(), bytes.size());
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: fuzz_replay image|manifest|topology|plan DIR_OR_FILE...\n");
    return 1;
  }
  const mt::fuzz::Target target = mt::fuzz::find(argv[1]);
  if (target == nullptr) {
    std::fprintf(stderr, "fuzz_replay: unknown target \"%s\"\n", argv[1]);
    return 1;
  }
  size_t files = 0;
  for (int i = 2; i < argc; ++i) {
    const fs::path arg(argv[i]);
    if (fs::is_regular_file(arg)) {
      run_file(target, arg);
      ++files;
      continue;
    }
    if (!fs::is_directory(arg)) continue;  // no reproducers yet
    for (const fs::directory_entry& e : fs::recursive_directory_iterator(arg)) {
      if (!e.is_regular_file() || e.path().filename().string()[0] == '.') continue;
      if (e.path().extension() == ".md") continue;
      run_file(target, e.path());
      ++files;
    }
  }
  std::printf("fuzz_replay %s: %zu inputs, no finding\n", argv[1], files);
  return 0;
}
