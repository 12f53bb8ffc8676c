// Building CUDA graphs explicitly: graphs, nodes and dependencies. Nodes record what the
// matching stream operation would do; cudaGraphLaunch (graph_exec_api.cpp) runs them.
#include <algorithm>
#include <utility>

#include "cudart/graph_handles.h"

using lockstep::Dim3;
using namespace lockstep::runtime;

namespace {

Dim3 to_dim3(dim3 d) { return Dim3{d.x, d.y, d.z}; }

cudaError_t invalid() { return process_runtime()->record(cudaErrorInvalidValue); }

}  // namespace

extern "C" cudaError_t cudaGraphCreate(cudaGraph_t* pGraph, unsigned int flags) {
  if (pGraph == nullptr || flags != 0) return invalid();
  return guarded([&] {
    *pGraph = graph_handle(process_runtime()->graph_table().create());
    return cudaSuccess;
  });
}

// A graph a stream captures into lives until cudaStreamEndCapture (cudaErrorIllegalState, as
// CUDA 13 answers), and so do the graphs and nodes holding it (cudaStreamBeginCaptureToGraph
// may capture into a child graph or a conditional body); a graph a node holds goes with its
// node, and the table refuses it here.
extern "C" cudaError_t cudaGraphDestroy(cudaGraph_t graph) {
  const RuntimeHandle r = process_runtime();
  if (const Graph* g = r->graph_table().graph(graph); g != nullptr && capture_targets_within(*g))
    return r->record(cudaErrorIllegalState);
  return r->graph_table().destroy(graph) ? cudaSuccess : invalid();
}

// Removes the node, its edges and the graphs it holds. Executable graphs made before keep their
// copy; a stream capturing into the node's graph stops depending on it. CUDA: the nodes of a
// graph with memory nodes cannot be destroyed. A node holding a graph a stream captures into
// stays, refused as cudaGraphDestroy refuses that graph.
extern "C" cudaError_t cudaGraphDestroyNode(cudaGraphNode_t node) {
  const RuntimeHandle r = process_runtime();
  Graph* owner = nullptr;
  GraphNode* n = r->graph_table().node(node, &owner);
  if (n == nullptr || has_memory_nodes(*owner)) return invalid();
  for (const Graph* nested : nested_graphs(n->op))
    if (capture_targets_within(*nested)) return r->record(cudaErrorIllegalState);
  r->captures().forget_node(n);
  r->graph_table().destroy_node(*n, *owner);
  return cudaSuccess;
}

extern "C" cudaError_t cudaGraphClone(cudaGraph_t* pGraphClone, cudaGraph_t originalGraph) {
  Graph* original = process_runtime()->graph_table().graph(originalGraph);
  if (pGraphClone == nullptr || original == nullptr) return invalid();
  // CUDA: a graph with memory or conditional nodes cannot be cloned.
  if (has_memory_nodes(*original) || has_conditional_nodes(*original)) return invalid();
  return guarded([&] {
    *pGraphClone = graph_handle(process_runtime()->graph_table().clone(*original));
    return cudaSuccess;
  });
}

extern "C" cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                              const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                              const cudaKernelNodeParams* pNodeParams) {
  if (pNodeParams == nullptr) return invalid();
  return guarded([&] {
    const cudaKernelNodeParams& p = *pNodeParams;
    KernelNodeOp op;
    if (cudaError_t e = process_runtime()->kernel_node(op, p.func, to_dim3(p.gridDim), to_dim3(p.blockDim),
                                                      p.sharedMemBytes, p.kernelParams, p.extra);
        e != cudaSuccess)
      return e;
    return add_graph_node(pGraphNode, graph, pDependencies, numDependencies, std::move(op));
  });
}

extern "C" cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                              const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                              const cudaMemcpy3DParms* pCopyParams) {
  if (pCopyParams == nullptr) return invalid();
  return guarded([&] {
    return add_graph_node(pGraphNode, graph, pDependencies, numDependencies, MemcpyNodeOp{*pCopyParams});
  });
}

extern "C" cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                                const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                                void* dst, const void* src, size_t count, cudaMemcpyKind kind) {
  return guarded([&] {
    return add_graph_node(pGraphNode, graph, pDependencies, numDependencies, memcpy_1d_op(dst, src, count, kind));
  });
}

extern "C" cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                              const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                              const cudaMemsetParams* pMemsetParams) {
  if (pMemsetParams == nullptr) return invalid();
  if (!valid_memset(*pMemsetParams)) return invalid();
  return guarded([&] {
    return add_graph_node(pGraphNode, graph, pDependencies, numDependencies, MemsetNodeOp{*pMemsetParams});
  });
}

extern "C" cudaError_t cudaGraphAddHostNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                            const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                            const cudaHostNodeParams* pNodeParams) {
  if (pNodeParams == nullptr || pNodeParams->fn == nullptr) return invalid();
  return guarded([&] {
    return add_graph_node(pGraphNode, graph, pDependencies, numDependencies,
                          HostNodeOp{pNodeParams->fn, pNodeParams->userData});
  });
}

extern "C" cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                             const cudaGraphNode_t* pDependencies, size_t numDependencies) {
  return guarded([&] { return add_graph_node(pGraphNode, graph, pDependencies, numDependencies, EmptyNodeOp{}); });
}

extern "C" cudaError_t cudaGraphAddEventRecordNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                                   const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                                   cudaEvent_t event) {
  if (event == nullptr) return invalid();
  return guarded([&] {
    return add_graph_node(pGraphNode, graph, pDependencies, numDependencies, EventRecordNodeOp{event});
  });
}

extern "C" cudaError_t cudaGraphAddEventWaitNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                                 const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                                 cudaEvent_t event) {
  if (event == nullptr) return invalid();
  return guarded([&] {
    return add_graph_node(pGraphNode, graph, pDependencies, numDependencies, EventWaitNodeOp{event});
  });
}

// Edge data other than the default (full completion, no ports) has no meaning when every node
// completes before the next starts, so it is refused rather than ignored.
extern "C" cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t* from,
                                                const cudaGraphNode_t* to, const cudaGraphEdgeData* edgeData,
                                                size_t numDependencies) {
  const RuntimeHandle r = process_runtime();
  Graph* g = r->graph_table().graph(graph);
  if (g == nullptr || (numDependencies > 0 && (from == nullptr || to == nullptr))) return invalid();
  for (size_t i = 0; edgeData != nullptr && i < numDependencies; ++i) {
    const cudaGraphEdgeData& d = edgeData[i];
    if (d.from_port != 0 || d.to_port != 0 || d.type != cudaGraphDependencyTypeDefault) {
      r->report_unsupported("cudaGraphAddDependencies with edge data");
      return cudaErrorNotSupported;
    }
  }
  // All edges are checked before any is added.
  std::vector<std::pair<size_t, size_t>> edges;
  for (size_t i = 0; i < numDependencies; ++i) {
    Graph* owner_from = nullptr;
    Graph* owner_to = nullptr;
    GraphNode* a = r->graph_table().node(from[i], &owner_from);
    GraphNode* b = r->graph_table().node(to[i], &owner_to);
    if (a == nullptr || b == nullptr || owner_from != g || owner_to != g || a == b) return invalid();
    const std::pair<size_t, size_t> edge{a->index, b->index};
    const auto& existing = g->edges();
    if (std::find(existing.begin(), existing.end(), edge) != existing.end() ||
        std::find(edges.begin(), edges.end(), edge) != edges.end())
      return invalid();
    edges.push_back(edge);
  }
  for (const auto& [a, b] : edges) g->add_edge(a, b);
  return cudaSuccess;
}
