// What a path that is not a regular file is, for the messages of the input and output files.
#pragma once

#include <sys/stat.h>

namespace mt {

// "a directory", "a FIFO", ...: the kind of a file of mode `mode`.
inline const char* file_kind(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

}  // namespace mt
