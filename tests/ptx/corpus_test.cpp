// Parses and checks every .ptx file in the directory named by $LOCKSTEP_PTX_CORPUS (e.g. the
// output of nvcc -ptx over the census programs), and the committed samples in data/.
// The environment-driven half is skipped when the variable is unset, so the suite needs no nvcc.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "ptx/check.h"
#include "ptx/parser.h"

namespace lockstep::ptx {
namespace {

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

std::vector<std::filesystem::path> ptx_files(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() == ".ptx") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

void parse_and_check_all(const std::filesystem::path& dir) {
  auto files = ptx_files(dir);
  ASSERT_FALSE(files.empty()) << "no .ptx files in " << dir;
  for (const auto& path : files) {
    SCOPED_TRACE(path.string());
    std::string text = read_file(path);
    try {
      Module module = parse(text, path.filename().string());
      check(module);
      EXPECT_FALSE(module.target.empty());
      EXPECT_FALSE(module.functions.empty());
    } catch (const Error& error) {
      ADD_FAILURE() << error.what();
    }
  }
}

TEST(Corpus, CommittedSamplesParseAndCheck) {
  parse_and_check_all(std::filesystem::path(LOCKSTEP_TEST_DATA) / "ptx" / "data");
}

TEST(Corpus, DirectoryFromEnvironmentParsesAndChecks) {
  const char* dir = std::getenv("LOCKSTEP_PTX_CORPUS");
  if (dir == nullptr) GTEST_SKIP() << "set LOCKSTEP_PTX_CORPUS to a directory of .ptx files";
  parse_and_check_all(dir);
}

}  // namespace
}  // namespace lockstep::ptx
