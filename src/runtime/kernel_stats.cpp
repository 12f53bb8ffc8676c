#include "runtime/kernel_stats.h"

#include "fmt/format.h"

namespace lockstep::runtime {

std::string KernelStats::summary() const {
  std::string text;
  for (const KernelStat& s : launches_)
    text += fmt::format("lockstep: kernel {} grid ({},{},{}) block ({},{},{}) {} warp instructions {} thread "
                        "instructions\n",
                        s.name, s.grid.x, s.grid.y, s.grid.z, s.block.x, s.block.y, s.block.z,
                        s.warp_instructions, s.thread_instructions);
  return text;
}

}  // namespace lockstep::runtime
