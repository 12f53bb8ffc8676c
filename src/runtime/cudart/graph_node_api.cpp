// The generic node API (cudaGraphAddNode with cudaGraphNodeParams) and conditional nodes (if,
// while, switch; cudaGraphConditionalHandleCreate, with cudaGraphSetConditional in device code).
// Each typed node goes through its own entry point (graph_api.cpp), so both ways of adding a
// node validate alike.
#include <string>
#include <utility>

#include "cudart/graph_child.h"

using namespace lockstep::runtime;

namespace {

cudaError_t invalid() { return process_runtime()->record(cudaErrorInvalidValue); }

cudaError_t unsupported(const std::string& what) {
  process_runtime()->report_unsupported(what.c_str());
  return cudaErrorNotSupported;
}

// The body count each kind of conditional allows: if 1 or 2 (then, else), while 1, switch any.
bool valid_body_count(cudaGraphConditionalNodeType type, unsigned size) {
  switch (type) {
    case cudaGraphCondTypeIf: return size == 1 || size == 2;
    case cudaGraphCondTypeWhile: return size == 1;
    case cudaGraphCondTypeSwitch: return size >= 1;
  }
  return false;
}

// The node's body graphs are the node's own, known to the table by handle; the program fills
// them through the handles in the node's own array, which phGraph_out is set to (as CUDA does).
cudaError_t add_conditional_node(cudaGraphNode_t* pGraphNode, cudaGraph_t graph, const cudaGraphNode_t* pDependencies,
                                 size_t numDependencies, cudaConditionalNodeParams& p) {
  const RuntimeHandle r = process_runtime();
  if (pGraphNode == nullptr || r->graph_table().graph(graph) == nullptr || !r->is_conditional(p.handle) ||
      !valid_body_count(p.type, p.size))
    return invalid();
  if (const cudaError_t e = add_graph_node(pGraphNode, graph, pDependencies, numDependencies,
                                           ConditionalNodeOp(p.handle, p.type, p.size));
      e != cudaSuccess)
    return e;
  p.phGraph_out = std::get<ConditionalNodeOp>(r->graph_table().node(*pGraphNode)->op).body_handles.data();
  return cudaSuccess;
}

}  // namespace

extern "C" cudaError_t cudaGraphConditionalHandleCreate(cudaGraphConditionalHandle* pHandle_out, cudaGraph_t graph,
                                                        unsigned int defaultLaunchValue, unsigned int flags) {
  const RuntimeHandle r = process_runtime();
  Graph* g = r->graph_table().graph(graph);
  if (pHandle_out == nullptr || g == nullptr) return invalid();
  return guarded([&] { return r->create_conditional(*pHandle_out, *g, defaultLaunchValue, flags); });
}

extern "C" cudaError_t cudaGraphAddNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                        const cudaGraphNode_t* pDependencies, const cudaGraphEdgeData* dependencyData,
                                        size_t numDependencies, cudaGraphNodeParams* nodeParams) {
  if (nodeParams == nullptr) return invalid();
  for (size_t i = 0; dependencyData != nullptr && i < numDependencies; ++i) {
    const cudaGraphEdgeData& d = dependencyData[i];
    if (d.from_port != 0 || d.to_port != 0 || d.type != cudaGraphDependencyTypeDefault)
      return unsupported("cudaGraphAddNode with edge data");
  }
  cudaGraphNodeParams& n = *nodeParams;
  switch (n.type) {
    case cudaGraphNodeTypeKernel: {
      const cudaKernelNodeParams p{n.kernel.func,          n.kernel.gridDim,      n.kernel.blockDim,
                                   n.kernel.sharedMemBytes, n.kernel.kernelParams, n.kernel.extra};
      return cudaGraphAddKernelNode(pGraphNode, graph, pDependencies, numDependencies, &p);
    }
    case cudaGraphNodeTypeMemcpy:
      return cudaGraphAddMemcpyNode(pGraphNode, graph, pDependencies, numDependencies, &n.memcpy.copyParams);
    case cudaGraphNodeTypeMemset: {
      const cudaMemsetParams p{n.memset.dst,         n.memset.pitch, n.memset.value,
                               n.memset.elementSize, n.memset.width, n.memset.height};
      return cudaGraphAddMemsetNode(pGraphNode, graph, pDependencies, numDependencies, &p);
    }
    case cudaGraphNodeTypeHost: {
      const cudaHostNodeParams p{n.host.fn, n.host.userData};
      return cudaGraphAddHostNode(pGraphNode, graph, pDependencies, numDependencies, &p);
    }
    case cudaGraphNodeTypeGraph:
      return add_child_graph_node(pGraphNode, graph, pDependencies, numDependencies, n.graph.graph,
                                  n.graph.ownership);
    case cudaGraphNodeTypeEmpty:
      return cudaGraphAddEmptyNode(pGraphNode, graph, pDependencies, numDependencies);
    case cudaGraphNodeTypeWaitEvent:
      return cudaGraphAddEventWaitNode(pGraphNode, graph, pDependencies, numDependencies, n.eventWait.event);
    case cudaGraphNodeTypeEventRecord:
      return cudaGraphAddEventRecordNode(pGraphNode, graph, pDependencies, numDependencies, n.eventRecord.event);
    case cudaGraphNodeTypeConditional:
      return guarded(
          [&] { return add_conditional_node(pGraphNode, graph, pDependencies, numDependencies, n.conditional); });
    case cudaGraphNodeTypeMemAlloc: {
      // The V2 parameters have the same fields; the address comes back in them.
      cudaMemAllocNodeParams p{n.alloc.poolProps, n.alloc.accessDescs, n.alloc.accessDescCount, n.alloc.bytesize,
                               nullptr};
      const cudaError_t e = cudaGraphAddMemAllocNode(pGraphNode, graph, pDependencies, numDependencies, &p);
      if (e == cudaSuccess) n.alloc.dptr = p.dptr;
      return e;
    }
    case cudaGraphNodeTypeMemFree:
      return cudaGraphAddMemFreeNode(pGraphNode, graph, pDependencies, numDependencies, n.free.dptr);
    case cudaGraphNodeTypeExtSemaphoreSignal:
    case cudaGraphNodeTypeExtSemaphoreWait:
      return unsupported("cudaGraphAddNode of an external-semaphore node");
    default:
      return invalid();
  }
}
