// Input files of the tools, read whole with errors that name the file and the reason.
#pragma once

#include <string>

namespace mt {

// The bytes of the regular file `path`. InputError "<path>: <reason>" when it does not exist,
// is a directory or other non-regular file, or cannot be read.
std::string read_input_file(const std::string& path);

}  // namespace mt
