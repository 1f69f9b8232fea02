// Output files of the command-line tools: checked before long work starts, and written so a
// reader never sees half a file.
#pragma once

#include <string>

namespace mt {

// Throws InputError ("<what> <path>: directory ... does not exist" / "cannot write in ...")
// when `path` cannot be created.
void check_writable(const std::string& path, const char* what);
// Writes through a temporary file renamed into place; InputError if that fails.
void write_file(const std::string& path, const std::string& text);

}  // namespace mt
