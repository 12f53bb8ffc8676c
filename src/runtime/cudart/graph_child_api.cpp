// Child-graph nodes: adding one (cudaGraphAddChildGraphNode copies the child; cudaGraphAddNode
// may move it in instead) and handing out the node's own graph (cudaGraphChildGraphNodeGetGraph),
// which the GraphTable knows by handle so the program can inspect and change it in place.
#include "cudart/graph_child.h"

#include <utility>

using namespace lockstep::runtime;

namespace {

cudaError_t invalid() { return process_runtime()->record(cudaErrorInvalidValue); }

// Whether `graph` lies inside `outer`: held by a node of it, or of a graph inside it.
bool inside(GraphTable& table, const Graph* graph, const Graph* outer) {
  while (graph != nullptr) {
    if (graph == outer) return true;
    Graph* owner = nullptr;
    const GraphNode* h = table.holder(graph);
    if (h == nullptr || table.node(h, &owner) == nullptr) return false;
    graph = owner;
  }
  return false;
}

// The checks of a child moved into a node of `parent`, before anything changes: a graph the
// program made, not the parent nor a graph the parent lies inside (the graph would hold
// itself), not one a stream captures into, without a cycle or conditional nodes, and with no
// memory nodes where the parent is itself a graph a node holds.
bool movable(cudaGraph_t child, Graph& parent) {
  const RuntimeHandle r = process_runtime();
  GraphTable& table = r->graph_table();
  const Graph* g = table.graph(child);
  if (g == nullptr || table.holder(child) != nullptr || inside(table, &parent, g)) return false;
  if (r->captures().targets(child) || !g->topological_order() || has_conditional_nodes(*g)) return false;
  return table.holder(&parent) == nullptr || !has_memory_nodes(*g);
}

cudaError_t add_moved_child(cudaGraphNode_t* pGraphNode, cudaGraph_t graph, const cudaGraphNode_t* pDependencies,
                            size_t numDependencies, cudaGraph_t child) {
  const RuntimeHandle r = process_runtime();
  GraphTable& table = r->graph_table();
  Graph* parent = table.graph(graph);
  if (pGraphNode == nullptr || parent == nullptr || (numDependencies > 0 && pDependencies == nullptr))
    return invalid();
  std::vector<size_t> indices;
  if (table.dependency_indices(*parent, node_list(pDependencies, numDependencies), indices) != cudaSuccess ||
      !movable(child, *parent))
    return invalid();
  // Every check is made: adding the node cannot fail now, so the graph cannot be lost.
  ChildGraphNodeOp op{NestedGraph(table.release(child)), cudaGraphChildGraphOwnershipMove};
  return add_graph_node(pGraphNode, graph, pDependencies, numDependencies, std::move(op));
}

}  // namespace

namespace lockstep::runtime {

bool moved_child(cudaGraph_t graph) {
  const GraphNode* h = process_runtime()->graph_table().holder(graph);
  const auto* c = h == nullptr ? nullptr : std::get_if<ChildGraphNodeOp>(&h->op);
  return c != nullptr && c->ownership == cudaGraphChildGraphOwnershipMove;
}

cudaError_t child_graph_op(cudaGraph_t child, cudaGraph_t parent, ChildGraphNodeOp& op) {
  const Graph* g = process_runtime()->graph_table().graph(child);
  if (g == nullptr || child == parent || moved_child(child) || !g->topological_order() || has_memory_nodes(*g) ||
      has_conditional_nodes(*g))
    return cudaErrorInvalidValue;
  op = ChildGraphNodeOp{NestedGraph(std::make_unique<Graph>(*g)), cudaGraphChildGraphOwnershipClone};
  return cudaSuccess;
}

cudaError_t add_child_graph_node(cudaGraphNode_t* pGraphNode, cudaGraph_t graph, const cudaGraphNode_t* pDependencies,
                                 size_t numDependencies, cudaGraph_t child,
                                 cudaGraphChildGraphNodeOwnership ownership) {
  return guarded([&] {
    switch (ownership) {
      case cudaGraphChildGraphOwnershipClone: {
        ChildGraphNodeOp op;
        if (child_graph_op(child, graph, op) != cudaSuccess) return invalid();
        return add_graph_node(pGraphNode, graph, pDependencies, numDependencies, std::move(op));
      }
      case cudaGraphChildGraphOwnershipMove:
        return add_moved_child(pGraphNode, graph, pDependencies, numDependencies, child);
    }
    return invalid();
  });
}

}  // namespace lockstep::runtime

extern "C" cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                                  const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                                  cudaGraph_t childGraph) {
  return add_child_graph_node(pGraphNode, graph, pDependencies, numDependencies, childGraph,
                              cudaGraphChildGraphOwnershipClone);
}

// The node keeps the graph: the handle is valid while the node holds it, and changes made
// through it change what the node runs (instantiations made before keep their copy).
extern "C" cudaError_t cudaGraphChildGraphNodeGetGraph(cudaGraphNode_t node, cudaGraph_t* pGraph) {
  const RuntimeHandle r = process_runtime();
  GraphNode* n = r->graph_table().node(node);
  const auto* c = n == nullptr ? nullptr : std::get_if<ChildGraphNodeOp>(&n->op);
  if (c == nullptr || pGraph == nullptr) return invalid();
  *pGraph = graph_handle(*c->graph);
  return cudaSuccess;
}
