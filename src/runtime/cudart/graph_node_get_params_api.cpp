// cudaGraphNodeGetParams: a node's parameters in the generic cudaGraphNodeParams form, the
// union member of the node's type filled through that type's own getter (graph_query_api.cpp,
// graph_params_api.cpp, graph_memory_api.cpp), so both ways of asking answer alike.
//
// CUDA 13.0's header does not declare it (it arrived with the driver's cuGraphNodeGetParams in
// a later toolkit); lockstep exports it with that toolkit's prototype so programs built against
// a newer header run too.
#include <cstring>

#include "cudart/graph_handles.h"

using namespace lockstep::runtime;

extern "C" cudaError_t cudaGraphNodeGetParams(cudaGraphNode_t node, cudaGraphNodeParams* nodeParams);

namespace {

cudaError_t invalid() { return process_runtime()->record(cudaErrorInvalidValue); }

cudaError_t get_kernel(cudaGraphNode_t node, cudaKernelNodeParamsV2& out) {
  cudaKernelNodeParams p{};
  const cudaError_t e = cudaGraphKernelNodeGetParams(node, &p);
  if (e == cudaSuccess) {
    out.func = p.func;
    out.gridDim = p.gridDim;
    out.blockDim = p.blockDim;
    out.sharedMemBytes = p.sharedMemBytes;
    out.kernelParams = p.kernelParams;
    out.extra = p.extra;
  }
  return e;
}

cudaError_t get_memset(cudaGraphNode_t node, cudaMemsetParamsV2& out) {
  cudaMemsetParams p{};
  const cudaError_t e = cudaGraphMemsetNodeGetParams(node, &p);
  if (e == cudaSuccess) out = cudaMemsetParamsV2{p.dst, p.pitch, p.value, p.elementSize, p.width, p.height};
  return e;
}

cudaError_t get_host(cudaGraphNode_t node, cudaHostNodeParamsV2& out) {
  cudaHostNodeParams p{};
  const cudaError_t e = cudaGraphHostNodeGetParams(node, &p);
  if (e == cudaSuccess) out = cudaHostNodeParamsV2{p.fn, p.userData};
  return e;
}

cudaError_t get_alloc(cudaGraphNode_t node, cudaMemAllocNodeParamsV2& out) {
  cudaMemAllocNodeParams p{};
  const cudaError_t e = cudaGraphMemAllocNodeGetParams(node, &p);
  if (e == cudaSuccess) out = cudaMemAllocNodeParamsV2{p.poolProps, p.accessDescs, p.accessDescCount, p.bytesize, p.dptr};
  return e;
}

// No per-type getter exists for conditional nodes: the body array is the one
// cudaGraphAddNode handed out (phGraph_out), owned by the node.
cudaError_t get_conditional(const GraphNode& node, cudaConditionalNodeParams& out) {
  const auto& c = std::get<ConditionalNodeOp>(node.op);
  out.handle = c.handle;
  out.type = c.type;
  out.size = static_cast<unsigned>(c.body_handles.size());
  out.phGraph_out = const_cast<cudaGraph_t*>(c.body_handles.data());
  return cudaSuccess;
}

}  // namespace

extern "C" cudaError_t cudaGraphNodeGetParams(cudaGraphNode_t node, cudaGraphNodeParams* nodeParams) {
  const RuntimeHandle r = process_runtime();  // held so the node cannot change between the steps
  const GraphNode* n = r->graph_table().node(node);
  if (n == nullptr || nodeParams == nullptr) return invalid();
  // Unused and reserved bytes come back zero, as the structure's contract asks of the program.
  std::memset(static_cast<void*>(nodeParams), 0, sizeof *nodeParams);
  cudaGraphNodeParams& p = *nodeParams;
  p.type = node_type(n->op);
  switch (p.type) {
    case cudaGraphNodeTypeKernel: return get_kernel(node, p.kernel);
    case cudaGraphNodeTypeMemcpy: return cudaGraphMemcpyNodeGetParams(node, &p.memcpy.copyParams);
    case cudaGraphNodeTypeMemset: return get_memset(node, p.memset);
    case cudaGraphNodeTypeHost: return get_host(node, p.host);
    case cudaGraphNodeTypeGraph:
      p.graph.ownership = std::get<ChildGraphNodeOp>(n->op).ownership;
      return cudaGraphChildGraphNodeGetGraph(node, &p.graph.graph);
    case cudaGraphNodeTypeEmpty: return cudaSuccess;
    case cudaGraphNodeTypeWaitEvent: return cudaGraphEventWaitNodeGetEvent(node, &p.eventWait.event);
    case cudaGraphNodeTypeEventRecord: return cudaGraphEventRecordNodeGetEvent(node, &p.eventRecord.event);
    case cudaGraphNodeTypeConditional: return get_conditional(*n, p.conditional);
    case cudaGraphNodeTypeMemAlloc: return get_alloc(node, p.alloc);
    case cudaGraphNodeTypeMemFree: return cudaGraphMemFreeNodeGetParams(node, &p.free.dptr);
    default: return invalid();  // lockstep makes no other kind of node
  }
}
