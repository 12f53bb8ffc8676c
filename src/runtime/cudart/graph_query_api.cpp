// Inspecting and changing a CUDA graph's nodes: lists of nodes, roots and edges (creation
// order), node types, and the parameters of kernel, memcpy, memset and host nodes.
#include <cstdio>
#include <string>

#include "cudart/graph_handles.h"
#include "runtime/graph_dot.h"

using lockstep::Dim3;
using namespace lockstep::runtime;

namespace {

cudaError_t invalid() { return process_runtime()->record(cudaErrorInvalidValue); }

cudaError_t list_nodes(cudaGraphNode_t handle, cudaGraphNode_t* nodes, size_t* count, bool dependencies) {
  Graph* g = nullptr;
  GraphNode* node = process_runtime()->graph_table().node(handle, &g);
  if (node == nullptr || count == nullptr) return invalid();
  const std::vector<size_t> list = dependencies ? g->dependencies(node->index) : g->dependents(node->index);
  fill_list<cudaGraphNode_t>(nodes, count, list.size(), [&](size_t i) { return node_handle(g->node(list[i])); },
                             nullptr);
  return cudaSuccess;
}

}  // namespace

extern "C" cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t* nodes, size_t* numNodes) {
  Graph* g = process_runtime()->graph_table().graph(graph);
  if (g == nullptr || numNodes == nullptr) return invalid();
  fill_list<cudaGraphNode_t>(nodes, numNodes, g->size(), [&](size_t i) { return node_handle(g->node(i)); }, nullptr);
  return cudaSuccess;
}

extern "C" cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t* pRootNodes, size_t* pNumRootNodes) {
  Graph* g = process_runtime()->graph_table().graph(graph);
  if (g == nullptr || pNumRootNodes == nullptr) return invalid();
  const std::vector<size_t> roots = g->roots();
  fill_list<cudaGraphNode_t>(pRootNodes, pNumRootNodes, roots.size(),
                             [&](size_t i) { return node_handle(g->node(roots[i])); }, nullptr);
  return cudaSuccess;
}

// Every edge carries default edge data (cudaGraphAddDependencies refuses any other).
extern "C" cudaError_t cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t* from, cudaGraphNode_t* to,
                                         cudaGraphEdgeData* edgeData, size_t* numEdges) {
  Graph* g = process_runtime()->graph_table().graph(graph);
  if (g == nullptr || numEdges == nullptr || (from == nullptr) != (to == nullptr)) return invalid();
  if (edgeData != nullptr && from == nullptr) return invalid();
  const auto& edges = g->edges();
  size_t count = *numEdges;
  auto source = [&](size_t i) { return node_handle(g->node(edges[i].first)); };
  auto target = [&](size_t i) { return node_handle(g->node(edges[i].second)); };
  fill_list<cudaGraphNode_t>(from, numEdges, edges.size(), source, nullptr);
  fill_list<cudaGraphNode_t>(to, &count, edges.size(), target, nullptr);
  if (edgeData != nullptr)
    for (size_t i = 0; i < *numEdges; ++i) edgeData[i] = cudaGraphEdgeData{};
  return cudaSuccess;
}

extern "C" cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t node, cudaGraphNode_t* pDependencies,
                                                    cudaGraphEdgeData* edgeData, size_t* pNumDependencies) {
  const cudaError_t e = list_nodes(node, pDependencies, pNumDependencies, true);
  if (e == cudaSuccess && edgeData != nullptr && pDependencies != nullptr)
    for (size_t i = 0; i < *pNumDependencies; ++i) edgeData[i] = cudaGraphEdgeData{};
  return e;
}

extern "C" cudaError_t cudaGraphNodeGetDependentNodes(cudaGraphNode_t node, cudaGraphNode_t* pDependentNodes,
                                                      cudaGraphEdgeData* edgeData, size_t* pNumDependentNodes) {
  const cudaError_t e = list_nodes(node, pDependentNodes, pNumDependentNodes, false);
  if (e == cudaSuccess && edgeData != nullptr && pDependentNodes != nullptr)
    for (size_t i = 0; i < *pNumDependentNodes; ++i) edgeData[i] = cudaGraphEdgeData{};
  return e;
}

