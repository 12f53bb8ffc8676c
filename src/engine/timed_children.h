#pragma once
// Timing mode's side of dynamic parallelism in the engine: the grids device code launches while
// a timed launch runs are set up here as they are made (sim/child_grids.h), so the cycle-level
// model runs them beside their parents; once the launch ends they become the result's
// child_grids, in launch order. Their printf text joins the host-launched grid's as it is
// committed, so the launch's text is in the order the grids printed it.
//
// Ordering follows CDP2's streams: launches into one stream (the NULL stream is its block's own)
// run one after another; fire-and-forget and new streams run at once; tail launches after their
// parent's blocks and every other grid it launched.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "engine/engine_impl.h"
#include "sim/child_grids.h"

namespace lockstep {

class TimedChildren final : public sim::ChildGridSource {
 public:
  // For the timed launch of grid `root` at nesting `root_depth`.
  TimedChildren(Engine::Impl& engine, func::DeviceLaunches& launches, const func::LaunchState& root,
                uint32_t root_depth);
  TimedChildren(const TimedChildren&) = delete;
  TimedChildren& operator=(const TimedChildren&) = delete;

  bool has_launches() const override { return launches_.has_new_launches(); }
  std::vector<sim::ChildGridLaunch> take_launches(uint32_t first_index) override;
  void started(uint32_t index) override;
  void completed(uint32_t index) override;
  void figures(uint32_t index, const sim::KernelTiming& timing) override;

  // The child grid whose launch state is `launch` (a fault's grid).
  const GridSetup* grid_of(const func::LaunchState* launch) const;
  void faulted(const GridSetup* grid, std::string message);
  // Adds the children that ran (or faulted) to `result`'s child_grids.
  void report(LaunchResult& result);

 private:
  struct Child {
    explicit Child(func::DeviceMemory& memory) : setup(memory) {}
    func::DeviceLaunch record;
    GridSetup setup;
    sim::TimingLaunch timing;
    std::optional<sim::KernelTiming> figures;
    std::string fault;
  };

  Engine::Impl& engine_;
  func::DeviceLaunches& launches_;
  std::string* printf_out_;  // the host-launched grid's
  std::vector<std::unique_ptr<Child>> children_;  // grid i + 1
  std::map<uint64_t, uint32_t> index_of_;         // grid_id -> grid index (the host-launched grid: 0)
  std::vector<uint32_t> depth_of_;                // per grid index: its nesting depth
  // The last grid launched into a stream: (parent grid index, stream, parent block for the NULL stream).
  std::map<std::tuple<uint32_t, uint64_t, uint32_t>, uint32_t> last_in_stream_;
};

}  // namespace lockstep
