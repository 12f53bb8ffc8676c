#include "stats/run_stats.h"

#include "fmt/format.h"

namespace lockstep::stats {

double LaunchRecord::simt_efficiency() const {
  if (warp_instructions == 0 || warp_size == 0) return 1.0;
  return double(thread_instructions) / (double(warp_instructions) * double(warp_size));
}

std::string RunStats::summary() const {
  std::string text;
  for (const LaunchRecord& s : launches_)
    text += fmt::format("lockstep: kernel {} grid ({},{},{}) block ({},{},{}) {} warp instructions {} thread "
                        "instructions\n",
                        s.kernel, s.grid[0], s.grid[1], s.grid[2], s.block[0], s.block[1], s.block[2],
                        s.warp_instructions, s.thread_instructions);
  return text;
}

}  // namespace lockstep::stats
