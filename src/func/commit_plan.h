#pragma once
// Which of an epoch's parked instructions (func/wave_runner.h, phase 2) may run side by side on
// several host threads and still leave exactly what the serial commit leaves.
//
// The serial commit runs the parked instructions block by block in slot order and, within a
// block, in the order its warps parked. A plain store that writes bytes no other parked
// instruction of the epoch reads or writes commutes with every one of them, so it may run at any
// point of that order, on any thread. Everything else keeps the serial order: stores whose bytes
// overlap another instruction's (the last writer in serial order must win), and every epoch
// that holds an instruction whose bytes are not known when it parks (atomics, copies, malloc,
// device launches, a store that could fault or reaches shared memory through a generic address).
#include <cstddef>
#include <cstdint>
#include <vector>

namespace lockstep::func {

// What a parked instruction writes, worked out when it parked (CtaRunner, from the warp's
// registers, which do not change while it waits).
struct ParkedFootprint {
  // A plain st of global or generic memory whose every lane's address is aligned and inside
  // device memory: it cannot fault, reads nothing, and writes only bytes in [lo, hi).
  bool known = false;
  uint64_t lo = 0;
  uint64_t hi = 0;
};

// Plans one epoch's commit. `parked` lists the epoch's parked instructions in serial order.
// Sets independent[i] = 1 for every instruction that may commit before, after or beside any
// other, 0 for the rest, and returns how many are independent: none unless every instruction is
// known; then each whose range overlaps no other range (ranges that touch without sharing a
// byte do not overlap). Deterministic: depends on `parked` alone.
class CommitPlanner {
 public:
  std::size_t plan(const std::vector<ParkedFootprint>& parked, std::vector<uint8_t>& independent);

 private:
  std::vector<uint32_t> order_;  // indices of `parked` by range start, reused between epochs
};

}  // namespace lockstep::func
