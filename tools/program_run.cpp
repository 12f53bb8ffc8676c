// `lockstep run -- PROGRAM [ARGS...]`: runs an unmodified CUDA program on the stand-in
// libcudart (build/lib, next to this executable's ../lib) by exec'ing it with LD_LIBRARY_PATH.
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "commands.h"
#include "fmt/format.h"
#include "program_check.h"

namespace lockstep::tool {

namespace {

namespace fs = std::filesystem;

// The directory holding our libcudart.so.13: <dir of this executable>/../lib.
fs::path runtime_library_dir() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return {};
  return (exe.parent_path().parent_path() / "lib").lexically_normal();
}

}  // namespace

int run_program(const std::vector<std::string>& command, const ProgramSettings& settings) {
  const std::string& program = command.at(0);
  // execvp searches PATH for a bare name; so do we when checking it.
  std::string resolved = program;
  if (program.find('/') == std::string::npos) {
    if (const char* path = std::getenv("PATH")) {
      std::string dirs = path;
      for (size_t start = 0; start <= dirs.size();) {
        const size_t end = std::min(dirs.find(':', start), dirs.size());
        const fs::path candidate = fs::path(dirs.substr(start, end - start)) / program;
        if (access(candidate.c_str(), X_OK) == 0) {
          resolved = candidate.string();
          break;
        }
        start = end + 1;
      }
    }
  }
  if (access(resolved.c_str(), F_OK) != 0) {
    fmt::print(stderr, "lockstep: {}: no such program\n", program);
    return 1;
  }
  const ProgramLinkage linkage = inspect_program(resolved);
  if (linkage.static_cudart) {
    fmt::print(stderr, "lockstep: {} links the CUDA runtime statically; rebuild it with nvcc -cudart shared\n",
               program);
    return 1;
  }
  const fs::path lib = runtime_library_dir();
  if (lib.empty() || !fs::exists(lib / "libcudart.so.13")) {
    fmt::print(stderr, "lockstep: cannot find the lockstep CUDA runtime (expected {})\n",
               (lib / "libcudart.so.13").string());
    return 1;
  }
  std::string library_path = lib.string();
  if (const char* old = std::getenv("LD_LIBRARY_PATH"); old != nullptr && *old != '\0')
    library_path += std::string(":") + old;
  setenv("LD_LIBRARY_PATH", library_path.c_str(), 1);
  setenv("LOCKSTEP_SUMMARY", "1", 1);
  // The modelled GPU; the warp size travels in LOCKSTEP_SET, so an inherited LOCKSTEP_WARP_SIZE must not apply.
  std::string overrides;
  for (const std::string& o : settings.overrides) overrides += o + "\n";
  setenv("LOCKSTEP_GPU", settings.gpu.c_str(), 1);
  setenv("LOCKSTEP_SET", overrides.c_str(), 1);
  setenv("LOCKSTEP_MODE", settings.mode.c_str(), 1);
  setenv("LOCKSTEP_THREADS", std::to_string(settings.threads).c_str(), 1);
  setenv("LOCKSTEP_MEMCHECK", settings.memcheck ? "1" : "0", 1);
  if (!settings.stats_json.empty()) setenv("LOCKSTEP_STATS_JSON", settings.stats_json.c_str(), 1);
  else unsetenv("LOCKSTEP_STATS_JSON");
  unsetenv("LOCKSTEP_WARP_SIZE");

  std::vector<char*> argv;
  for (const std::string& a : command) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  execvp(argv[0], argv.data());
  fmt::print(stderr, "lockstep: cannot run {}: {}\n", program, std::strerror(errno));
  return 127;
}

}  // namespace lockstep::tool
