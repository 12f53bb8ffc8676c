#pragma once
// What the wave runner (func/wave_runner.h, ordinary and cooperative launches) needs to tell a
// grid that spins forever from one that is still working: which instructions may write global
// memory (func/instruction_effects.h), a fingerprint of everything an epoch of the grid can
// depend on apart from global memory, and the report when it can never finish.
#include <cstdint>
#include <string>
#include <vector>

#include "func/bound_kernel.h"
#include "func/cta_runner.h"
#include "func/instruction_effects.h"
#include "func/warp.h"

namespace lockstep::func {

// A 64-bit hash of CTA state: every live warp's PC, masks, status, barrier wait,
// divergence paths, call frames, registers, predicates and local memory, the CTA's barrier
// counters and its shared memory. Warp clocks are left out: they matter only through a read
// of %clock, which lands in a register.
class StateHasher {
 public:
  void add(uint64_t word) {
    // splitmix64 finaliser over the running value: cheap, and every input bit reaches every
    // output bit.
    uint64_t z = value_ + word + 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    value_ = z ^ (z >> 31);
  }
  void add_bytes(const uint8_t* bytes, size_t size);
  // One warp (its divergence unit is w.divergence); `kernel` gives the register file size.
  void add_warp(const Warp& w, const BoundKernel& kernel);
  // The CTA-wide part: barrier counters and shared memory.
  void add_cta(const CtaState& cta);
  // Every byte of device memory, when no more than `limit` bytes are allocated (returns false,
  // adding nothing, otherwise): for launches that write memory but may still spin forever
  // (a lock whose holder never runs again rewrites nothing but keeps running atomics).
  bool add_memory(const DeviceMemory& memory, uint64_t limit);
  uint64_t value() const { return value_; }

 private:
  uint64_t value_ = 0;
};

// A block that has not finished, as a deadlock report lists it.
struct StuckBlock {
  const CtaState* cta;
  const std::vector<Warp>* warps;
};

// The report of blocks that can never finish: every warp that has not exited, with its block,
// PC, mask and wait, located at the first of them. Of more than 16 warps, one line per state
// (named by its first warp, with how many more share it), the rarest first; at most 16 lines,
// then how many warps are in the other states. The
// fault's block is `blocks[*located]`. `kind` Interrupted: the same report for a Ctrl-C.
LaunchFault stuck_report(std::string detail, const std::vector<StuckBlock>& blocks, size_t* located,
                         FaultKind kind = FaultKind::Deadlock);

}  // namespace lockstep::func
