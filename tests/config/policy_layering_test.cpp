// The configuration room links the libraries that hold the policy registries (func, mem,
// sim_policies) to read their names and parameters, so none of those may depend on config back:
// a policy gets its parameters through its kind's options struct, never from GpuConfig
// (policy/policy_registry.h, "Layering"). This test reads the sources and fails on such an include
// before it can become a link cycle.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

const fs::path kSrc = fs::path(LOCKSTEP_TEST_DATA) / ".." / "src";

// The `#include "<room>/..."` lines of `file` naming one of `rooms`.
std::vector<std::string> includes_of(const fs::path& file, const std::vector<std::string>& rooms) {
  std::vector<std::string> found;
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);)
    for (const std::string& room : rooms)
      if (line.starts_with("#include \"" + room + "/")) found.push_back(line);
  return found;
}

// Every .h/.cpp below `dir` (recursively) and the extra files, checked against `rooms`.
void expect_no_includes(const fs::path& dir, const std::vector<fs::path>& extra,
                        const std::vector<std::string>& rooms) {
  std::vector<fs::path> files = extra;
  ASSERT_TRUE(fs::is_directory(dir)) << dir;
  for (const fs::directory_entry& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file() && (e.path().extension() == ".h" || e.path().extension() == ".cpp"))
      files.push_back(e.path());
  for (const fs::path& file : files) {
    ASSERT_TRUE(fs::exists(file)) << file;
    for (const std::string& line : includes_of(file, rooms))
      ADD_FAILURE() << fs::relative(file, kSrc).string() << ": " << line;
  }
}

// The rooms above the policy libraries: including any of them would make config depend on itself.
const std::vector<std::string> kAbove = {"config", "engine", "runtime", "stats"};

TEST(PolicyLayering, FunctionalRoomIncludesNoRoomAboveIt) {
  std::vector<std::string> rooms = kAbove;
  rooms.push_back("sim");
  expect_no_includes(kSrc / "func", {}, rooms);
}

TEST(PolicyLayering, MemoryRoomIncludesNoRoomAboveIt) {
  std::vector<std::string> rooms = kAbove;
  rooms.insert(rooms.end(), {"sim", "func"});
  expect_no_includes(kSrc / "mem", {}, rooms);
}

TEST(PolicyLayering, SimPoliciesIncludeNoConfigHeader) {
  std::vector<std::string> rooms = kAbove;
  rooms.insert(rooms.end(), {"func", "mem"});
  // The kinds' interfaces lie in their folders (checked below); the scoreboard's operand sets
  // are shared with the cycle-level model and lie beside them.
  const std::vector<fs::path> shared_headers = {kSrc / "sim" / "scoreboard_operands.h"};
  expect_no_includes(kSrc / "sim" / "warp_scheduler", shared_headers, rooms);
  expect_no_includes(kSrc / "sim" / "scoreboard", {}, rooms);
  expect_no_includes(kSrc / "sim" / "cta_scheduler", {}, rooms);
}

// Each sim policy kind's folder holds its interface, <kind>.h (style rule 1), and nothing of the
// kind lies beside the folder: the scans above then cover the interfaces too.
TEST(PolicyLayering, SimKindInterfacesLieInTheirFolders) {
  for (const char* kind : {"warp_scheduler", "scoreboard", "cta_scheduler"}) {
    EXPECT_TRUE(fs::exists(kSrc / "sim" / kind / (std::string(kind) + ".h"))) << kind;
    EXPECT_FALSE(fs::exists(kSrc / "sim" / (std::string(kind) + ".h"))) << kind;
  }
}

// lockstep_sim_policies links no other library, so of the simulator room its files may include
// only the kinds' interfaces and their own folders' headers, never the cycle-level model's.
TEST(PolicyLayering, SimPoliciesIncludeOnlyTheKindInterfaces) {
  const std::vector<std::string> allowed = {"#include \"sim/scoreboard_operands.h\"", "#include \"sim/warp_scheduler/",
                                            "#include \"sim/scoreboard/", "#include \"sim/cta_scheduler/"};
  for (const char* folder : {"warp_scheduler", "scoreboard", "cta_scheduler"})
    for (const fs::directory_entry& e : fs::directory_iterator(kSrc / "sim" / folder))
      for (const std::string& line : includes_of(e.path(), {"sim"})) {
        const bool ok = std::any_of(allowed.begin(), allowed.end(),
                                    [&](const std::string& a) { return line.starts_with(a); });
        EXPECT_TRUE(ok) << fs::relative(e.path(), kSrc).string() << ": " << line;
      }
}

}  // namespace
