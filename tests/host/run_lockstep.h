#pragma once
// Runs `lockstep run [options] -- <host program>` and captures its stdout, stderr and exit code.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace lockstep::test {

struct ProgramOutcome {
  int exit_code = -1;
  std::string out, err;
};

inline std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline std::string quoted(const std::string& s) { return "'" + s + "'"; }

// `arguments` go between "run" and the program (e.g. {"--warp-size", "8"}), `program_arguments`
// after the program.
inline ProgramOutcome run_lockstep(const std::string& program, const std::vector<std::string>& arguments = {},
                                   const std::vector<std::string>& program_arguments = {}) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                    ("lockstep_host_test_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  std::string command = quoted(LOCKSTEP_BINARY) + " run";
  for (const std::string& a : arguments) command += " " + quoted(a);
  command += " -- " + quoted(program);
  for (const std::string& a : program_arguments) command += " " + quoted(a);
  command += " >" + quoted((dir / "out").string()) + " 2>" + quoted((dir / "err").string());
  const int status = std::system(command.c_str());
  ProgramOutcome r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = read_text(dir / "out");
  r.err = read_text(dir / "err");
  std::filesystem::remove_all(dir);
  return r;
}

#ifdef LOCKSTEP_HOST_PROGRAMS
// A program built by tests/host/programs.cmake (name_smXX for the per-architecture builds).
inline std::string host_program(const std::string& name) {
  return std::string(LOCKSTEP_HOST_PROGRAMS) + "/" + name;
}
#endif

// Every stderr line is a kernel summary (its divergence line; in timing mode also its figures
// lines and the total):
// nothing unsupported, no fault, no load failure.
inline void expect_only_kernel_summaries(const std::string& err) {
  size_t start = 0;
  while (start < err.size()) {
    const size_t end = err.find('\n', start);
    const std::string line = err.substr(start, end - start);
    const bool summary = line.rfind("lockstep: kernel ", 0) == 0 || line.rfind("lockstep:   cycles ", 0) == 0 ||
                         line.rfind("lockstep:   memory: ", 0) == 0 || line.rfind("lockstep:   divergence: ", 0) == 0 ||
                         line.rfind("lockstep: total cycles ", 0) == 0;
    EXPECT_TRUE(summary) << line;
    if (end == std::string::npos) break;
    start = end + 1;
  }
}

}  // namespace lockstep::test
