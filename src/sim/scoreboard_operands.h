#pragma once
// The register operands a scoreboard checks: an instruction's destination and source registers as
// ranges of consecutive register slots (a vector or 64-bit operand covers several slots; the
// bound instruction's ExecInst::d / ExecInst::s, docs/timing-model.md). Fixed size, so building
// one never allocates.
#include <array>
#include <cstdint>
#include <span>
#include <stdexcept>

namespace lockstep::sim {

inline constexpr uint32_t kMaxDstRanges = 4;  // as ExecInst::d
inline constexpr uint32_t kMaxSrcRanges = 6;  // as ExecInst::s

// `count` consecutive register slots starting at `first`; count 0 is an empty range.
struct RegRange {
  uint32_t first = 0;
  uint32_t count = 0;

  constexpr uint64_t end() const { return uint64_t{first} + count; }
  friend constexpr bool operator==(const RegRange&, const RegRange&) = default;
};

// True when the two ranges share a slot: the rid-table compares first id + size, not just the
// first ids, so r2 conflicts with a pending write of r0..r3 (seed 001 §3.5.3, fig 3-32).
constexpr bool overlaps(const RegRange& a, const RegRange& b) {
  return a.first < b.end() && b.first < a.end();
}

struct InstOperands {
  std::array<RegRange, kMaxDstRanges> dst{};
  std::array<RegRange, kMaxSrcRanges> src{};
  uint8_t dst_count = 0;
  uint8_t src_count = 0;

  // Builders: ops.write(0, 4).read(8).read(10, 2).
  constexpr InstOperands& write(uint32_t first, uint32_t count = 1) {
    if (dst_count == kMaxDstRanges) throw std::length_error("more than 4 destination ranges");
    dst[dst_count++] = RegRange{first, count};
    return *this;
  }
  constexpr InstOperands& read(uint32_t first, uint32_t count = 1) {
    if (src_count == kMaxSrcRanges) throw std::length_error("more than 6 source ranges");
    src[src_count++] = RegRange{first, count};
    return *this;
  }

  constexpr std::span<const RegRange> dsts() const { return {dst.data(), dst_count}; }
  constexpr std::span<const RegRange> srcs() const { return {src.data(), src_count}; }
};

}  // namespace lockstep::sim
