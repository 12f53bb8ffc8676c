#include "func/device_launches.h"

#include <algorithm>
#include <stdexcept>

#include "func/device_memory.h"

namespace lockstep::func {

DeviceLaunches::~DeviceLaunches() {
  for (const DeviceLaunch& p : pending_) memory_.release(p.params);
}

uint64_t DeviceLaunches::get_parameter_buffer(const DeviceLaunch& request, uint32_t& error) {
  const std::optional<uint32_t> size = param_size_(request.function);
  if (!size) {
    error = kCudaErrorInvalidDeviceFunction;
    return 0;
  }
  const bool empty = request.grid[0] == 0 || request.grid[1] == 0 || request.grid[2] == 0 ||
                     request.block[0] == 0 || request.block[1] == 0 || request.block[2] == 0;
  if (empty || uint64_t{request.block[0]} * request.block[1] * request.block[2] > 1024) {
    error = kCudaErrorInvalidConfiguration;
    return 0;
  }
  if (auto it = depth_.find(request.parent_grid); it != depth_.end() && it->second + 1 >= kMaxDepth) {
    error = kCudaErrorLaunchMaxDepthExceeded;
    return 0;
  }
  const auto waiting =
      std::count_if(pending_.begin(), pending_.end(), [](const DeviceLaunch& p) { return !p.started; });
  if (static_cast<uint64_t>(waiting) >= pending_limit_) {
    error = kCudaErrorLaunchPendingCountExceeded;
    return 0;
  }
  DeviceLaunch launch = request;
  launch.param_size = *size;
  // CUDA aligns the buffer for any parameter type (64 bytes); a kernel without parameters
  // still gets a distinct buffer, since the buffer names the launch.
  launch.params = memory_.allocate(std::max<uint32_t>(*size, 1), 64);
  pending_.push_back(launch);
  error = 0;
  return launch.params;
}

uint32_t DeviceLaunches::launch(uint64_t params, uint64_t stream) {
  auto it = std::find_if(pending_.begin(), pending_.end(),
                         [&](const DeviceLaunch& p) { return p.params == params && !p.launched; });
  if (params == 0 || it == pending_.end()) return kCudaErrorInvalidValue;
  it->launched = true;
  it->stream = stream;
  if (keep_new_) new_.push_back(params);
  return 0;
}

std::vector<DeviceLaunch> DeviceLaunches::take_new_launches() {
  std::vector<DeviceLaunch> taken;
  for (uint64_t params : new_) {
    auto it = std::find_if(pending_.begin(), pending_.end(),
                           [&](const DeviceLaunch& p) { return p.params == params; });
    if (it == pending_.end()) throw std::logic_error("a launch taken twice, or finished before it was taken");
    it->taken = true;
    taken.push_back(*it);
  }
  new_.clear();
  return taken;
}

std::vector<DeviceLaunch> DeviceLaunches::take_launches_of(uint64_t grid) {
  std::vector<DeviceLaunch> ordinary, tail;
  std::vector<DeviceLaunch> kept;
  for (const DeviceLaunch& p : pending_) {
    if (p.parent_grid != grid) {
      kept.push_back(p);
    } else if (!p.launched) {
      memory_.release(p.params);  // a buffer the grid took but never launched
    } else if (p.taken) {
      kept.push_back(p);  // timing mode runs it; it is finished when its grid completes
    } else {
      (p.stream == kTailLaunchStream ? tail : ordinary).push_back(p);
      kept.push_back(p);  // still pending until its grid has run
    }
  }
  pending_ = std::move(kept);
  ordinary.insert(ordinary.end(), tail.begin(), tail.end());
  return ordinary;
}

void DeviceLaunches::started(const DeviceLaunch& launch) {
  auto it = std::find_if(pending_.begin(), pending_.end(),
                         [&](const DeviceLaunch& p) { return p.params == launch.params; });
  if (it != pending_.end()) it->started = true;
}

void DeviceLaunches::finished(const DeviceLaunch& launch) {
  auto it = std::find_if(pending_.begin(), pending_.end(),
                         [&](const DeviceLaunch& p) { return p.params == launch.params; });
  if (it == pending_.end()) return;
  memory_.release(it->params);
  pending_.erase(it);
}

uint32_t DeviceLaunches::last_error(uint64_t thread, bool clear) {
  auto it = errors_.find(thread);
  if (it == errors_.end()) return 0;
  const uint32_t error = it->second;
  if (clear) errors_.erase(it);
  return error;
}

}  // namespace lockstep::func
