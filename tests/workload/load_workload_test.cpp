// A workload as the command line names it: a bundled model, or a file told by its extension.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "common/error.hpp"
#include "import/load_workload.hpp"

namespace mt::workload {
namespace {

using ::testing::HasSubstr;

std::string write_temp(const std::string& name, const std::string& text) {
  const std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) / "load_workload";
  std::filesystem::create_directories(dir);
  const std::string path = (dir / name).string();
  std::ofstream(path) << text;
  return path;
}

std::string error_of(const std::string& spec) {
  try {
    load_workload(spec);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(LoadWorkload, BundledByName) {
  EXPECT_EQ(load_workload("ncf").name, "ncf");
  EXPECT_FALSE(is_workload_path("ncf"));
  EXPECT_THAT(error_of("resnet"), HasSubstr("\"resnet\" is not a bundled model (alexnet,"));
}

TEST(LoadWorkload, FilesByExtension) {
  const std::string json = write_temp(
      "tiny.json", R"({"version":1,"name":"tiny","layers":[{"name":"fc","kind":"fc","inputs":8,"outputs":4}]})");
  EXPECT_EQ(load_workload(json).layers.size(), 1u);
  const std::string csv = write_temp(
      "net.csv", "Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width, Channels, "
                 "Num Filter, Strides,\nconv1, 8, 8, 3, 3, 2, 4, 1,\n");
  EXPECT_EQ(load_workload(csv).name, "net");
  const std::string txt = write_temp(
      "dp.txt", "DATA\n1\nfc -1 10 NONE 0 20 NONE 0 30 ALLREDUCE 64 5\n");
  EXPECT_EQ(load_workload(txt).layers.at(0).given.update, 5u);
  EXPECT_TRUE(is_workload_path(txt));
  EXPECT_TRUE(is_workload_path("models/ncf"));
}

TEST(LoadWorkload, RefusesOtherExtensionsAndNamesTheFile) {
  EXPECT_THAT(error_of("model.xyz"), HasSubstr("model.xyz: unknown workload file extension \".xyz\""));
  EXPECT_THAT(error_of("dir/model"), HasSubstr("dir/model: a workload file needs an extension"));
  const std::string bad = write_temp("bad.csv", "Layer name, Height\nconv1, 8\n");
  EXPECT_THAT(error_of(bad), HasSubstr(bad));
}

}  // namespace
}  // namespace mt::workload
