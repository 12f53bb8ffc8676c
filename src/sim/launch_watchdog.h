#pragma once
// The timing model's deadlock watchdog: a launch whose blocks can never finish (a spin on a flag
// nobody sets, the intra-warp lock of seed 001 code 3-2 under ipdom-stack) fails with a report
// of every stuck warp instead of running forever. While no block finishes, the functional state
// of every resident block and every byte of device memory are hashed at growing intervals; a
// hash seen before since the last finished block means the launch repeats itself for good.
// Timing state (queues, in-flight accesses) is left out: it only makes a repeat later to see.
#include <cstdint>
#include <memory>
#include <unordered_set>
#include <vector>

#include "func/device_memory.h"
#include "sim/sm.h"

namespace lockstep::sim {

struct WatchdogOptions {
  uint64_t first_interval = uint64_t{1} << 16;  // cycles without a finished block before the first hash
  uint64_t max_interval = uint64_t{1} << 22;    // the interval doubles after each hash, up to this
  uint64_t memory_limit = uint64_t{64} << 20;  // more device memory than this: not watched
};

class LaunchWatchdog {
 public:
  LaunchWatchdog(const func::DeviceMemory* memory, WatchdogOptions options = {})
      : memory_(memory), options_(options), interval_(options.first_interval), next_(options.first_interval) {}

  // After cycle `now` with `blocks_done` blocks finished so far; throws TimingFault (kind
  // deadlock) when the launch has come back to a state it was in before.
  void check(uint64_t now, uint64_t blocks_done, const std::vector<std::unique_ptr<Sm>>& sms) {
    if (now < next_) return;
    watch(now, blocks_done, sms);
  }

 private:
  void watch(uint64_t now, uint64_t blocks_done, const std::vector<std::unique_ptr<Sm>>& sms);

  const func::DeviceMemory* memory_;
  WatchdogOptions options_;
  uint64_t interval_;
  uint64_t next_;
  uint64_t blocks_done_ = 0;
  std::unordered_set<uint64_t> states_;
};

}  // namespace lockstep::sim
