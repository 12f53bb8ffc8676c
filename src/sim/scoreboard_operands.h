#pragma once
// The register operands a scoreboard checks: an instruction's destination and source registers as
// ranges of consecutive register slots (a vector or 64-bit operand covers several slots; the
// bound instruction's ExecInst::d / ExecInst::s, docs/timing-model.md). Fixed size, so building
// one never allocates.
#include <algorithm>
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

// The operands of two instructions that issue as one on one warp (sbi's pair: the two paths of a
// divergent branch on complementary lanes, sim/sm_co_issue.cpp): every register either reads or
// writes. Ranges that overlap or touch merge; past `max_dst` destination or kMaxSrcRanges source
// ranges the tail folds into one covering range, as register_operands folds one instruction's
// (instruction_timing.h), so the pair waits on at least what each would.
constexpr InstOperands joined_operands(const InstOperands& a, const InstOperands& b,
                                       uint32_t max_dst = kMaxDstRanges) {
  auto join = [](std::span<const RegRange> x, std::span<const RegRange> y, size_t limit, auto&& out) {
    std::array<RegRange, 2 * kMaxSrcRanges> runs{};
    size_t n = 0;
    for (const RegRange& r : x)
      if (r.count != 0) runs[n++] = r;
    for (const RegRange& r : y)
      if (r.count != 0) runs[n++] = r;
    std::sort(runs.begin(), runs.begin() + static_cast<std::ptrdiff_t>(n),
              [](const RegRange& l, const RegRange& r) { return l.first < r.first; });
    size_t m = 0;
    for (size_t i = 0; i < n; ++i) {
      if (m != 0 && runs[i].first <= runs[m - 1].end()) {
        const uint64_t end = std::max(runs[m - 1].end(), runs[i].end());
        runs[m - 1].count = static_cast<uint32_t>(end - runs[m - 1].first);
      } else {
        runs[m++] = runs[i];
      }
    }
    if (m > limit) {
      const uint64_t end = runs[m - 1].end();
      m = limit;
      runs[m - 1].count = static_cast<uint32_t>(end - runs[m - 1].first);
    }
    for (size_t i = 0; i < m; ++i) out(runs[i]);
  };
  InstOperands j;
  join(a.dsts(), b.dsts(), std::clamp<uint32_t>(max_dst, 1, kMaxDstRanges),
       [&](const RegRange& r) { j.write(r.first, r.count); });
  join(a.srcs(), b.srcs(), kMaxSrcRanges, [&](const RegRange& r) { j.read(r.first, r.count); });
  return j;
}

}  // namespace lockstep::sim
