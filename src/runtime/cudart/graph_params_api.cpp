// Changing the parameters of memcpy, memset, host and event nodes, in a graph (later
// instantiations see them) or in an executable graph (only its copy changes, as if the node
// had held them at instantiation), and removing dependencies.
#include <algorithm>

#include "cudart/graph_handles.h"

using namespace lockstep::runtime;

namespace {

cudaError_t invalid() { return process_runtime()->record(cudaErrorInvalidValue); }

cudaError_t set_memcpy(MemcpyNodeOp* op, const cudaMemcpy3DParms* p) {
  if (op == nullptr || p == nullptr) return invalid();
  op->params = *p;
  return cudaSuccess;
}

cudaError_t set_memset(MemsetNodeOp* op, const cudaMemsetParams* p) {
  if (op == nullptr || p == nullptr || !valid_memset(*p)) return invalid();
  op->params = *p;
  return cudaSuccess;
}

cudaError_t set_host(HostNodeOp* op, const cudaHostNodeParams* p) {
  if (op == nullptr || p == nullptr || p->fn == nullptr) return invalid();
  *op = HostNodeOp{p->fn, p->userData};
  return cudaSuccess;
}

template <class T>
cudaError_t set_event(T* op, cudaEvent_t event) {
  if (op == nullptr || event == nullptr) return invalid();
  op->event = event;
  return cudaSuccess;
}

template <class T>
cudaError_t get_event(T* op, cudaEvent_t* event) {
  if (op == nullptr || event == nullptr) return invalid();
  *event = static_cast<cudaEvent_t>(op->event);
  return cudaSuccess;
}

}  // namespace

extern "C" cudaError_t cudaGraphMemcpyNodeSetParams(cudaGraphNode_t node, const cudaMemcpy3DParms* pNodeParams) {
  return set_memcpy(node_op<MemcpyNodeOp>(node), pNodeParams);
}

extern "C" cudaError_t cudaGraphMemcpyNodeSetParams1D(cudaGraphNode_t node, void* dst, const void* src, size_t count,
                                                      cudaMemcpyKind kind) {
  const MemcpyNodeOp op = memcpy_1d_op(dst, src, count, kind);
  return set_memcpy(node_op<MemcpyNodeOp>(node), &op.params);
}

extern "C" cudaError_t cudaGraphMemsetNodeSetParams(cudaGraphNode_t node, const cudaMemsetParams* pNodeParams) {
  return set_memset(node_op<MemsetNodeOp>(node), pNodeParams);
}

extern "C" cudaError_t cudaGraphHostNodeSetParams(cudaGraphNode_t node, const cudaHostNodeParams* pNodeParams) {
  return set_host(node_op<HostNodeOp>(node), pNodeParams);
}

extern "C" cudaError_t cudaGraphEventRecordNodeGetEvent(cudaGraphNode_t node, cudaEvent_t* event_out) {
  return get_event(node_op<EventRecordNodeOp>(node), event_out);
}

extern "C" cudaError_t cudaGraphEventRecordNodeSetEvent(cudaGraphNode_t node, cudaEvent_t event) {
  return set_event(node_op<EventRecordNodeOp>(node), event);
}

extern "C" cudaError_t cudaGraphEventWaitNodeGetEvent(cudaGraphNode_t node, cudaEvent_t* event_out) {
  return get_event(node_op<EventWaitNodeOp>(node), event_out);
}

extern "C" cudaError_t cudaGraphEventWaitNodeSetEvent(cudaGraphNode_t node, cudaEvent_t event) {
  return set_event(node_op<EventWaitNodeOp>(node), event);
}

extern "C" cudaError_t cudaGraphExecMemcpyNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                                        const cudaMemcpy3DParms* pNodeParams) {
  return set_memcpy(exec_node_op<MemcpyNodeOp>(hGraphExec, node), pNodeParams);
}

extern "C" cudaError_t cudaGraphExecMemcpyNodeSetParams1D(cudaGraphExec_t hGraphExec, cudaGraphNode_t node, void* dst,
                                                          const void* src, size_t count, cudaMemcpyKind kind) {
  const MemcpyNodeOp op = memcpy_1d_op(dst, src, count, kind);
  return set_memcpy(exec_node_op<MemcpyNodeOp>(hGraphExec, node), &op.params);
}

extern "C" cudaError_t cudaGraphExecMemsetNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                                        const cudaMemsetParams* pNodeParams) {
  return set_memset(exec_node_op<MemsetNodeOp>(hGraphExec, node), pNodeParams);
}

extern "C" cudaError_t cudaGraphExecHostNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                                      const cudaHostNodeParams* pNodeParams) {
  return set_host(exec_node_op<HostNodeOp>(hGraphExec, node), pNodeParams);
}

extern "C" cudaError_t cudaGraphExecEventRecordNodeSetEvent(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode,
                                                            cudaEvent_t event) {
  return set_event(exec_node_op<EventRecordNodeOp>(hGraphExec, hNode), event);
}

extern "C" cudaError_t cudaGraphExecEventWaitNodeSetEvent(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode,
                                                          cudaEvent_t event) {
  return set_event(exec_node_op<EventWaitNodeOp>(hGraphExec, hNode), event);
}

extern "C" cudaError_t cudaGraphRemoveDependencies(cudaGraph_t graph, const cudaGraphNode_t* from,
                                                   const cudaGraphNode_t* to, const cudaGraphEdgeData* /*edgeData*/,
                                                   size_t numDependencies) {
  GraphTable& table = process_runtime()->graph_table();
  Graph* g = table.graph(graph);
  if (g == nullptr || (numDependencies > 0 && (from == nullptr || to == nullptr))) return invalid();
  if (has_memory_nodes(*g)) return invalid();  // CUDA: their edges cannot be deleted
  std::vector<std::pair<size_t, size_t>> edges;  // all checked before any is removed
  for (size_t i = 0; i < numDependencies; ++i) {
    Graph* owner_from = nullptr;
    Graph* owner_to = nullptr;
    GraphNode* a = table.node(from[i], &owner_from);
    GraphNode* b = table.node(to[i], &owner_to);
    if (a == nullptr || b == nullptr || owner_from != g || owner_to != g) return invalid();
    const std::pair<size_t, size_t> edge{a->index, b->index};
    if (std::find(g->edges().begin(), g->edges().end(), edge) == g->edges().end()) return invalid();
    edges.push_back(edge);
  }
  for (const auto& [a, b] : edges) g->remove_edge(a, b);
  return cudaSuccess;
}
