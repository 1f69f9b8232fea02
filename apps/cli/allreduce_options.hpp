// The options of the all-reduce simulation that mtsim and mttrain share (AllReduceOptions
// fields), described once.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "allreduce/allreduce_sim.hpp"
#include "cli/config_preset.hpp"
#include "cli/noc_options.hpp"

namespace mt::noc {

inline CLI::Option* add_algorithm_option(CLI::App& app, std::string& algorithm) {
  return app
      .add_option("-a,--algorithm", algorithm,
                  "multitree, multitree-opt (torus, ring, BiGraph, two-level fat-tree), ring, "
                  "ring-bi, ring2d, ring2d-paper (torus), dbtree, hdrm (BiGraph), flexreduce, "
                  "blueconnect (hierarchies of machines, hier:A+B+...), mtree (direct networks), "
                  "ps (parameter server on node 0; switch networks), ina (in-network aggregation; "
                  "switch networks), netreduce (hierarchical NetReduce; hierarchies of equal "
                  "machines), or msccl:PATH (an MSCCL XML all-reduce, imported and "
                  "verified: docs/msccl.md)")
      ->capture_default_str();
}

inline CLI::Option* add_config_option(CLI::App& app, std::string& config) {
  return app.add_option("--config", config, config_preset_help())->capture_default_str();
}

inline CLI::Option* add_flow_control_option(CLI::App& app, std::string& flow_control) {
  return app
      .add_option("--flow-control", flow_control,
                  "message (one head flit per gradient message) or packet (256-byte packets)")
      ->capture_default_str();
}

// --data; `more` is appended to the help.
inline CLI::Option* add_data_option(CLI::App& app, std::string& data,
                                    const std::string& more = "") {
  return app
      .add_option("--data", data,
                  "full: every node's buffer is stored and every element checked; sampled: "
                  "only a sample of 16-byte lines (one per KiB and the first and last line of "
                  "the buffer and of every table entry's chunk) is stored, summed and checked, "
                  "for runs too big for memory (same cycles; the output says it was sampled)" +
                      more)
      ->capture_default_str();
}

// --mem-latency and --reduce-latency, which --config's presets set unless given.
inline CLI::Option* add_mem_latency_option(CLI::App& app, AllReduceOptions& o) {
  return app.add_option("--mem-latency", o.memory.latency, "accelerator memory latency, cycles")
      ->check(latency_cycles())
      ->capture_default_str();
}

inline CLI::Option* add_reduce_latency_option(CLI::App& app, AllReduceOptions& o) {
  return app
      .add_option("--reduce-latency", o.reduction.latency, "reduction unit pipeline, cycles")
      ->check(latency_cycles())
      ->capture_default_str();
}

}  // namespace mt::noc
