// The files one run of a tool reads and writes, checked against each other before the run
// starts: an output must not be another output's file, nor one of the run's inputs.
#pragma once

#include <string>
#include <vector>

namespace mt {

// A file (or directory) a run reads or writes, with the option that names it.
struct RunFile {
  std::string option;  // e.g. "--json", "-t file:"
  std::string path;
  // An output: a directory the run replaces whole (mtc plan -o). An input: a directory whose
  // files the run reads (mtsim --images).
  bool directory = false;
};

// The input a topology spec names: file:PATH's file, or nothing for a built-in network.
std::vector<RunFile> topology_inputs(const std::string& spec, const std::string& option);

// Throws InputError naming both options and the path when two outputs are one file, an output
// is an input file, an output directory holds an input or an output lies in an input
// directory. Paths are compared resolved (symbolic links followed, "." and ".." removed), and
// by device and inode where the file exists (hard links). Empty paths are skipped.
void check_run_files(const std::vector<RunFile>& outputs, const std::vector<RunFile>& inputs);

}  // namespace mt
