// mttrain as a user runs it: a tiny model end to end on a 4x4 torus, its JSON checked against
// the iteration rebuilt from the all-reduce cycles it reports, and clear errors (exit 1,
// nothing written) for bad workloads.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "mtsim_test_util.hpp"
#include "support/run_command.hpp"

namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using mt::test::kMtsim;
using mt::test::run_command;
using nlohmann::json;

const std::string kMttrain = std::string(MT_BIN_DIR) + "/mttrain";

std::string temp_dir(const std::string& name) { return mt::test::fresh_dir("mttrain_test_", name); }

std::string write(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
  return path;
}

// Three fully connected layers: 32 KiB, 64 KiB and 8 KiB of gradients.
std::string tiny_model(const std::string& dir) {
  return write(dir + "/tiny.json",
               R"({"version":1,"name":"tiny","layers":[)"
               R"({"name":"fc1","kind":"fc","inputs":64,"outputs":128},)"
               R"({"name":"fc2","kind":"fc","inputs":128,"outputs":128},)"
               R"({"name":"fc3","kind":"fc","inputs":128,"outputs":16}]})");
}

json read_json(const std::string& path) {
  std::ifstream f(path);
  return json::parse(f);
}

// The iteration rebuilt from the JSON's per-layer cycles and all-reduce cycles: forward in
// order, back-propagation in reverse, the all-reduces in FIFO order from `ready_at_end` (none)
// or each from its layer's gradient (layer).
uint64_t rebuilt_iteration(const json& j, bool layer_wise) {
  const json& layers = j.at("layers");
  uint64_t t = 0;
  for (const json& l : layers) t += l.at("forward_cycles").get<uint64_t>();
  std::vector<uint64_t> ready(layers.size());
  for (size_t i = layers.size(); i-- > 0;) {
    t += layers[i].at("input_grad_cycles").get<uint64_t>() +
         layers[i].at("weight_grad_cycles").get<uint64_t>();
    ready[i] = t;
  }
  uint64_t end = 0;
  for (const json& a : j.at("allreduces")) {
    uint64_t r = t;
    if (layer_wise) {
      r = 0;
      for (size_t l : a.at("layers").get<std::vector<size_t>>()) r = std::max(r, ready[l]);
    }
    end = std::max(end, r) + a.at("cycles").get<uint64_t>();
  }
  return std::max(t, end);
}

void check_iteration(const json& j, bool layer_wise) {
  for (const char* key : {"iteration_cycles", "compute_cycles", "exposed_comm_cycles",
                          "allreduce_cycles", "overlap_cycles", "layers", "allreduces"}) {
    ASSERT_TRUE(j.contains(key)) << key;
  }
  const uint64_t iteration = j.at("iteration_cycles").get<uint64_t>();
  const uint64_t compute = j.at("compute_cycles").get<uint64_t>();
  EXPECT_EQ(iteration, rebuilt_iteration(j, layer_wise));
  EXPECT_EQ(compute, j.at("forward_cycles").get<uint64_t>() + j.at("backward_cycles").get<uint64_t>());
  EXPECT_EQ(j.at("exposed_comm_cycles").get<uint64_t>(), iteration - compute);
  uint64_t allreduce = 0;
  for (const json& a : j.at("allreduces")) {
    allreduce += a.at("cycles").get<uint64_t>();
    EXPECT_EQ(a.at("cycles"), a.at("network_cycles"));  // both clocks at 1 GHz
    EXPECT_EQ(a.at("padded_bytes"), 0);
  }
  EXPECT_EQ(j.at("allreduce_cycles").get<uint64_t>(), allreduce);
  EXPECT_EQ(j.at("overlap_cycles").get<uint64_t>(), allreduce - (iteration - compute));
  for (const json& s : j.at("simulations")) EXPECT_TRUE(s.at("verified").get<bool>());
}

