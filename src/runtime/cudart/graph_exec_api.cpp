// Executable graphs: instantiation (a snapshot of the graph and its topological order),
// launch (the nodes run now, in that order), parameter updates and cudaGraphExecUpdate.
#include <algorithm>
#include <memory>

#include "cudart/graph_child.h"

using lockstep::Dim3;
using namespace lockstep::runtime;

namespace {

cudaError_t invalid() { return process_runtime()->record(cudaErrorInvalidValue); }

cudaError_t instantiate(cudaGraphExec_t* pGraphExec, cudaGraph_t graph, unsigned long long flags) {
  const RuntimeHandle r = process_runtime();
  Graph* g = r->graph_table().graph(graph);
  // CUDA: a graph moved into a child-graph node runs only as part of its parent.
  if (pGraphExec == nullptr || g == nullptr || moved_child(graph)) return invalid();
  if ((flags & cudaGraphInstantiateFlagDeviceLaunch) != 0) {
    r->report_unsupported("cudaGraphInstantiate with cudaGraphInstantiateFlagDeviceLaunch");
    return cudaErrorNotSupported;
  }
  // CUDA: only one instantiation of a graph with memory nodes may exist at a time.
  if (has_memory_nodes(*g) && r->graph_table().instantiated(*g)) return invalid();
  // Upload and node priorities change nothing when every node runs at launch; auto-free acts
  // at launch (Runtime::launch_graph).
  GraphExec* exec = r->graph_table().instantiate(*g, flags);
  if (exec == nullptr) {
    r->print("cudaGraphInstantiate: the graph has a cycle");
    return invalid();
  }
  *pGraphExec = exec_handle(*exec);
  return cudaSuccess;
}

bool same_topology(const Graph& current, const Graph& updated, cudaGraphExecUpdateResult& why);

// Whether the node `now` may take the place of `was` (same type): memory nodes keep their
// addresses, so another allocation or free cannot take their place; a conditional node keeps
// its parameters (CUDA: changing them is not supported); the graphs a node holds must match
// as the whole graph must (CUDA's restrictions apply recursively).
bool same_node(const NodeOp& was, const NodeOp& now, cudaGraphExecUpdateResult& why) {
  why = cudaGraphExecUpdateErrorParametersChanged;
  if (const auto* a = std::get_if<MemAllocNodeOp>(&was)) {
    const auto& b = std::get<MemAllocNodeOp>(now);
    if (a->params.dptr != b.params.dptr || a->params.bytesize != b.params.bytesize) return false;
  }
  if (const auto* f = std::get_if<MemFreeNodeOp>(&was); f != nullptr && f->address != std::get<MemFreeNodeOp>(now).address)
    return false;
  if (const auto* c = std::get_if<ConditionalNodeOp>(&was)) {
    const auto& d = std::get<ConditionalNodeOp>(now);
    if (c->handle != d.handle || c->type != d.type || c->bodies.size() != d.bodies.size()) return false;
  }
  const std::vector<Graph*> inner_was = nested_graphs(was), inner_now = nested_graphs(now);
  for (size_t i = 0; i < inner_was.size(); ++i)
    if (!same_topology(*inner_was[i], *inner_now[i], why)) return false;
  why = cudaGraphExecUpdateSuccess;
  return true;
}

// Whether `updated` has the nodes (same types, same order) and edges of `current`, and each
// node may take its counterpart's place.
bool same_topology(const Graph& current, const Graph& updated, cudaGraphExecUpdateResult& why) {
  why = cudaGraphExecUpdateErrorTopologyChanged;
  if (current.size() != updated.size()) return false;
  auto sorted = [](std::vector<std::pair<size_t, size_t>> e) {
    std::sort(e.begin(), e.end());
    return e;
  };
  if (sorted(current.edges()) != sorted(updated.edges())) return false;
  why = cudaGraphExecUpdateErrorNodeTypeChanged;
  for (size_t i = 0; i < current.size(); ++i)
    if (current.node(i).op.index() != updated.node(i).op.index()) return false;
  for (size_t i = 0; i < current.size(); ++i)
    if (!same_node(current.node(i).op, updated.node(i).op, why)) return false;
  why = cudaGraphExecUpdateSuccess;
  return true;
}

}  // namespace

extern "C" cudaError_t cudaGraphInstantiate(cudaGraphExec_t* pGraphExec, cudaGraph_t graph, unsigned long long flags) {
  return guarded([&] { return instantiate(pGraphExec, graph, flags); });
}

extern "C" cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t* pGraphExec, cudaGraph_t graph,
                                                     unsigned long long flags) {
  return cudaGraphInstantiate(pGraphExec, graph, flags);
}

extern "C" cudaError_t cudaGraphInstantiateWithParams(cudaGraphExec_t* pGraphExec, cudaGraph_t graph,
                                                      cudaGraphInstantiateParams* instantiateParams) {
  if (instantiateParams == nullptr) return invalid();
  const cudaError_t e = cudaGraphInstantiate(pGraphExec, graph, instantiateParams->flags);
  instantiateParams->errNode_out = nullptr;
  instantiateParams->result_out = e == cudaSuccess ? cudaGraphInstantiateSuccess : cudaGraphInstantiateError;
  return e;
}

