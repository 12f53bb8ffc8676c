// "rid-table": the register-id scoreboard of the NVIDIA patent (seed 001 §3.5.3, fig 3-32). Per
// warp, N entries each hold the first register id and the size of a write in flight (a texture
// result r0..r3 is one entry: r0, 4). When an instruction enters the I-buffer its RAW/WAW
// dependency mask over the N entries is computed by range overlap (fig 3-32(b)) and kept with it;
// it may issue when the mask is clear. When a write completes its entry is freed and its bit is
// cleared in the masks of all the warp's decoded instructions, releasing them.
//
// Two consequences of a bounded table: an instruction with destinations cannot issue while fewer
// entries are free than it has destination ranges (reported as kTableFull, a structural stall the
// bitmap never has); and an instruction decoded while an older one of its warp still waits in the
// I-buffer must also see the older one's writes, so reserve adds each new entry to the masks of
// the warp's other decoded instructions it overlaps.
#include <bit>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/scoreboard/scoreboard_impls.h"

namespace lockstep::sim {
namespace {

// A decoded instruction's copy of its operands and its dependency masks (bit e: entry e).
struct DecodedSlot {
  InstOperands ops;
  uint32_t raw_mask = 0;
  uint32_t waw_mask = 0;
};

class RidTableScoreboard final : public Scoreboard {
 public:
  explicit RidTableScoreboard(const ScoreboardOptions& options)
      : options_(options),
        entries_(size_t{options.warps} * options.rid_entries),
        busy_(options.warps, 0),
        slots_(size_t{options.warps} * options.decoded_per_warp),
        slots_used_(options.warps, 0) {}

  ScoreboardToken on_decode(uint32_t warp, const InstOperands& ops) override {
    scoreboard_detail::check_warp(warp, options_.warps);
    scoreboard_detail::check_ranges(ops, options_.registers_per_warp);
    if (ops.dst_count > options_.rid_entries)
      throw std::invalid_argument("rid-table scoreboard: an instruction with " + std::to_string(ops.dst_count) +
                                  " destination ranges can never issue with " + std::to_string(options_.rid_entries) +
                                  " entries per warp");
    const uint32_t free_slots = ~slots_used_[warp] & low_bits(options_.decoded_per_warp);
    if (free_slots == 0)
      throw std::logic_error("rid-table scoreboard: warp " + std::to_string(warp) + " already has " +
                             std::to_string(options_.decoded_per_warp) + " decoded instructions");
    const auto token = static_cast<ScoreboardToken>(std::countr_zero(free_slots));
    slots_used_[warp] |= 1u << token;
    DecodedSlot& s = slot(warp, token);
    s = DecodedSlot{ops, 0, 0};
    for (uint32_t e = 0; e < options_.rid_entries; ++e)
      if (busy_[warp] >> e & 1) add_dependency(s, e, entry(warp, e));
    return token;
  }

  IssueCheck can_issue(uint32_t warp, const InstOperands& /*ops*/, ScoreboardToken token) const override {
    const DecodedSlot& s = live_slot(warp, token);
    if (s.raw_mask != 0) return IssueCheck::kRawHazard;
    if (s.waw_mask != 0) return IssueCheck::kWawHazard;
    const auto free_entries = static_cast<uint32_t>(options_.rid_entries - std::popcount(busy_[warp]));
    if (s.ops.dst_count > free_entries) return IssueCheck::kTableFull;
    return IssueCheck::kReady;
  }

  Reservation reserve(uint32_t warp, const InstOperands& ops, ScoreboardToken token) override {
    if (can_issue(warp, ops, token) != IssueCheck::kReady)
      throw std::logic_error("rid-table scoreboard: reserve of an instruction that is not ready");
    const InstOperands issued = slot(warp, token).ops;
    slots_used_[warp] &= ~(1u << token);
    Reservation reservation;
    for (const RegRange& r : issued.dsts()) {
      // The lowest free entry: deterministic, and can_issue guaranteed there is one.
      const auto e = static_cast<uint32_t>(std::countr_zero(~busy_[warp]));
      busy_[warp] |= 1u << e;
      entry(warp, e) = r;
      for (uint32_t t = 0; t < options_.decoded_per_warp; ++t)
        if (slots_used_[warp] >> t & 1) add_dependency(slot(warp, t), e, r);
      reservation.handles[reservation.count++] = WriteHandle{r, e};
    }
    return reservation;
  }

