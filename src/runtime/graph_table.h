#pragma once
// Every live graph and executable graph of a Runtime, by handle. cudaGraph_t, cudaGraphNode_t
// and cudaGraphExec_t are the addresses of a Graph, a GraphNode and a GraphExec; the table
// validates handles and knows which graph owns each node. Graphs come in two kinds: those the
// program made (cudaGraphCreate, a capture, a clone), which the table owns, and those a node
// holds (a child graph, a conditional body), which the node owns and the table only knows, so
// that they are handles too and go with the graph holding their node.
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
      : graph(g), source(from), order(std::move(run_order)), flags(instantiate_flags) {
    collect_graphs(g, sources);
  }
  Graph graph;
  const Graph* source;  // the graph instantiated: its nodes name this one's (same indices)
  // `source` and the graphs nested in it at instantiation, compared with the graphs conditional
  // handles were made for (only compared: any of them may be gone since).
  std::vector<const Graph*> sources;
  std::vector<size_t> order;
  unsigned long long flags;
};

class GraphTable {
 public:
  Graph& create();
  // A deep copy of `original`, with new node handles.
  Graph& clone(const Graph& original);
  // A graph of either kind by handle; nullptr for an unknown handle.
  Graph* graph(const void* handle);
  // The node holding graph `handle`; nullptr for a graph the program made or an unknown handle.
  GraphNode* holder(const void* handle);
  // Forgets a graph the program made, its nodes and the graphs they hold; false for an unknown
  // handle and for a graph a node holds (its node owns it).
  bool destroy(const void* handle);
  // Takes a graph the program made out of the table, for a node to hold (the caller adds that
  // node at once); nullptr where `destroy` would refuse.
  std::unique_ptr<Graph> release(const void* handle);

  // The indices of `dependencies` (node handles of `graph`, no repeats); cudaErrorInvalidValue
  // when one breaks that.
  cudaError_t dependency_indices(const Graph& graph, const std::vector<const void*>& dependencies,
                                 std::vector<size_t>& indices) const;
  // Adds a node to `graph` after `dependencies`. cudaErrorInvalidValue, with nothing added, for a
  // bad dependency or a node the graph may not hold (allowed_in).
  cudaError_t add_node(Graph& graph, NodeOp op, const std::vector<const void*>& dependencies, GraphNode*& added);
  // Whether `graph` may hold a node doing `op`. CUDA keeps memory nodes out of graphs a node
  // holds (cudaGraphChildGraphNodeGetGraph, conditional bodies) and conditional nodes out of
  // child graphs.
  bool allowed_in(const Graph& graph, const NodeOp& op);
  // Gives `node` (of a graph of the table) another operation; the graphs the old one held are
  // forgotten, the new one's known.
  void replace_op(GraphNode& node, NodeOp op);
  // The node behind a handle and the graph owning it; nullptr for an unknown handle.
  GraphNode* node(const void* handle, Graph** owner = nullptr);
  // Removes `node` from `owner` (the graph owning it), with its edges and the graphs it holds;
  // its handle and theirs become unknown. Executable graphs keep their copies.
  void destroy_node(GraphNode& node, Graph& owner);

  // nullptr when the graph has a cycle.
  GraphExec* instantiate(const Graph& graph, unsigned long long flags);
  GraphExec* exec(const void* handle);
  // Whether an executable graph instantiated from `graph` exists.
  bool instantiated(const Graph& graph) const;
  bool destroy_exec(const void* handle);

 private:
  // Knows `graph`'s nodes and, through them, the graphs they hold, at any depth.
  void register_graph(Graph& graph);
  void register_nested(GraphNode& node);
  void forget_graph(const Graph& graph);
  void forget_nested(const GraphNode& node);

  struct Nested {
    Graph* graph = nullptr;
    GraphNode* holder = nullptr;
  };
  std::unordered_map<const void*, std::unique_ptr<Graph>> graphs_;  // made by the program
  std::unordered_map<const void*, Nested> nested_;                  // held by a node
  std::unordered_map<const void*, Graph*> node_owners_;
  std::unordered_map<const void*, std::unique_ptr<GraphExec>> execs_;
};

}  // namespace lockstep::runtime
