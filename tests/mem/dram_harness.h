#pragma once
// Test helpers for the DRAM channel tests: small options with round timings, addresses built
// from (bank, row, column), and a driver that ticks a channel every core cycle and records the
// cycle in which each request (by token) comes back.
#include <cstdint>
#include <vector>

#include "mem/dram/dram_channel.h"

namespace lockstep::mem::dram_test {

// 1:1 clocks, 8-byte DDR bus (a 32-byte sector is a 2-clock burst), 16 banks of 1 KiB rows, and
// round timings: tRCD = tRP = tCL = 10, tRAS = 20, tWL = 4, tCCD = 2.
inline DramOptions small_options(const char* scheduler = "fr-fcfs") {
  DramOptions o;
  o.core_clock_mhz = 1000;
  o.dram_clock_mhz = 1000;
  o.bus_bytes = 8;
  o.transfers_per_clock = 2;
  o.banks = 16;
  o.row_bytes = 1024;
  o.timing = {};
  o.timing.tRCD = 10;
  o.timing.tRP = 10;
  o.timing.tRAS = 20;
  o.timing.tCL = 10;
  o.timing.tWL = 4;
  o.timing.tCCD = 2;
  o.read_queue = 64;
  o.write_queue = 64;
  o.write_high_watermark = 48;
  o.write_low_watermark = 16;
  o.scheduler = scheduler;
  return o;
}

// Column lowest, then bank, then row (dram_address.h).
inline uint64_t address_of(const DramOptions& o, uint32_t bank, uint64_t row, uint32_t column = 0) {
  return (row * o.banks + bank) * o.row_bytes + column;
}

inline DramRequest read_of(uint64_t address, uint64_t token, uint32_t bytes = 32) {
  DramRequest r;
  r.address = address;
  r.bytes = bytes;
  r.write = false;
  r.request.token = token;
  r.request.kind = AccessKind::kRead;
  return r;
}

inline DramRequest write_of(uint64_t address, uint64_t token, uint32_t bytes = 32) {
  DramRequest r = read_of(address, token, bytes);
  r.write = true;
  r.request.kind = AccessKind::kWrite;
  return r;
}

struct Completion {
  uint64_t token;
  uint64_t cycle;
  bool operator==(const Completion&) const = default;
};

// Ticks `channel` every cycle from `from` until it is idle (at most `limit` cycles), recording
// completions. Returns the cycle after the last tick.
inline uint64_t run_until_idle(DramChannel& channel, uint64_t from, std::vector<Completion>& out,
                               uint64_t limit = 1'000'000) {
  std::vector<DramRequest> done;
  uint64_t now = from;
  for (; now < from + limit && !channel.idle(); ++now) {
    done.clear();
    channel.tick(now, done);
    for (const DramRequest& r : done) out.push_back({r.request.token, now});
  }
  return now;
}

// Ticks `channel` in cycles [from, to), recording completions.
inline void run_cycles(DramChannel& channel, uint64_t from, uint64_t to, std::vector<Completion>& out) {
  std::vector<DramRequest> done;
  for (uint64_t now = from; now < to; ++now) {
    done.clear();
    channel.tick(now, done);
    for (const DramRequest& r : done) out.push_back({r.request.token, now});
  }
}

// The completion cycle of `token` in `log`, or UINT64_MAX.
inline uint64_t cycle_of(const std::vector<Completion>& log, uint64_t token) {
  for (const Completion& c : log)
    if (c.token == token) return c.cycle;
  return UINT64_MAX;
}

}  // namespace lockstep::mem::dram_test
