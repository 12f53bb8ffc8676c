#include <exception>

#include "commands.h"
#include "engine/engine.h"
#include "fmt/format.h"

namespace lockstep::tool {

int check_ptx_files(const std::vector<std::string>& files) {
  int failures = 0;
  for (const std::string& file : files) {
    Engine engine;
    try {
      const ModuleId m = engine.load_ptx_file(file);
      const std::vector<std::string> kernels = engine.kernels(m);
      fmt::print("{}: ok, {} kernel{}\n", file, kernels.size(), kernels.size() == 1 ? "" : "s");
      for (const std::string& k : kernels) fmt::print("  {}\n", k);
    } catch (const std::exception& e) {
      fmt::print(stderr, "{}\n", e.what());
      ++failures;
    }
  }
  return failures == 0 ? 0 : 1;
}

}  // namespace lockstep::tool
