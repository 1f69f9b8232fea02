// Zeroed host memory in one anonymous mapping, advised for transparent huge pages. A host-speed
// hint for large arrays a simulation touches page by page (the accelerator memories), never
// model behaviour: where /sys/kernel/mm/transparent_hugepage/enabled is `madvise` or `always`,
// Linux maps the range 2 MiB at a time (one page fault and one TLB entry where 4 KiB pages take
// 512); elsewhere it is plain zeroed pages. The bytes are the same either way.
#pragma once

#include <cstddef>
#include <cstdint>

namespace mt {

class ZeroedPages {
 public:
  // Maps `bytes` zeroed bytes (none for 0); std::system_error naming the size if the host
  // refuses them.
  explicit ZeroedPages(std::size_t bytes);
  ~ZeroedPages();
  ZeroedPages(const ZeroedPages&) = delete;
  ZeroedPages& operator=(const ZeroedPages&) = delete;

  std::uint8_t* data() const { return data_; }
  std::size_t size() const { return bytes_; }

 private:
  std::uint8_t* data_ = nullptr;  // 2 MiB-aligned
  std::size_t bytes_ = 0;
  std::size_t mapped_ = 0;  // bytes_ rounded up to whole huge pages
};

}  // namespace mt
