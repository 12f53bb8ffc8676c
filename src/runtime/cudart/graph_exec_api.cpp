// Executable graphs: instantiation (a snapshot of the graph and its topological order),
// launch (the nodes run now, in that order), parameter updates and cudaGraphExecUpdate.
#include <memory>
#include <optional>
#include <variant>

#include "cudart/graph_child.h"
#include "runtime/graph_update.h"

using lockstep::runtime::per_thread_stream;

using lockstep::Dim3;
using namespace lockstep::runtime;

namespace {

cudaError_t invalid() { return process_runtime()->record(cudaErrorInvalidValue); }

cudaError_t instantiate(cudaGraphExec_t* pGraphExec, cudaGraph_t graph, unsigned long long flags) {
  const RuntimeHandle r = process_runtime();
  // While a global or thread-local capture runs, instantiating any graph is a potentially unsafe
  // call: it fails and invalidates the capture. In relaxed mode a graph a stream is capturing
  // into instantiates what it holds so far (the documentation says such a graph "will not be
  // instantiable until the user calls cudaStreamEndCapture"; CUDA 13 on an H200 instantiates it:
  // bench/hw/graph_capture_check.cu, bench/hw/results/graph-capture-h200-2026-11-26.txt).
  if (cudaError_t e = r->check_capture_allows("cudaGraphInstantiate"); e != cudaSuccess) return e;
  Graph* g = r->graph_table().graph(graph);
  // CUDA: a graph moved into a child-graph node runs only as part of its parent.
  if (pGraphExec == nullptr || g == nullptr || moved_child(graph)) return invalid();
  // A conditional node's body runs only as part of its node (CUDA 13 on an H200:
  // cudaErrorNotSupported, as above).
  if (const GraphNode* holder = r->graph_table().holder(graph);
      holder != nullptr && std::holds_alternative<ConditionalNodeOp>(holder->op))
    return r->record(cudaErrorNotSupported);
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

cudaGraphNode_t node_or_null(Graph& graph, std::optional<size_t> index) {
  return index ? node_handle(graph.node(*index)) : nullptr;
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
  return cudaGraphLaunch(graphExec, per_thread_stream(stream));
}

// Nothing to upload: the graph's nodes run from host memory at launch.
extern "C" cudaError_t cudaGraphUpload(cudaGraphExec_t graphExec, cudaStream_t stream) {
  if (process_runtime()->graph_table().exec(graphExec) == nullptr) return invalid();
  if (!process_runtime()->is_stream(stream)) return process_runtime()->record(cudaErrorInvalidResourceHandle);
  return cudaSuccess;
}

extern "C" cudaError_t cudaGraphUpload_ptsz(cudaGraphExec_t graphExec, cudaStream_t stream) {
  return cudaGraphUpload(graphExec, per_thread_stream(stream));
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
// for the same topology and node insertion order, paired as cudaGraphExecUpdate pairs a whole
// graph. The copy is replaced by a copy of `childGraph`.
extern "C" cudaError_t cudaGraphExecChildGraphNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                                            cudaGraph_t childGraph) {
  ChildGraphNodeOp* c = exec_node_op<ChildGraphNodeOp>(hGraphExec, node);
  const Graph* child = process_runtime()->graph_table().graph(childGraph);
  if (c == nullptr || child == nullptr) return invalid();
  if (!plan_graph_update(*c->graph, *child).ok()) return invalid();
  return guarded([&] {
    c->graph = NestedGraph(std::make_unique<Graph>(*child));
    return cudaSuccess;
  });
}

// Takes every node's parameters from `hGraph` when its nodes pair with the executable graph's
// (graph_update.h). resultInfo names nodes of `hGraph`: errorNode where the pairing or a node
// failed, errorFromNode the dependency that did not match. An unknown handle is
// cudaGraphExecUpdateError ("passed an invalid value").
extern "C" cudaError_t cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph,
                                           cudaGraphExecUpdateResultInfo* resultInfo) {
  const RuntimeHandle r = process_runtime();
  GraphExec* exec = r->graph_table().exec(hGraphExec);
  Graph* updated = r->graph_table().graph(hGraph);
  // CUDA: a graph moved into a child-graph node cannot supply an update.
  if (exec == nullptr || updated == nullptr || moved_child(hGraph)) {
    if (resultInfo != nullptr) *resultInfo = cudaGraphExecUpdateResultInfo{cudaGraphExecUpdateError, nullptr, nullptr};
    return invalid();
  }
  const GraphUpdatePlan plan = plan_graph_update(exec->graph, *updated);
  if (resultInfo != nullptr)
    *resultInfo = cudaGraphExecUpdateResultInfo{plan.result, node_or_null(*updated, plan.error_node),
                                                node_or_null(*updated, plan.error_from)};
  if (!plan.ok()) return r->record(cudaErrorGraphExecUpdateFailure);
  return guarded([&] {
    for (size_t i = 0; i < updated->size(); ++i) exec->graph.node(plan.pairs[i]).op = updated->node(i).op;
    return cudaSuccess;
  });
}
