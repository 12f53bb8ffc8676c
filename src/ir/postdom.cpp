#include "ir/postdom.h"

#include <functional>

namespace lockstep::ir {

std::vector<uint32_t> immediate_post_dominators(const Cfg& cfg) {
  const uint32_t n = static_cast<uint32_t>(cfg.successors.size());
  std::vector<std::vector<uint32_t>> predecessors_rev(n);  // successors in the reverse graph
  for (uint32_t b = 0; b < n; ++b)
    for (uint32_t s : cfg.successors[b]) predecessors_rev[s].push_back(b);

  // Post-order of the reverse graph from the exit node (iterative DFS: no deep recursion).
  std::vector<uint32_t> order;
  std::vector<uint32_t> rpo_index(n, kNoNode);
  std::vector<uint8_t> seen(n, 0);
  std::vector<std::pair<uint32_t, size_t>> stack{{cfg.exit_node, 0}};
  seen[cfg.exit_node] = 1;
  while (!stack.empty()) {
    auto& [node, next] = stack.back();
    if (next < predecessors_rev[node].size()) {
      const uint32_t p = predecessors_rev[node][next++];
      if (!seen[p]) {
        seen[p] = 1;
        stack.push_back({p, 0});
      }
    } else {
      order.push_back(node);
      stack.pop_back();
    }
  }
  // order is a post-order; its reverse is a reverse post-order with exit first.
  for (uint32_t i = 0; i < order.size(); ++i) rpo_index[order[i]] = i;  // larger = earlier

  std::vector<uint32_t> ipdom(n, kNoNode);
  ipdom[cfg.exit_node] = cfg.exit_node;
  auto intersect = [&](uint32_t a, uint32_t b) {
    while (a != b) {
      while (rpo_index[a] < rpo_index[b]) a = ipdom[a];
      while (rpo_index[b] < rpo_index[a]) b = ipdom[b];
    }
    return a;
  };
  bool changed = true;
  while (changed) {
    changed = false;
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
      const uint32_t b = *it;
      if (b == cfg.exit_node) continue;
      uint32_t candidate = kNoNode;
      for (uint32_t s : cfg.successors[b]) {  // predecessors in the reverse graph
        if (ipdom[s] == kNoNode) continue;
        candidate = candidate == kNoNode ? s : intersect(s, candidate);
      }
      if (candidate != ipdom[b]) {
        ipdom[b] = candidate;
        changed = true;
      }
    }
  }
  ipdom[cfg.exit_node] = kNoNode;
  return ipdom;
}

}  // namespace lockstep::ir
