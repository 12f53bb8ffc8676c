#pragma once
// Warp formation across the warps of a thread block (seed 001 §3.3.4 part 2, figs 3-14 to
// 3-16): the block-level divergence units (sm.divergence = dwf, tbc) issue the threads of
// several warps that wait at one PC as "formed warps". Every thread keeps its home lane (lane =
// thread index % warp size), so a formed warp holds at most one thread per lane; the threads'
// registers stay in their home warps, and the runner executes a formed warp's instruction on
// each home warp with the mask of its threads (per-thread semantics are those of any unit).
// This file holds the two pure pieces: how threads are grouped into formed warps, and which PC
// dwf issues next (tbc's block-wide stack is block_stack.h).
#include <cstdint>
#include <vector>

#include "func/lanes.h"
#include "ir/program.h"

namespace lockstep::func {

// How the threads waiting at one PC are grouped (both keep home lanes).
enum class FormationRule : uint8_t {
  // dwf, fig 3-15: the PC-warp LUT points at the one warp being formed for the PC; threads are
  // placed in warp order (then lane order) into it, and a thread whose lane is taken there
  // opens a new formed warp, which the LUT then points at (fig 3-14: W1's T5 collides with
  // T1 on lane 1 and issues alone).
  InPlaceLut,
  // tbc, fig 3-16: compaction: formed warp k takes the k-th waiting thread of every lane
  // column (as few formed warps as the fullest column allows).
  Compaction,
};

// Threads of one home warp that wait at the PC being issued.
struct FormationMember {
  uint32_t warp = 0;   // index in the block
  LaneMask lanes = 0;
};

// One formed warp: the threads it takes from each home warp (in warp order, no empty parts).
struct FormedWarp {
  std::vector<FormationMember> parts;
  LaneMask lanes = 0;  // union of the parts' lanes (no two parts share a lane)
};

// The formed warps for `members` (in warp order, each warp at most once), in issue order.
std::vector<FormedWarp> form_warps(FormationRule rule, const std::vector<FormationMember>& members);

// Which PC the block issues next under dwf (tbc issues its block stack's top entry): the lowest
// PC among the ready home warps' paths (threads behind catch up with those ahead, so the paths
// of an if/else meet at the join point and merge there), unless a ready warp has been passed
// over `patience` issues in a row: then that warp's PC (the one passed over longest, the lowest
// warp index first). Lowest-PC alone would starve a warp that waits ahead of a sibling spinning
// on a flag the first one sets.
class FormationScheduler {
 public:
  explicit FormationScheduler(uint32_t patience) : patience_(patience) {}
  void reset(uint32_t warps) { passed_.assign(warps, 0); }
  // `ready[i]`: the PC of warp i's ready path, or ir::kNoPc when it cannot issue now.
  // Returns kNoPc when no warp is ready. Counts the warps passed over.
  ir::Pc pick(const std::vector<ir::Pc>& ready);

 private:
  uint32_t patience_;
  std::vector<uint32_t> passed_;  // per warp: issues in a row it was ready for but not chosen
};

}  // namespace lockstep::func
