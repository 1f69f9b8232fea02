// Input files of the tools, read whole with errors that name the file and the reason.
#pragma once

#include <cstdint>
#include <string>

namespace mt {

// The most bytes any input file may hold (a manifest, a node image, a topology file): 256 MiB,
// over a hundred times the largest image the tools write (a node of torus:64x64, 1.4 MB).
constexpr uint64_t kMaxInputBytes = uint64_t{256} << 20;

// The bytes of the regular file `path`. InputError "<path>: <reason>" when it does not exist,
// is a directory or other non-regular file (a FIFO is refused without waiting for a writer, a
// device without reading it), holds more than kMaxInputBytes, or cannot be read.
std::string read_input_file(const std::string& path);

}  // namespace mt
