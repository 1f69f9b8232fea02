// Output files of the command-line tools: checked before long work starts, and written so a
// reader never sees half a file.
#pragma once

#include <ostream>
#include <string>

namespace mt {

// Throws InputError naming `what` (the option, e.g. "--json") and `path` when `path` cannot be
// written: an empty name, a directory that does not exist or cannot be written, or an existing
// path that is not a regular file (a device, FIFO, socket or directory is never replaced).
// A symbolic link stands for the regular file it points to.
void check_writable(const std::string& path, const char* what);
// Writes a regular file atomically: through a fresh temporary file in the same directory,
// renamed over the file (a symbolic link's target is replaced, the link kept). The same
// checks as check_writable; a write error is an InputError with the system's reason.
void write_file(const std::string& path, const std::string& text, const char* what);

// Writes `size` bytes into a new file at `path`, or over an existing one; InputError
// "<shown>: cannot write: <reason>" when that fails (`shown`: the name to give, by default
// `path`). For files inside a directory that is itself put into place atomically (image sets,
// whose messages name the set's file rather than the temporary one).
void write_new_file(const std::string& path, const char* data, size_t size,
                    const std::string& shown = "");

// errno `e`'s reason, and for EFBIG the file-size limit (ulimit -f) that was reached.
std::string write_error_text(int e);

// Flushes `out`, a tool's standard output; InputError when anything written to it was lost
// (with errno's reason: set errno to 0 before the writes whose failure it should name).
void finish_output(std::ostream& out);

}  // namespace mt
