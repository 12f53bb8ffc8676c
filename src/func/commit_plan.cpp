#include "func/commit_plan.h"

#include <algorithm>
#include <numeric>

namespace lockstep::func {

std::size_t CommitPlanner::plan(const std::vector<ParkedFootprint>& parked, std::vector<uint8_t>& independent) {
  const size_t n = parked.size();
  independent.assign(n, 0);
  for (const ParkedFootprint& p : parked)
    if (!p.known) return 0;

  order_.resize(n);
  std::iota(order_.begin(), order_.end(), 0u);
  // Blocks usually store consecutive data in slot order, so the ranges tend to arrive sorted:
  // the sort is skipped then. Ties sort by index, so the plan never depends on the sort.
  const auto by_start = [&](uint32_t a, uint32_t b) {
    return parked[a].lo != parked[b].lo ? parked[a].lo < parked[b].lo : a < b;
  };
  if (!std::is_sorted(order_.begin(), order_.end(), by_start)) std::sort(order_.begin(), order_.end(), by_start);

  // Sweep the ranges by start, grouping each with every range that starts before the group's
  // furthest end: a range alone in its group overlaps nothing. (A group may hold two ranges
  // that overlap only through a third; all of them stay serial, which is merely cautious.)
  size_t count = 0;
  size_t group = 0;  // first position in order_ of the current group
  uint64_t reach = 0;
  for (size_t k = 0; k <= n; ++k) {
    const bool joins = k < n && k > group && parked[order_[k]].lo < reach;
    if (joins) {
      reach = std::max(reach, parked[order_[k]].hi);
      continue;
    }
    if (k > 0 && k - group == 1) {
      independent[order_[group]] = 1;
      ++count;
    }
    if (k == n) break;
    group = k;
    reach = parked[order_[k]].hi;
  }
  return count;
}

}  // namespace lockstep::func