extern "C" cudaError_t cudaGraphInstantiateWithParams_ptsz(cudaGraphExec_t* pGraphExec, cudaGraph_t graph,
                                                           cudaGraphInstantiateParams* instantiateParams) {
  return cudaGraphInstantiateWithParams(pGraphExec, graph, instantiateParams);
}

extern "C" cudaError_t cudaGraphExecDestroy(cudaGraphExec_t graphExec) {
  return process_runtime()->graph_table().destroy_exec(graphExec) ? cudaSuccess : invalid();
}

extern "C" cudaError_t cudaGraphExecGetFlags(cudaGraphExec_t graphExec, unsigned long long* flags) {
  GraphExec* exec = process_runtime()->graph_table().exec(graphExec);
  if (exec == nullptr || flags == nullptr) return invalid();
  *flags = exec->flags & ~static_cast<unsigned long long>(cudaGraphInstantiateFlagUpload);
  return cudaSuccess;
}

// Launched into a capturing stream, the graph becomes a child-graph node of the capture.
extern "C" cudaError_t cudaGraphLaunch(cudaGraphExec_t graphExec, cudaStream_t stream) {
  const RuntimeHandle r = process_runtime();
  GraphExec* exec = r->graph_table().exec(graphExec);
  if (exec == nullptr) return invalid();
  if (!r->is_stream(stream)) return r->record(cudaErrorInvalidResourceHandle);
  return guarded([&] {
    if (r->capturing(stream))
      return r->capture(stream, ChildGraphNodeOp{NestedGraph(std::make_unique<Graph>(exec->graph)),
                                                 cudaGraphChildGraphOwnershipClone});
    return r->launch_graph(*exec);
  });
}

extern "C" cudaError_t cudaGraphLaunch_ptsz(cudaGraphExec_t graphExec, cudaStream_t stream) {
  return cudaGraphLaunch(graphExec, stream);
}

// Nothing to upload: the graph's nodes run from host memory at launch.
extern "C" cudaError_t cudaGraphUpload(cudaGraphExec_t graphExec, cudaStream_t stream) {
  if (process_runtime()->graph_table().exec(graphExec) == nullptr) return invalid();
  if (!process_runtime()->is_stream(stream)) return process_runtime()->record(cudaErrorInvalidResourceHandle);
  return cudaSuccess;
}

extern "C" cudaError_t cudaGraphUpload_ptsz(cudaGraphExec_t graphExec, cudaStream_t stream) {
  return cudaGraphUpload(graphExec, stream);
}

// `node` is a node of the graph instantiated; only the executable graph's copy changes.
extern "C" cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                                        const cudaKernelNodeParams* pNodeParams) {
  KernelNodeOp* k = exec_node_op<KernelNodeOp>(hGraphExec, node);
  if (k == nullptr || pNodeParams == nullptr) return invalid();
  return guarded([&] {
    const cudaKernelNodeParams& p = *pNodeParams;
    return process_runtime()->kernel_node(*k, p.func, Dim3{p.gridDim.x, p.gridDim.y, p.gridDim.z},
                                         Dim3{p.blockDim.x, p.blockDim.y, p.blockDim.z}, p.sharedMemBytes,
                                         p.kernelParams, p.extra);
  });
}

// The executable graph's copy of the child graph takes `childGraph`'s parameters; CUDA asks
// for the same topology and node order, as cudaGraphExecUpdate does for a whole graph. The
// copy is replaced by a copy of `childGraph`.
extern "C" cudaError_t cudaGraphExecChildGraphNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                                            cudaGraph_t childGraph) {
  ChildGraphNodeOp* c = exec_node_op<ChildGraphNodeOp>(hGraphExec, node);
  const Graph* child = process_runtime()->graph_table().graph(childGraph);
  if (c == nullptr || child == nullptr) return invalid();
  cudaGraphExecUpdateResult why = cudaGraphExecUpdateSuccess;
  if (!same_topology(*c->graph, *child, why)) return invalid();
  return guarded([&] {
    c->graph = NestedGraph(std::make_unique<Graph>(*child));
    return cudaSuccess;
  });
}

// Takes every node's parameters from `hGraph` when it has the executable graph's topology.
extern "C" cudaError_t cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph,
                                           cudaGraphExecUpdateResultInfo* resultInfo) {
  const RuntimeHandle r = process_runtime();
  GraphExec* exec = r->graph_table().exec(hGraphExec);
  Graph* updated = r->graph_table().graph(hGraph);
  // CUDA: a graph moved into a child-graph node cannot supply an update.
  if (exec == nullptr || updated == nullptr || moved_child(hGraph)) return invalid();
  cudaGraphExecUpdateResult why = cudaGraphExecUpdateSuccess;
  const bool ok = same_topology(exec->graph, *updated, why);
  if (resultInfo != nullptr) *resultInfo = cudaGraphExecUpdateResultInfo{why, nullptr, nullptr};
  if (!ok) return r->record(cudaErrorGraphExecUpdateFailure);
  return guarded([&] {
    for (size_t i = 0; i < updated->size(); ++i) exec->graph.node(i).op = updated->node(i).op;
    return cudaSuccess;
  });
}
