#include "engine/timed_children.h"

#include <cstring>

#include "fmt/format.h"

namespace lockstep {

TimedChildren::TimedChildren(Engine::Impl& engine, func::DeviceLaunches& launches, const func::LaunchState& root,
                             uint32_t root_depth)
    : engine_(engine), launches_(launches), printf_out_(root.printf_out) {
  const uint64_t root_grid_id = root.grid_id;
  index_of_[root_grid_id] = 0;
  depth_of_.push_back(root_depth);
  launches_.keep_new_launches();
}

std::vector<sim::ChildGridLaunch> TimedChildren::take_launches(uint32_t first_index) {
  std::vector<sim::ChildGridLaunch> made;
  for (const func::DeviceLaunch& c : launches_.take_new_launches()) {
    const uint32_t index = first_index + static_cast<uint32_t>(made.size());
    const auto [m, k] = *engine_.kernel_at(c.function);  // get_parameter_buffer checked it is a kernel
    if (!m->kernel_errors[k].empty())
      throw KernelUnavailable(
          fmt::format("kernel '{}' cannot run: {}", m->program.kernels[k].name, m->kernel_errors[k]));
    auto child = std::make_unique<Child>(engine_.memory);
    child->record = c;
    const uint32_t parent = index_of_.at(c.parent_grid);
    const uint32_t depth = depth_of_[parent] + 1;
    child->setup.params.resize(c.param_size);
    if (c.param_size != 0)
      std::memcpy(child->setup.params.data(), engine_.memory.translate(c.params, c.param_size), c.param_size);
    const uint64_t grid_id = engine_.next_grid_id++;
    launches_.enter_grid(grid_id, depth);
    LaunchOptions options;  // a child grid's registers are estimated, its envregs 0
    engine_.setup_grid(child->setup, m, k, Dim3{c.grid[0], c.grid[1], c.grid[2]},
                       Dim3{c.block[0], c.block[1], c.block[2]}, c.dynamic_shared, options, launches_, grid_id);
    // Device printf text goes out in the order the commits made it, every grid's together, as a
    // GPU's printf buffer holds it.
    child->setup.launch.printf_out = printf_out_;
    child->timing = engine_.timing_launch(child->setup, options);

    sim::ChildGridLaunch launch;
    launch.grid = &child->timing;
    launch.parent = parent;
    launch.tail = c.stream == func::kTailLaunchStream;
    if (!launch.tail && c.stream != func::kFireAndForgetStream) {
      const auto stream = std::tuple{parent, c.stream, c.stream == 0 ? c.parent_block : 0};
      if (auto it = last_in_stream_.find(stream); it != last_in_stream_.end()) launch.after = it->second;
      last_in_stream_[stream] = index;
    }
    index_of_[grid_id] = index;
    depth_of_.push_back(depth);
    children_.push_back(std::move(child));
    made.push_back(launch);
  }
  return made;
}

void TimedChildren::started(uint32_t index) { launches_.started(children_.at(index - 1)->record); }

void TimedChildren::completed(uint32_t index) {
  launches_.finished(children_.at(index - 1)->record);
}

void TimedChildren::figures(uint32_t index, const sim::KernelTiming& timing) {
  children_.at(index - 1)->figures = timing;
}

const GridSetup* TimedChildren::grid_of(const func::LaunchState* launch) const {
  for (const auto& c : children_)
    if (&c->setup.launch == launch) return &c->setup;
  throw std::logic_error("a fault in a grid the launch does not know");
}

void TimedChildren::faulted(const GridSetup* grid, std::string message) {
  for (const auto& c : children_)
    if (&c->setup == grid) c->fault = std::move(message);
}

void TimedChildren::report(LaunchResult& result) {
  for (const auto& c : children_) {
    if (!c->figures && c->fault.empty()) continue;  // the launch faulted before this grid ended
    const func::LaunchState& l = c->setup.launch;
    ChildGrid record{c->setup.kernel().name, Dim3{l.grid[0], l.grid[1], l.grid[2]},
                     Dim3{l.block[0], l.block[1], l.block[2]}, l.dynamic_shared, 0, 0, {}, c->fault, c->figures};
    if (c->figures) {
      record.warp_instructions = c->figures->warp_instructions;
      record.thread_instructions = c->figures->thread_instructions;
      record.divergence = c->figures->divergence;
    }
    result.child_grids.push_back(std::move(record));
  }
}

}  // namespace lockstep