extern "C" cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, cudaGraphNodeType* pType) {
  GraphNode* n = process_runtime()->graph_table().node(node);
  if (n == nullptr || pType == nullptr) return invalid();
  *pType = node_type(n->op);
  return cudaSuccess;
}

// kernelParams points at the node's own copies of the arguments (valid while the node lives).
extern "C" cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t node, cudaKernelNodeParams* pNodeParams) {
  KernelNodeOp* k = node_op<KernelNodeOp>(node);
  if (k == nullptr || pNodeParams == nullptr) return invalid();
  pNodeParams->func = const_cast<void*>(k->host_fun);
  pNodeParams->gridDim = dim3(k->grid.x, k->grid.y, k->grid.z);
  pNodeParams->blockDim = dim3(k->block.x, k->block.y, k->block.z);
  pNodeParams->sharedMemBytes = static_cast<unsigned>(k->shared);
  pNodeParams->kernelParams = k->argument_pointers();
  pNodeParams->extra = nullptr;
  return cudaSuccess;
}

extern "C" cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node, const cudaKernelNodeParams* pNodeParams) {
  KernelNodeOp* k = node_op<KernelNodeOp>(node);
  if (k == nullptr || pNodeParams == nullptr) return invalid();
  return guarded([&] {
    const cudaKernelNodeParams& p = *pNodeParams;
    return process_runtime()->kernel_node(*k, p.func, Dim3{p.gridDim.x, p.gridDim.y, p.gridDim.z},
                                         Dim3{p.blockDim.x, p.blockDim.y, p.blockDim.z}, p.sharedMemBytes,
                                         p.kernelParams, p.extra);
  });
}

extern "C" cudaError_t cudaGraphMemcpyNodeGetParams(cudaGraphNode_t node, cudaMemcpy3DParms* pNodeParams) {
  MemcpyNodeOp* c = node_op<MemcpyNodeOp>(node);
  if (c == nullptr || pNodeParams == nullptr) return invalid();
  *pNodeParams = c->params;
  return cudaSuccess;
}

extern "C" cudaError_t cudaGraphMemsetNodeGetParams(cudaGraphNode_t node, cudaMemsetParams* pNodeParams) {
  MemsetNodeOp* m = node_op<MemsetNodeOp>(node);
  if (m == nullptr || pNodeParams == nullptr) return invalid();
  *pNodeParams = m->params;
  return cudaSuccess;
}

extern "C" cudaError_t cudaGraphHostNodeGetParams(cudaGraphNode_t node, cudaHostNodeParams* pNodeParams) {
  HostNodeOp* h = node_op<HostNodeOp>(node);
  if (h == nullptr || pNodeParams == nullptr) return invalid();
  pNodeParams->fn = h->fn;
  pNodeParams->userData = h->user_data;
  return cudaSuccess;
}

// The graph as Graphviz DOT text (runtime/graph_dot.h); the verbosity flags change nothing.
extern "C" cudaError_t cudaGraphDebugDotPrint(cudaGraph_t graph, const char* path, unsigned int /*flags*/) {
  const RuntimeHandle r = process_runtime();
  const Graph* g = r->graph_table().graph(graph);
  if (g == nullptr || path == nullptr) return invalid();
  const std::string text = graph_dot(*g, [&](const void* host_fun) {
    const char* name = r->kernel_name(host_fun);
    return name == nullptr ? std::string() : std::string(name);
  });
  std::FILE* file = std::fopen(path, "w");
  if (file == nullptr) return r->record(cudaErrorOperatingSystem);
  const bool written = std::fwrite(text.data(), 1, text.size(), file) == text.size();
  if (std::fclose(file) != 0 || !written) return r->record(cudaErrorOperatingSystem);
  return cudaSuccess;
}