  void discard(uint32_t warp, ScoreboardToken token) override {
    live_slot(warp, token);
    slots_used_[warp] &= ~(1u << token);
  }

  void release(uint32_t warp, const WriteHandle& handle) override {
    scoreboard_detail::check_warp(warp, options_.warps);
    if (handle.entry >= options_.rid_entries || !(busy_[warp] >> handle.entry & 1) ||
        entry(warp, handle.entry) != handle.range)
      throw std::logic_error("rid-table scoreboard: release of entry " + std::to_string(handle.entry) +
                             " that does not hold this pending write");
    busy_[warp] &= ~(1u << handle.entry);
    const uint32_t keep = ~(1u << handle.entry);
    for (uint32_t t = 0; t < options_.decoded_per_warp; ++t) {
      DecodedSlot& s = slot(warp, t);
      s.raw_mask &= keep;
      s.waw_mask &= keep;
    }
  }

  uint32_t pending_writes(uint32_t warp) const override {
    scoreboard_detail::check_warp(warp, options_.warps);
    return static_cast<uint32_t>(std::popcount(busy_[warp]));
  }

 private:
  static uint32_t low_bits(uint32_t n) { return n >= 32 ? ~0u : (1u << n) - 1; }

  // Sets bit e of s's masks when the pending write w overlaps one of s's sources (RAW) or
  // destinations (WAW): fig 3-32(b) compares RID and size, so any shared slot counts.
  static void add_dependency(DecodedSlot& s, uint32_t e, const RegRange& w) {
    for (const RegRange& r : s.ops.srcs())
      if (overlaps(r, w)) s.raw_mask |= 1u << e;
    for (const RegRange& r : s.ops.dsts())
      if (overlaps(r, w)) s.waw_mask |= 1u << e;
  }

  RegRange& entry(uint32_t warp, uint32_t e) { return entries_[size_t{warp} * options_.rid_entries + e]; }
  DecodedSlot& slot(uint32_t warp, uint32_t t) { return slots_[size_t{warp} * options_.decoded_per_warp + t]; }
  const DecodedSlot& live_slot(uint32_t warp, ScoreboardToken token) const {
    scoreboard_detail::check_warp(warp, options_.warps);
    if (token >= options_.decoded_per_warp || !(slots_used_[warp] >> token & 1))
      throw std::logic_error("rid-table scoreboard: token " + std::to_string(token) + " of warp " +
                             std::to_string(warp) + " is not alive");
    return slots_[size_t{warp} * options_.decoded_per_warp + token];
  }

  const ScoreboardOptions options_;
  std::vector<RegRange> entries_;      // warps x rid_entries: (first register, size) of a pending write
  std::vector<uint32_t> busy_;         // per warp: bit e set when entry e is pending
  std::vector<DecodedSlot> slots_;     // warps x decoded_per_warp
  std::vector<uint32_t> slots_used_;   // per warp: bit t set when token t is alive
};

std::unique_ptr<Scoreboard> make_rid_table(const ScoreboardOptions& options) {
  if (options.rid_entries < 1 || options.rid_entries > 32)
    throw std::invalid_argument("rid-table scoreboard: rid_entries must be 1..32, got " +
                                std::to_string(options.rid_entries));
  if (options.decoded_per_warp < 1 || options.decoded_per_warp > 32)
    throw std::invalid_argument("rid-table scoreboard: decoded_per_warp must be 1..32, got " +
                                std::to_string(options.decoded_per_warp));
  return std::make_unique<RidTableScoreboard>(options);
}

// ScoreboardOptions::rid_entries; fig 3-32 (the NVIDIA patent) has 6. decoded_per_warp is not a
// key of its own: the SM sets it from timing.ibuffer_entries.
constexpr policy::Param kParams[] = {
    {"timing.rid_entries", 6, 1, 32,
     "pending destination-register entries per warp of the rid-table scoreboard (bitmap ignores it); "
     "a warp whose table is full cannot issue a writing instruction"},
};

}  // namespace

extern constinit const ScoreboardKind kRidTableScoreboard{
    "rid-table", "per-warp table of N (first register, size) entries with dependency masks (seed 001 fig 3-32)",
    kParams, make_rid_table};

}  // namespace lockstep::sim
