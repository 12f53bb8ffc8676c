#pragma once
// Whether a graph may update an executable graph (cudaGraphExecUpdate,
// cudaGraphExecChildGraphNodeSetParams), and which of its nodes takes the place of which.
//
// CUDA pairs the two graphs' nodes by topology, not by position (cuda_runtime_api.h,
// cudaGraphExecUpdate; CUDA Programming Guide, "Whole Graph Update"): the exit (sink) nodes
// pair in the order they were made, then, walking back from each pair, the dependencies of a
// pair pair in edge order (the order the edges into each node were added). A graph whose
// nodes were made, and whose edges were added, in the same order as the executable's pairs
// fully; any other topology is refused with the node where the walk failed.
#include <cstddef>
#include <optional>
#include <vector>

#include <driver_types.h>

#include "runtime/graph.h"

namespace lockstep::runtime {

struct GraphUpdatePlan {
  cudaGraphExecUpdateResult result = cudaGraphExecUpdateSuccess;
  // Positions in the updated graph (cudaGraphExecUpdateResultInfo's errorNode and
  // errorFromNode); nullopt where CUDA leaves them NULL. A failure inside a nested graph (child
  // graph, conditional body) names the updated graph's node that holds it.
  std::optional<size_t> error_node;
  std::optional<size_t> error_from;
  // On success: pairs[i] is the position in the executable's graph of updated node i.
  std::vector<size_t> pairs;
  bool ok() const { return result == cudaGraphExecUpdateSuccess; }
};

// Pairs `updated` with `current` (the executable's snapshot) and checks, pair by pair, that
// the node may take its counterpart's place: same type (NodeTypeChanged), and what the
// executable cannot change kept (ParametersChanged): a memory node's address and size, a
// conditional node's handle, type and body count; nested graphs recursively.
GraphUpdatePlan plan_graph_update(const Graph& current, const Graph& updated);

}  // namespace lockstep::runtime
