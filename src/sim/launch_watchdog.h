#pragma once
// The timing model's deadlock watchdog: a launch whose blocks can never finish (a spin on a flag
// nobody sets, the intra-warp lock of seed 001 code 3-2 under ipdom-stack) fails with a report
// of every stuck warp instead of running forever. While no block finishes, the functional state
// of every resident block and every byte of device memory are hashed at growing intervals; a
// hash seen before since the last finished block means the launch repeats itself for good.
// Timing state (queues, in-flight accesses) is left out: it only makes a repeat later to see.
// A spin whose state never repeats (it counts its iterations) fails the same way once `limit`
// cycles pass without a finished block; a Ctrl-C (func/interrupt.h), polled every cycle the
// driver steps, fails the launch with the same report as kind "interrupted".
#include <cstdint>
#include <memory>
#include <unordered_set>
#include <vector>

#include "func/device_memory.h"
#include "func/interrupt.h"
#include "sim/sm.h"

namespace lockstep::sim {

struct WatchdogOptions {
  uint64_t first_interval = uint64_t{1} << 16;  // cycles without a finished block before the first hash
  uint64_t max_interval = uint64_t{1} << 22;    // the interval doubles after each hash, up to this
  uint64_t memory_limit = uint64_t{64} << 20;  // more device memory than this: not watched
  uint64_t limit = 0;  // cycles without a finished block that fail the launch; 0: no limit
};

// The options of run.watchdog_interval_cycles and run.watchdog_limit_cycles: the interval grows
// to 64 times the first, as the functional busy watchdog's does.
WatchdogOptions watchdog_options(uint64_t interval_cycles, uint64_t limit_cycles);

class LaunchWatchdog {
 public:
  LaunchWatchdog(const func::DeviceMemory* memory, WatchdogOptions options = {})
      : memory_(memory), options_(options), interval_(options.first_interval), next_(options.first_interval) {}

  // After cycle `now` with `blocks_done` blocks finished so far; throws TimingFault (kind
  // deadlock) when the launch has come back to a state it was in before.
  void check(uint64_t now, uint64_t blocks_done, const std::vector<std::unique_ptr<Sm>>& sms) {
    if (blocks_done != progress_blocks_) {
      progress_blocks_ = blocks_done;
      progress_cycle_ = now;
    }
    if (func::interrupt_requested()) interrupted(sms);
    if (options_.limit != 0 && now - progress_cycle_ > options_.limit) over_limit(sms);
    if (now < next_) return;
    watch(now, blocks_done, sms);
  }

 private:
  void watch(uint64_t now, uint64_t blocks_done, const std::vector<std::unique_ptr<Sm>>& sms);
  [[noreturn]] void interrupted(const std::vector<std::unique_ptr<Sm>>& sms) const;
  [[noreturn]] void over_limit(const std::vector<std::unique_ptr<Sm>>& sms) const;

  const func::DeviceMemory* memory_;
  WatchdogOptions options_;
  uint64_t interval_;
  uint64_t next_;
  uint64_t blocks_done_ = 0;
  std::unordered_set<uint64_t> states_;
  uint64_t progress_blocks_ = 0;  // blocks finished as of progress_cycle_
  uint64_t progress_cycle_ = 0;   // the cycle a block last finished in (0: none yet)
};

}  // namespace lockstep::sim
