#include "func/divergence/warp_formation.h"

#include <algorithm>

namespace lockstep::func {

namespace {

void add_part(FormedWarp& f, uint32_t warp, LaneMask lanes) {
  if (!f.parts.empty() && f.parts.back().warp == warp) {
    f.parts.back().lanes |= lanes;
  } else {
    f.parts.push_back({warp, lanes});
  }
  f.lanes |= lanes;
}

}  // namespace

std::vector<FormedWarp> form_warps(FormationRule rule, const std::vector<FormationMember>& members) {
  std::vector<FormedWarp> formed;
  if (rule == FormationRule::InPlaceLut) {
    // Thread by thread, as the threads of the warps reach the LUT: only the newest formed warp
    // takes threads.
    for (const FormationMember& m : members) {
      for_each_lane(m.lanes, [&](uint32_t lane) {
        const LaneMask bit = LaneMask{1} << lane;
        if (formed.empty() || (formed.back().lanes & bit) != 0) formed.emplace_back();
        add_part(formed.back(), m.warp, bit);
      });
    }
    return formed;
  }
  // Compaction: the k-th member (in warp order) with a thread in a lane column gives it to
  // formed warp k of that column.
  std::vector<uint32_t> depth(64, 0);
  for (const FormationMember& m : members) {
    for_each_lane(m.lanes, [&](uint32_t lane) {
      const uint32_t k = depth[lane]++;
      if (k == formed.size()) formed.emplace_back();
      add_part(formed[k], m.warp, LaneMask{1} << lane);
    });
  }
  return formed;
}

ir::Pc FormationScheduler::pick(const std::vector<ir::Pc>& ready) {
  if (passed_.size() < ready.size()) passed_.resize(ready.size(), 0);
  ir::Pc chosen = ir::kNoPc;
  uint32_t longest = 0;
  for (size_t i = 0; i < ready.size(); ++i) {
    if (ready[i] == ir::kNoPc) continue;
    if (passed_[i] >= patience_ && passed_[i] > longest) {
      longest = passed_[i];
      chosen = ready[i];
    }
  }
  if (chosen == ir::kNoPc) {
    for (const ir::Pc pc : ready) chosen = std::min(chosen, pc);
  }
  for (size_t i = 0; i < ready.size(); ++i) {
    if (ready[i] == ir::kNoPc || ready[i] == chosen) {
      passed_[i] = 0;
    } else {
      ++passed_[i];
    }
  }
  return chosen;
}

}  // namespace lockstep::func
