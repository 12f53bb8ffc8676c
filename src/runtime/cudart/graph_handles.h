#pragma once
// Shared by the graph entry points: CUDA's opaque graph handles are the addresses of the
// Runtime's GraphTable objects (Graph, GraphNode, GraphExec).
#include <cstddef>
#include <memory>
#include <optional>
#include <vector>

#include "cudart/process_runtime.h"

namespace lockstep::runtime {

inline cudaGraph_t graph_handle(Graph& g) { return reinterpret_cast<cudaGraph_t>(&g); }
inline cudaGraphNode_t node_handle(GraphNode& n) { return reinterpret_cast<cudaGraphNode_t>(&n); }
inline cudaGraphExec_t exec_handle(GraphExec& e) { return reinterpret_cast<cudaGraphExec_t>(&e); }

inline std::vector<const void*> node_list(const cudaGraphNode_t* nodes, size_t count) {
  std::vector<const void*> out;
  for (size_t i = 0; i < count; ++i) out.push_back(nodes[i]);
  return out;
}

// CUDA's protocol for list queries: with no array, *count becomes the size; otherwise up to
// *count entries are written, unused ones set to `empty`, and *count becomes the number written.
template <class T, class Make>
void fill_list(T* array, size_t* count, size_t size, Make make, T empty) {
  if (array == nullptr) {
    *count = size;
    return;
  }
  for (size_t i = 0; i < *count; ++i) array[i] = i < size ? make(i) : empty;
  if (*count > size) *count = size;
}

// What cudaGraphAddMemsetNode accepts: 1-, 2- or 4-byte elements, rows that fit the pitch.
inline bool valid_memset(const cudaMemsetParams& p) {
  const bool element_ok = p.elementSize == 1 || p.elementSize == 2 || p.elementSize == 4;
  return element_ok && p.dst != nullptr && (p.height <= 1 || p.pitch >= p.width * p.elementSize);
}

// The operation of type T the node behind `handle` records; nullptr for an unknown handle or a
// node of another type.
template <class T>
T* node_op(cudaGraphNode_t handle) {
  GraphNode* node = process_runtime()->graph_table().node(handle);
  return node == nullptr ? nullptr : std::get_if<T>(&node->op);
}

// The node of executable graph `exec` made from `node` (a node of the graph instantiated);
// nullptr when either handle is unknown or the node came after the instantiation. Found by id:
// nodes destroyed since the instantiation shift the positions of the graph's nodes, not the
// executable's.
inline GraphNode* exec_node(cudaGraphExec_t exec, cudaGraphNode_t node) {
  const RuntimeHandle r = process_runtime();
  GraphTable& table = r->graph_table();
  GraphExec* e = table.exec(exec);
  Graph* owner = nullptr;
  GraphNode* original = table.node(node, &owner);
  if (e == nullptr || original == nullptr || owner != e->source) return nullptr;
  const std::optional<size_t> index = e->graph.find(original->id);
  return index ? &e->graph.node(*index) : nullptr;
}

// exec_node's node when it records an operation of type T; nullptr otherwise.
template <class T>
T* exec_node_op(cudaGraphExec_t exec, cudaGraphNode_t node) {
  GraphNode* n = exec_node(exec, node);
  return n == nullptr ? nullptr : std::get_if<T>(&n->op);
}

// Whether a stream captures into `graph` or a graph nested in it, which must stay until the
// capture ends.
inline bool capture_targets_within(const Graph& graph) {
  std::vector<const Graph*> graphs;
  collect_graphs(graph, graphs);
  const RuntimeHandle r = process_runtime();
  for (const Graph* g : graphs)
    if (r->captures().targets(g)) return true;
  return false;
}

// Adds a node to `graph` after `dependencies`; *node receives its handle.
inline cudaError_t add_graph_node(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                                  size_t count, NodeOp op) {
  const RuntimeHandle r = process_runtime();
  Graph* g = r->graph_table().graph(graph);
  if (node == nullptr || g == nullptr || (count > 0 && dependencies == nullptr)) return r->record(cudaErrorInvalidValue);
  GraphNode* added = nullptr;
  if (cudaError_t e = r->graph_table().add_node(*g, std::move(op), node_list(dependencies, count), added);
      e != cudaSuccess)
    return r->record(e);
  *node = node_handle(*added);
  return cudaSuccess;
}

}  // namespace lockstep::runtime
