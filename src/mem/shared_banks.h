#pragma once
// The shared-memory banks (seed 004 §2.6): how many passes one warp's shared-memory access takes.
// Data is spread over `banks` banks of `bank_bytes` each: word = address / bank_bytes lives in
// bank word % banks. A lane's access of access_bytes touches ceil(access_bytes / bank_bytes)
// consecutive words from its address's word. Lanes go in groups of group_lanes (32 on every GPU
// since Fermi, 16 — a half-warp — on G80 and GT200), one group after another. Within a group each
// bank reads each distinct word once and broadcasts it to every lane that wants it, so the group
// takes as many passes as its busiest bank has distinct words.
//
// Timing: none here; the shared-memory unit holds its pipeline stage for `passes` cycles (times
// the bank cycle of the GPU generation: 2 on Fermi and earlier).
#include <cstdint>
#include <span>

namespace lockstep::mem {

struct SharedBanksOptions {
  uint32_t banks = 32;        // >= 1 (any number: the bank is word % banks)
  uint32_t bank_bytes = 4;    // a power of two >= 4 (32-bit banks; Kepler's are 8)
  uint32_t group_lanes = 32;  // a power of two from 1 to 64; 16 models a half-warp at a time
};

struct BankResult {
  uint32_t passes = 0;  // every group's passes added up: >= 1 if any lane is active, else 0
  uint32_t degree = 0;  // the worst conflict: most distinct words one bank of one group serves
  bool operator==(const BankResult&) const = default;
};

class SharedBanks {
 public:
  static constexpr uint32_t kMaxAccessBytes = 16;  // a 128-bit access, the widest there is

  // Throws std::invalid_argument naming the first bad field of `options`.
  explicit SharedBanks(const SharedBanksOptions& options);

  // The passes of one warp access. lane_addresses[i] is the byte address of lane i, read only
  // where bit i of active_mask is set. Allocates nothing and keeps no state, so any number of
  // threads may call it at once. Throws std::invalid_argument when access_bytes is not 1 to
  // kMaxAccessBytes or active_mask names a lane beyond lane_addresses.
  BankResult access(std::span<const uint64_t> lane_addresses, uint64_t active_mask, uint32_t access_bytes) const;

  const SharedBanksOptions& options() const { return options_; }

 private:
  SharedBanksOptions options_;
};

}  // namespace lockstep::mem
