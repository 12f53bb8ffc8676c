#pragma once
// Shared helpers of the warp-level families (warp_*.cpp and tensor_*.cpp): operand checks for
// binders and the lane-group rule for warps that are not 32 lanes wide.
//
// Lane groups: every warp-level PTX operation speaks of a 32-lane warp (membermask is 32 bits,
// shfl lane numbers are 5 bits). The engine supports other warp widths, so these families treat
// a warp as consecutive groups of 32 lanes: a lane's group is lanes [lane & ~31, (lane & ~31) + 32)
// clipped to the warp width; a 32-bit membermask, ballot or match mask addresses the lanes of the
// executing lane's own group (bit i = lane group_base + i). At width <= 32 there is exactly one
// group, so nothing changes; at width 64 each half behaves as an independent 32-lane warp. Lanes
// that a computation names but the warp does not have (e.g. source lane 20 of an 8-wide warp) are
// out of range.
#include <cstdint>
#include <string>

#include "func/bind.h"
#include "func/lanes.h"

namespace lockstep::func::warp_ops {

// First lane of the 32-lane group holding `lane`.
inline uint32_t group_base(uint32_t lane) { return lane & ~31u; }

// A 32-bit lane mask of `lane`'s group placed at the group's position in the warp.
inline LaneMask group_mask(uint32_t mask32, uint32_t lane) {
  return static_cast<LaneMask>(mask32) << group_base(lane);
}

// The bits of `lanes` that belong to `lane`'s group, as a 32-bit group-relative mask.
inline uint32_t to_group(LaneMask lanes, uint32_t lane) {
  return static_cast<uint32_t>(lanes >> group_base(lane));
}

// Records that `e` synchronizes the warp (ExecInst::warp_sync) with membermask in s[member].
inline void make_synced(ExecInst& e, WarpSyncKind kind, uint8_t member) {
  e.warp_sync = kind;
  e.sync_member = member;
}

// The "d|p" parts of a pair destination, or just d; p is nullptr when absent.
struct PairDest {
  const ir::Operand* value = nullptr;
  const ir::Operand* pred = nullptr;
};

// Splits operand `op` of `inst` into d and optional p. Throws when op is neither a register,
// a sink, nor a two-part d|p pair.
PairDest split_pair(const ir::Instruction& inst, const ir::Operand& op, BindContext& ctx);

// Slot of a source operand that must be a register or an immediate (or a static special
// register); otherwise error "operand N of '<form>' must be a register or immediate" where N is
// the operand's 0-based position.
uint32_t value_slot(const ir::Instruction& inst, size_t index, BindContext& ctx);

// Slot of a destination operand that must be a register or the sink `_`.
uint32_t dest_slot(const ir::Instruction& inst, size_t index, BindContext& ctx);

// Predicate index of operand `index`, which must be a predicate register (optionally !p when
// `allow_negated`); `negated` receives the flag.
uint32_t pred_operand(const ir::Instruction& inst, size_t index, BindContext& ctx,
                      bool allow_negated, bool* negated);

}  // namespace lockstep::func::warp_ops
