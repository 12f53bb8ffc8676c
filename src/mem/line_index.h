#pragma once
// LineIndex: which slot holds a line, for the caches' MSHRs. A fixed-capacity hash map from a
// line number to a 32-bit value (open addressing, linear probing, deletion by backward shift, so
// no tombstones build up): every L1 and L2 access asks whether its line already has an MSHR,
// and with hundreds of them in flight a scan cost more than the rest of the lookup. Nothing
// allocates after construction.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace lockstep::mem {

class LineIndex {
 public:
  static constexpr uint32_t kAbsent = UINT32_MAX;

  // Room for `capacity` lines at once; the table is at least twice that, so probes stay short.
  explicit LineIndex(uint32_t capacity)
      : bits_(static_cast<uint32_t>(std::bit_width(std::max<uint64_t>(2 * uint64_t{capacity}, 2) - 1))),
        keys_(size_t{1} << bits_, kEmpty),
        values_(size_t{1} << bits_, kAbsent),
        capacity_(capacity) {}

  // The value of `line`, or kAbsent.
  uint32_t find(uint64_t line) const {
    for (uint32_t i = home(line);; i = next(i)) {
      if (keys_[i] == line) return values_[i];
      if (keys_[i] == kEmpty) return kAbsent;
    }
  }

  // Adds `line` (not present) with `value`. Throws std::length_error past the capacity.
  void insert(uint64_t line, uint32_t value) {
    if (line == kEmpty) throw std::invalid_argument("LineIndex: the line number reserved for empty slots");
    if (size_ == capacity_) throw std::length_error("LineIndex: more lines than its capacity");
    uint32_t i = home(line);
    while (keys_[i] != kEmpty) i = next(i);
    keys_[i] = line;
    values_[i] = value;
    ++size_;
  }

  // Changes the value of `line` (present).
  void assign(uint64_t line, uint32_t value) { values_[slot_of(line)] = value; }

  // Removes `line` (present). The entries after it in its probe run move back into the gap
  // when their home allows it, so every remaining line is still found from its home.
  void erase(uint64_t line) {
    uint32_t gap = slot_of(line);
    for (uint32_t i = next(gap); keys_[i] != kEmpty; i = next(i)) {
      // An entry may fill the gap when its home is not in (gap, i], cyclically.
      const uint32_t h = home(keys_[i]);
      const bool home_after_gap = gap <= i ? (gap < h && h <= i) : (gap < h || h <= i);
      if (home_after_gap) continue;
      keys_[gap] = keys_[i];
      values_[gap] = values_[i];
      gap = i;
    }
    keys_[gap] = kEmpty;
    values_[gap] = kAbsent;
    --size_;
  }

  uint32_t size() const { return size_; }

 private:
  static constexpr uint64_t kEmpty = UINT64_MAX;  // no line number reaches it (lines are addresses / line size)
  uint32_t home(uint64_t line) const {
    return static_cast<uint32_t>((line * 0x9E3779B97F4A7C15ull) >> (64 - bits_));  // Fibonacci hashing
  }
  uint32_t next(uint32_t i) const { return (i + 1) & static_cast<uint32_t>(keys_.size() - 1); }
  uint32_t slot_of(uint64_t line) const {
    for (uint32_t i = home(line);; i = next(i)) {
      if (keys_[i] == line) return i;
      if (keys_[i] == kEmpty) throw std::logic_error("LineIndex: the line is not present");
    }
  }

  uint32_t bits_;
  std::vector<uint64_t> keys_;
  std::vector<uint32_t> values_;
  uint32_t capacity_;
  uint32_t size_ = 0;
};

}  // namespace lockstep::mem
