#pragma once
// A CUDA graph as Graphviz DOT text (cudaGraphDebugDotPrint): one box per node, labelled with its
// position and what it does; edges in the order they were added; the graphs a node holds (a child
// graph, a conditional node's bodies) as clusters inside it. The text depends only on the graph,
// so the same program writes the same file.
#include <functional>
#include <string>

#include "runtime/graph.h"

namespace lockstep::runtime {

// `kernel_name`: a kernel node's name from its host function ("" when unknown).
std::string graph_dot(const Graph& graph, const std::function<std::string(const void*)>& kernel_name);

}  // namespace lockstep::runtime
