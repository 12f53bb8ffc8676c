#pragma once
// The LD/ST unit's coalescer for global and local accesses (seed 004 §2.5): it turns one warp
// instruction's per-lane addresses into the memory transactions the L1 sees. Three rule sets:
//
//   kSectored (cc 6.0 and later, the default): the whole warp at once; one transaction per
//     distinct line touched, with the mask of the sectors the active lanes touch in it. An access
//     that straddles a line boundary touches both lines.
//   kGt200 (cc 1.2/1.3): one group of group_lanes lanes (a half-warp) at a time. The lowest
//     unserved lane picks the aligned segment holding its address (32 bytes per byte of word as
//     in the CUDA guide — 128 B for 4-byte words — kept within min_segment_bytes..line_bytes);
//     every lane of the group whose access starts in that segment is served by it; the segment
//     then halves, down to min_segment_bytes, while one half still holds every byte used.
//     Out-of-order and repeated addresses coalesce.
//   kG80 (cc 1.0/1.1): one group at a time; the group is one transaction only when active lane k
//     of the group accesses word k of one aligned block of group_lanes * access_bytes (one per
//     line when the block is wider than a line; inactive lanes do not break the sequence);
//     otherwise each active lane gets its own aligned transaction of
//     max(min_segment_bytes, access_bytes), repeats included.
//
// Timing: none here. The coalescer is a pure function of its inputs; the LD/ST unit charges one
// cycle per transaction it issues to the L1.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace lockstep::mem {

enum class CoalescingRules : uint8_t { kSectored, kGt200, kG80 };

struct CoalescerOptions {
  CoalescingRules rules = CoalescingRules::kSectored;
  uint32_t line_bytes = 128;        // power of two; the largest transaction of every rule set
  uint32_t sector_bytes = 32;       // power of two dividing line_bytes, at most 32 sectors a line
  uint32_t group_lanes = 16;        // lanes processed together by kGt200 and kG80; power of two, <= 64
  uint32_t min_segment_bytes = 32;  // kGt200's smallest transaction, kG80's per-lane one; power of two <= line
};

// One memory transaction. `address` is its aligned start and `bytes` its size: for kSectored the
// whole line (the sectors say which parts move); for the older rules the segment itself.
// `sectors` is, for every rule set, the mask of the sectors of line address / line_bytes that the
// transaction covers (kSectored: the ones the lanes touch), so a MemRequest can be made from any
// transaction alike.
struct Transaction {
  uint64_t address = 0;
  uint32_t bytes = 0;
  uint32_t sectors = 0;
  uint64_t lanes = 0;  // bit i: lane i is served (at least in part) by this transaction
  bool operator==(const Transaction&) const = default;
};

class Coalescer {
 public:
  // The most transactions one call can produce (every one of 64 lanes straddling two lines);
  // reserve this much in `out` and coalesce() never allocates.
  static constexpr std::size_t kMaxTransactions = 128;

  // Throws std::invalid_argument naming the first bad field of `options`.
  explicit Coalescer(const CoalescerOptions& options);

  // Clears `out` and fills it with the transactions for one warp access, in order of the lowest
  // lane they serve (kSectored: of first appearance by lane; kG80 per-lane: one per active lane,
  // in lane order, repeats included). lane_addresses[i] is the byte address of lane i, read only
  // where bit i of active_mask is set. Throws std::invalid_argument when access_bytes is not a
  // power of two no larger than line_bytes, or when active_mask names a lane beyond
  // lane_addresses. The older rules assume naturally aligned accesses (the hardware faults
  // otherwise); a misaligned one is served in its pieces, never dropped.
  void coalesce(std::span<const uint64_t> lane_addresses, uint64_t active_mask, uint32_t access_bytes,
                std::vector<Transaction>& out) const;

  const CoalescerOptions& options() const { return options_; }

 private:
  void coalesce_sectored(std::span<const uint64_t> lanes, uint64_t active, uint32_t access_bytes,
                         std::vector<Transaction>& out) const;
  void coalesce_gt200(std::span<const uint64_t> lanes, uint64_t active, uint32_t access_bytes,
                      std::vector<Transaction>& out) const;
  void coalesce_g80(std::span<const uint64_t> lanes, uint64_t active, uint32_t access_bytes,
                    std::vector<Transaction>& out) const;
  // The mask of the sectors that bytes [address, address + bytes) cover in their line.
  // The sectors of its line that [address, address + bytes) touches (bytes >= 1, one line).
  // Inline: it runs per lane.
  uint32_t sectors_of(uint64_t address, uint64_t bytes) const {
    const uint64_t in_line = address & (options_.line_bytes - 1);
    const uint64_t first = in_line >> sector_shift_;
    const uint64_t last = (in_line + bytes - 1) >> sector_shift_;
    // Bits first..last; computed in 64 bits so that last == 31 does not shift by 32.
    return static_cast<uint32_t>(((uint64_t{2} << last) - 1) & ~((uint64_t{1} << first) - 1));
  }
  // Appends the transaction [address, address + bytes) serving `lanes` (within one line).
  void emit(uint64_t address, uint64_t bytes, uint64_t lanes, std::vector<Transaction>& out) const;

  CoalescerOptions options_;
  uint32_t sector_shift_ = 0;  // log2(sector_bytes): sectors_of runs per lane, a shift is cheaper than a division
};

}  // namespace lockstep::mem
