// Runtime: what a run reports at its end (the per-launch summary, the stats JSON file) and the
// options that ask for it.
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string_view>

#include "fmt/format.h"
#include "runtime/runtime.h"
#include "stats/stats_json.h"

namespace lockstep::runtime {

namespace {

// The simulated program's argv, from /proc (the runtime is loaded into it).
std::vector<std::string> program_arguments() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::vector<std::string> args;
  std::string arg;
  while (std::getline(in, arg, '\0')) args.push_back(arg);
  return args;
}

}  // namespace

void read_report_options(RuntimeOptions& o) {
  if (const char* path = std::getenv("LOCKSTEP_STATS_JSON")) o.stats_json = path;
  const char* progress = std::getenv("LOCKSTEP_PROGRESS");
  if (progress != nullptr && *progress != '\0')
    o.progress = std::string_view(progress) == "1";
  else
    o.progress = isatty(STDERR_FILENO) == 1;
}

void Runtime::write_reports() {
  if (options_.summary) {
    std::fflush(out_);
    const std::string text = stats_.summary();
    std::fwrite(text.data(), 1, text.size(), err_);
    std::fflush(err_);
  }
  if (!options_.stats_json.empty()) {
    stats::RunContext context;
    context.gpu_preset = options_.gpu.preset;
    context.gpu_name = options_.gpu.gpu.name;
    context.warp_size = options_.warp_size;
    context.mode = options_.timing ? "timing" : "functional";
    context.program = program_arguments();
    std::ofstream file(options_.stats_json, std::ios::binary | std::ios::trunc);
    const std::string json = stats::stats_json(stats_, context);
    file << json;
    file.flush();
    if (!file) print(fmt::format("cannot write the stats to {}", options_.stats_json));
  }
}

}  // namespace lockstep::runtime
