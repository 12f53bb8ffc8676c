#pragma once
// Every live graph and executable graph of a Runtime, by handle. cudaGraph_t, cudaGraphNode_t
// and cudaGraphExec_t are the addresses of a Graph, a GraphNode and a GraphExec; the table
// validates handles and knows which graph owns each node.
#include <cstddef>
#include <memory>
#include <unordered_map>
#include <vector>

#include <driver_types.h>

#include "runtime/graph.h"

namespace lockstep::runtime {

// An instantiated graph: a snapshot of the graph's nodes and the order they run in.
struct GraphExec {
  GraphExec(const Graph& g, const Graph* from, std::vector<size_t> run_order, unsigned long long instantiate_flags)
      : graph(g), source(from), order(std::move(run_order)), flags(instantiate_flags) {}
  Graph graph;
  const Graph* source;  // the graph instantiated: its nodes name this one's (same indices)
  std::vector<size_t> order;
  unsigned long long flags;
};

class GraphTable {
 public:
  Graph& create();
  // A deep copy of `original`, with new node handles.
  Graph& clone(const Graph& original);
  Graph* graph(const void* handle);
  // Forgets the graph and its nodes; false for an unknown handle.
  bool destroy(const void* handle);

  // Adds a node to `graph` after `dependencies` (node handles of the same graph, no repeats).
  // cudaErrorInvalidValue, with nothing added, when a dependency breaks that.
  cudaError_t add_node(Graph& graph, NodeOp op, const std::vector<const void*>& dependencies, GraphNode*& added);
  // The node behind a handle and the graph owning it; nullptr for an unknown handle.
  GraphNode* node(const void* handle, Graph** owner = nullptr);

  // nullptr when the graph has a cycle.
  GraphExec* instantiate(const Graph& graph, unsigned long long flags);
  GraphExec* exec(const void* handle);
  // Whether an executable graph instantiated from `graph` exists.
  bool instantiated(const Graph& graph) const;
  bool destroy_exec(const void* handle);

 private:
  void register_nodes(Graph& graph);

  std::unordered_map<const void*, std::unique_ptr<Graph>> graphs_;
  std::unordered_map<const void*, Graph*> node_owners_;
  std::unordered_map<const void*, std::unique_ptr<GraphExec>> execs_;
};

}  // namespace lockstep::runtime
