#pragma once
// Kernel launches from device code (CUDA dynamic parallelism, CDP2): what the device runtime's
// calls record while a grid runs, for the engine to launch.
//
// nvcc lowers `child<<<g, b, shared, stream>>>(args)` in device code to
// __cudaCDP2GetParameterBufferV2(child, g, b, shared), stores of the arguments into the buffer
// it returns, then __cudaCDP2LaunchDeviceV2(buffer, stream). A launch is pending from the
// first call until its grid begins to run (started()); more than `pending_limit` pending
// launches (the device's cudaLimitDevRuntimePendingLaunchCount, which CUDA defines as launches
// that have not begun to execute) are refused as CUDA refuses them. Its parameter buffer lives
// until its grid has finished (finished()).
//
// Order: CDP2 only orders launches into one stream, and a child may run at any time after
// it was launched. Functional mode runs a grid's children once the grid has finished, in launch
// order, with tail launches (cudaStreamTailLaunch) after all others; timing mode takes each
// launch as it is made (take_new_launches) and runs it beside its parent (sim/child_grids.h).
// Launches happen at the commit point in timing mode and block by block in functional mode, so
// the order, and with it every result, is the same for any number of simulator threads.
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <vector>

namespace lockstep::func {

class DeviceMemory;

// cudaError_t values the device runtime returns (driver_types.h).
inline constexpr uint32_t kCudaErrorInvalidValue = 1;
inline constexpr uint32_t kCudaErrorInvalidConfiguration = 9;
inline constexpr uint32_t kCudaErrorLaunchPendingCountExceeded = 69;
inline constexpr uint32_t kCudaErrorInvalidDeviceFunction = 98;
inline constexpr uint32_t kCudaErrorInvalidDevice = 101;
inline constexpr uint32_t kCudaErrorLaunchMaxDepthExceeded = 65;

// Special stream handles of device code (cuda_device_runtime_api.h).
inline constexpr uint64_t kTailLaunchStream = 0x3;
inline constexpr uint64_t kFireAndForgetStream = 0x4;

struct DeviceLaunch {
  uint64_t function = 0;        // the child kernel's device address
  uint32_t grid[3] = {1, 1, 1};
  uint32_t block[3] = {1, 1, 1};
  uint32_t dynamic_shared = 0;
  uint64_t params = 0;          // device address of the parameter buffer
  uint32_t param_size = 0;
  uint64_t stream = 0;
  uint64_t parent_grid = 0;     // grid_id of the launching grid
  uint32_t parent_block = 0;    // the launching block's linear index (its NULL stream is its own)
  bool launched = false;        // false: a buffer was taken but the launch not (yet) made
  bool taken = false;           // handed out by take_new_launches
  bool started = false;         // its grid has begun to run: it no longer counts as pending
};

class DeviceLaunches {
 public:
  // `param_size` gives a kernel's parameter buffer size by its device address (nullopt: not
  // a kernel). Parameter buffers are device memory of their own, not the program's heap.
  DeviceLaunches(uint32_t pending_limit, DeviceMemory& memory,
                 std::function<std::optional<uint32_t>(uint64_t)> param_size)
      : pending_limit_(pending_limit), memory_(memory), param_size_(std::move(param_size)) {}
  ~DeviceLaunches();
  DeviceLaunches(const DeviceLaunches&) = delete;
  DeviceLaunches& operator=(const DeviceLaunches&) = delete;

  // CUDA's limit on the depth of nested launches: a grid at this depth launches nothing.
  static constexpr uint32_t kMaxDepth = 24;

  // The engine is about to run grid `grid` at nesting `depth` (0: launched by the host).
  void enter_grid(uint64_t grid, uint32_t depth) { depth_[grid] = depth; }
  // __cudaCDP2GetParameterBufferV2: the buffer's address, or 0 with `error` set.
  uint64_t get_parameter_buffer(const DeviceLaunch& request, uint32_t& error);
  // __cudaCDP2LaunchDeviceV2: cudaSuccess or the error.
  uint32_t launch(uint64_t params, uint64_t stream);
  // __cudaCDP2StreamCreateWithFlags: a new stream handle.
  uint64_t create_stream() { return kFirstStream + 16 * streams_created_++; }
  // __cudaCDP2EventCreateWithFlags: a new event handle.
  uint64_t create_event() { return kFirstEvent + 16 * events_created_++; }

  // Launches `grid` made, in the order they run (tail launches last); they stop being
  // pending when started(). Buffers taken but never launched are released.
  std::vector<DeviceLaunch> take_launches_of(uint64_t grid);
  // Timing mode: from now on, launches are also kept in the order they are made, to be taken as
  // they come; take_launches_of then returns only those not taken.
  void keep_new_launches() { keep_new_ = true; }
  bool has_new_launches() const { return !new_.empty(); }
  std::vector<DeviceLaunch> take_new_launches();
  // The launch's grid has begun to run: it no longer counts against the pending limit.
  void started(const DeviceLaunch& launch);
  // Releases a launch's parameter buffer once its grid has run.
  void finished(const DeviceLaunch& launch);

  // Per-thread last error of device code (cudaGetLastError / cudaPeekAtLastError), keyed by
  // the thread's global number.
  void set_error(uint64_t thread, uint32_t error) { errors_[thread] = error; }
  uint32_t last_error(uint64_t thread, bool clear);

 private:
  static constexpr uint64_t kFirstStream = 0x100;
  static constexpr uint64_t kFirstEvent = uint64_t{1} << 40;
  uint32_t pending_limit_;
  DeviceMemory& memory_;
  std::function<std::optional<uint32_t>(uint64_t)> param_size_;
  std::vector<DeviceLaunch> pending_;
  bool keep_new_ = false;
  std::vector<uint64_t> new_;  // parameter buffers launched and not taken, in launch order
  uint64_t streams_created_ = 0;
  uint64_t events_created_ = 0;
  std::map<uint64_t, uint32_t> errors_;
  std::map<uint64_t, uint32_t> depth_;
};

}  // namespace lockstep::func