TEST(Mttrain, TinyModelLayerWiseOnTorus4x4) {
  const std::string dir = temp_dir("layer");
  const auto r = run_command(kMttrain + " --workload " + tiny_model(dir) +
                             " -t torus:4x4 --overlap layer -j 1 -q --json " + dir + "/out.json");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr("iteration"));
  EXPECT_THAT(r.out, HasSubstr("exposed comm"));
  const json j = read_json(dir + "/out.json");
  EXPECT_EQ(j.at("workload"), "tiny");
  EXPECT_EQ(j.at("overlap"), "layer");
  EXPECT_EQ(j.at("data"), "sampled");
  ASSERT_EQ(j.at("layers").size(), 3u);
  ASSERT_EQ(j.at("allreduces").size(), 3u);
  EXPECT_EQ(j.at("allreduces")[0].at("layers"), json::array({2}));  // backward order
  EXPECT_EQ(j.at("allreduces")[0].at("bytes"), 8192);
  EXPECT_EQ(j.at("layers")[1].at("gradient_bytes"), 65536);
  check_iteration(j, true);
  // The all-reduce's cycles are mtsim's for that size and network.
  const auto m = run_command(kMtsim + " -t torus:4x4 -b 8192 --data sampled -q --json " + dir +
                             "/mtsim.json");
  ASSERT_EQ(m.code, 0) << m.out;
  EXPECT_EQ(read_json(dir + "/mtsim.json").at("cycles"), j.at("allreduces")[0].at("network_cycles"));
}

TEST(Mttrain, TinyModelNonOverlappedIsComputeThenAllReduce) {
  const std::string dir = temp_dir("none");
  const auto r = run_command(kMttrain + " --workload " + tiny_model(dir) +
                             " -t torus:4x4 -j 1 -q --json " + dir + "/out.json");
  ASSERT_EQ(r.code, 0) << r.out;
  const json j = read_json(dir + "/out.json");
  EXPECT_EQ(j.at("overlap"), "none");
  ASSERT_EQ(j.at("allreduces").size(), 1u);
  EXPECT_EQ(j.at("allreduces")[0].at("bytes"), 32768 + 65536 + 8192);
  check_iteration(j, false);
  EXPECT_EQ(j.at("overlap_cycles"), 0);
  EXPECT_EQ(j.at("iteration_cycles").get<uint64_t>(),
            j.at("compute_cycles").get<uint64_t>() + j.at("allreduce_cycles").get<uint64_t>());
}

// A second run with the same network options reads every all-reduce from the --sim-cache and
// reports the same iteration; the layer-wise run then needs only the sizes the non-overlapped
// run did not simulate; another flow control simulates its own.
TEST(Mttrain, SimCacheSharesSimulationsBetweenRuns) {
  const std::string dir = temp_dir("sim_cache");
  const std::string model = tiny_model(dir);
  const auto run = [&](const std::string& args, const std::string& out) {
    const auto r = run_command(kMttrain + " --workload " + model + " -t torus:4x4 -j 1 -q" +
                               " --sim-cache " + dir + "/cache --json " + dir + "/" + out + " " +
                               args);
    EXPECT_EQ(r.code, 0) << r.out;
    return read_json(dir + "/" + out);
  };
  const auto cached = [](const json& j) {
    std::vector<bool> c;
    for (const json& s : j.at("simulations")) c.push_back(s.at("cached").get<bool>());
    return c;
  };
  const json first = run("--overlap layer", "first.json");
  const json again = run("--overlap=layer", "again.json");  // another spelling, same options
  EXPECT_EQ(cached(first), std::vector<bool>({false, false, false}));
  EXPECT_EQ(cached(again), std::vector<bool>({true, true, true}));
  for (const char* key : {"iteration_cycles", "exposed_comm_cycles", "allreduces", "layers"}) {
    EXPECT_EQ(first.at(key), again.at(key)) << key;
  }
  // The whole model is one size no layer has: simulated.
  EXPECT_EQ(cached(run("--overlap none", "none.json")), std::vector<bool>({false}));
  const json packet = run("--overlap layer --flow-control packet", "packet.json");
  EXPECT_EQ(cached(packet), std::vector<bool>({false, false, false}));
  EXPECT_NE(packet.at("allreduce_cycles"), first.at("allreduce_cycles"));
}

