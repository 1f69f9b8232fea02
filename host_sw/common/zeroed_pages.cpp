#include "common/zeroed_pages.hpp"

#include <sys/mman.h>

#include <cerrno>
#include <system_error>

#include <fmt/format.h>

namespace mt {
namespace {

constexpr std::size_t kHugePage = std::size_t{2} << 20;  // x86-64's and arm64's PMD size

std::size_t round_up(std::size_t bytes) { return (bytes + kHugePage - 1) / kHugePage * kHugePage; }

}  // namespace

ZeroedPages::ZeroedPages(std::size_t bytes) : bytes_(bytes), mapped_(round_up(bytes)) {
  if (bytes == 0) return;
  // A huge page needs a 2 MiB-aligned range: map one page more and unmap the ends around it.
  const std::size_t spare = mapped_ + kHugePage;
  void* p = MAP_FAILED;
  int error = ENOMEM;  // the rounding overflows
  if (mapped_ >= bytes && spare > mapped_) {
    p = mmap(nullptr, spare, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    error = errno;
  }
  if (p == MAP_FAILED) {
    throw std::system_error(error, std::generic_category(),
                            fmt::format("{} bytes of host memory", bytes));
  }
  const auto at = reinterpret_cast<std::uintptr_t>(p);
  const std::uintptr_t aligned = (at + kHugePage - 1) & ~std::uintptr_t{kHugePage - 1};
  if (aligned > at) munmap(p, aligned - at);
  const std::size_t tail = at + spare - (aligned + mapped_);
  if (tail > 0) munmap(reinterpret_cast<void*>(aligned + mapped_), tail);
  data_ = reinterpret_cast<std::uint8_t*>(aligned);
#ifdef MADV_HUGEPAGE
  madvise(data_, mapped_, MADV_HUGEPAGE);  // advice: where refused (no THP), nothing changes
#endif
}

ZeroedPages::~ZeroedPages() {
  if (data_ != nullptr) munmap(data_, mapped_);
}

}  // namespace mt
