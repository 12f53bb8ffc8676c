#pragma once
// The memory accesses one instruction made, lane by lane, as its handler resolved them: what the
// cycle-level model's LD/ST unit coalesces and sends through the memory hierarchy (execute at
// issue gives exact addresses, generic ones already resolved to their space). Only the timing
// model attaches a log (LaunchState::access_log); in functional mode the handlers see a null
// pointer and record nothing.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace lockstep::func {

enum class AccessSpace : uint8_t { kGlobal, kShared, kLocal };

struct AccessRecord {
  uint64_t address = 0;  // global: device address; shared: offset in the block's shared memory;
                         // local: offset in the lane's local memory
  uint32_t size = 0;     // bytes
  uint8_t lane = 0;
  AccessSpace space = AccessSpace::kGlobal;
};

class AccessLog {
 public:
  AccessLog() : records_(kTypicalRecords) {}
  void clear() { size_ = 0; }
  // Inline and without a call on its common path: every lane of every memory instruction in
  // timing mode comes through here.
  void add(uint32_t lane, uint64_t address, uint32_t size, AccessSpace space) {
    if (size_ == records_.size()) [[unlikely]] grow();
    records_[size_++] = {address, size, static_cast<uint8_t>(lane), space};
  }
  std::span<const AccessRecord> records() const { return {records_.data(), size_}; }

 private:
  // A 64-lane warp with a vector of 4 elements each; larger (wmma fragments) grows once.
  static constexpr std::size_t kTypicalRecords = 256;
  void grow() { records_.resize(records_.size() * 2); }
  std::vector<AccessRecord> records_;  // the first size_ are this instruction's
  std::size_t size_ = 0;
};

}  // namespace lockstep::func