// A topology file is part of the --sim-cache key by its bytes: the same path with a slower
// link is simulated again, not read from the cache.
TEST(Mttrain, SimCacheKeysATopologyFileByItsContents) {
  const std::string dir = temp_dir("sim_cache_file");
  const std::string model = tiny_model(dir), topo = dir + "/star.json";
  const std::string star = R"({"nodes": [0, 1, 2, 3], "switches": [0], "links": [)"
                           R"({"a": "n0", "b": "s0"}, {"a": "n1", "b": "s0"}, )"
                           R"({"a": "n2", "b": "s0"}, )";
  const auto run = [&](const std::string& last_link) {
    std::ofstream(topo) << star << last_link << "]}";
    const auto r = run_command(kMttrain + " --workload " + model + " -t file:" + topo +
                               " -a ring -j 1 -q --sim-cache " + dir + "/cache --json " + dir +
                               "/out.json");
    EXPECT_EQ(r.code, 0) << r.out;
    return read_json(dir + "/out.json");
  };
  const json plain = run(R"({"a": "n3", "b": "s0"})");
  EXPECT_TRUE(run(R"({"a": "n3", "b": "s0"})").at("simulations")[0].at("cached").get<bool>());
  const json slow = run(R"({"a": "n3", "b": "s0", "latency": 5000})");
  EXPECT_FALSE(slow.at("simulations")[0].at("cached").get<bool>());
  EXPECT_GT(slow.at("allreduce_cycles").get<uint64_t>(),
            plain.at("allreduce_cycles").get<uint64_t>());
}

TEST(Mttrain, HelpNamesTheFlagsAndExitCodes) {
  const auto r = run_command(kMttrain + " --help");
  EXPECT_EQ(r.code, 0);
  for (const char* flag : {"--workload", "--topology", "--algorithm", "--flow-control",
                           "--overlap", "--bucket-bytes", "--json", "--config", "--data",
                           "--array-rows", "--array-cols", "--pes", "--batch", "--clock-hz",
                           "--sim-cache"}) {
    EXPECT_THAT(r.out, HasSubstr(flag));
  }
  EXPECT_THAT(r.out, HasSubstr("Exit codes"));
}

// Runs mttrain on `workload` with --json and expects exit 1, `message` and no JSON.
void expect_refused(const std::string& dir, const std::string& workload,
                    const std::string& message, const std::string& more = "") {
  const std::string out = dir + "/out.json";
  const auto r = run_command(kMttrain + " --workload " + workload + " -q " + more + " --json " + out);
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_THAT(r.out, HasSubstr("mttrain: error: "));
  EXPECT_THAT(r.out, HasSubstr(message));
  EXPECT_FALSE(fs::exists(out)) << workload;
}

TEST(Mttrain, BadWorkloadsAreRefusedAndNothingIsWritten) {
  const std::string dir = temp_dir("bad");
  expect_refused(dir, "resnet", "\"resnet\" is not a bundled model");
  expect_refused(dir, dir + "/model.onnx", "unknown workload file extension \".onnx\"");
  const std::string csv = write(dir + "/net.csv",
                                "Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter "
                                "Width, Channels, Num Filter, Strides, Padding\n");
  expect_refused(dir, csv, csv + ":1");
  expect_refused(dir, csv, "Padding");
  const std::string negative = write(
      dir + "/negative.json", R"({"version":1,"name":"n","layers":[{"name":"fc","kind":"fc","inputs":-8,"outputs":4}]})");
  expect_refused(dir, negative, negative);
  expect_refused(dir, negative, "inputs");
  const std::string empty = write(dir + "/empty.json", R"({"version":1,"name":"e","layers":[]})");
  expect_refused(dir, empty, empty);
  expect_refused(dir, "ncf", "--bucket-bytes", "--overlap none --bucket-bytes 1MiB");
  expect_refused(dir, "ncf", "--overlap both", "--overlap both");
}

}  // namespace
