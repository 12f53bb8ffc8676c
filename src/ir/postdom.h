#pragma once
// Immediate post-dominators of a control-flow graph: the reconvergence points of divergent
// branches under an IPDOM SIMT stack.
#include <cstdint>
#include <vector>

namespace lockstep::ir {

// A CFG over basic blocks 0..n-1; `exit_node` is a virtual node every returning block flows to.
struct Cfg {
  std::vector<std::vector<uint32_t>> successors;
  uint32_t exit_node = 0;
};

inline constexpr uint32_t kNoNode = 0xffffffffu;

// ipdom[b] for every node (kNoNode for the exit node and nodes that cannot reach it).
// Iterative algorithm of Cooper, Harvey and Kennedy on the reverse graph.
std::vector<uint32_t> immediate_post_dominators(const Cfg& cfg);

}  // namespace lockstep::ir
