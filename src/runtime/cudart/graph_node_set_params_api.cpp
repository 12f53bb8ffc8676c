// cudaGraphNodeSetParams and cudaGraphExecNodeSetParams: changing a node through the generic
// cudaGraphNodeParams. Each type goes to its own setter (graph_query_api.cpp,
// graph_params_api.cpp, graph_exec_api.cpp), so the generic and typed forms check and change
// alike. The type named must be the node's own; a node's type never changes.
//
// A conditional node keeps the parameters it was made with, in a graph as in an executable
// graph: its bodies were made for its type and size, and CUDA documents changing a conditional
// node's parameters as unsupported (cudaGraphExecUpdate). Naming the parameters it has is no
// change, and succeeds.
#include <utility>

#include "cudart/graph_child.h"

using namespace lockstep::runtime;

namespace {

cudaError_t invalid() { return process_runtime()->record(cudaErrorInvalidValue); }

// CUDA documents these as refused rather than invalid: memory-allocation and memory-free
// nodes keep the parameters they were made with (their address is fixed then).
cudaError_t not_supported() { return process_runtime()->record(cudaErrorNotSupported); }

// lockstep's gap, not CUDA's rule: says so once, like any API not implemented yet.
cudaError_t gap(const char* what) {
  process_runtime()->report_unsupported(what);
  return cudaErrorNotSupported;
}

cudaKernelNodeParams kernel_v1(const cudaKernelNodeParamsV2& k) {
  return cudaKernelNodeParams{k.func, k.gridDim, k.blockDim, k.sharedMemBytes, k.kernelParams, k.extra};
}

cudaMemsetParams memset_v1(const cudaMemsetParamsV2& m) {
  return cudaMemsetParams{m.dst, m.pitch, m.value, m.elementSize, m.width, m.height};
}

cudaHostNodeParams host_v1(const cudaHostNodeParamsV2& h) { return cudaHostNodeParams{h.fn, h.userData}; }

// CUDA has no per-type setter for a child-graph node of a graph: the node takes a copy of the
// new child, checked as cudaGraphAddChildGraphNode checks one. Its old graph goes, and with it
// the handle cudaGraphChildGraphNodeGetGraph gave out.
cudaError_t set_child(cudaGraphNode_t node, const cudaChildGraphNodeParams& params) {
  if (params.ownership == cudaGraphChildGraphOwnershipMove) return gap("cudaGraphNodeSetParams moving a child graph");
  const RuntimeHandle r = process_runtime();
  Graph* owner = nullptr;
  GraphNode* n = r->graph_table().node(node, &owner);
  ChildGraphNodeOp op;
  if (params.ownership != cudaGraphChildGraphOwnershipClone ||
      child_graph_op(params.graph, graph_handle(*owner), op) != cudaSuccess)
    return invalid();
  r->graph_table().replace_op(*n, std::move(op));
  return cudaSuccess;
}

// What may be asked of a conditional node: the handle, type and size it has.
cudaError_t set_conditional(const ConditionalNodeOp& op, const cudaConditionalNodeParams& p) {
  const bool same = p.handle == op.handle && p.type == op.type && p.size == op.bodies.size();
  return same ? cudaSuccess : not_supported();
}

}  // namespace

extern "C" cudaError_t cudaGraphNodeSetParams(cudaGraphNode_t node, cudaGraphNodeParams* nodeParams) {
  const RuntimeHandle r = process_runtime();  // held so the node cannot change between the steps
  const GraphNode* n = r->graph_table().node(node);
  if (n == nullptr || nodeParams == nullptr || nodeParams->type != node_type(n->op)) return invalid();
  const cudaGraphNodeParams& p = *nodeParams;
  switch (p.type) {
    case cudaGraphNodeTypeKernel: {
      const cudaKernelNodeParams k = kernel_v1(p.kernel);
      return cudaGraphKernelNodeSetParams(node, &k);
    }
    case cudaGraphNodeTypeMemcpy: return cudaGraphMemcpyNodeSetParams(node, &p.memcpy.copyParams);
    case cudaGraphNodeTypeMemset: {
      const cudaMemsetParams m = memset_v1(p.memset);
      return cudaGraphMemsetNodeSetParams(node, &m);
    }
    case cudaGraphNodeTypeHost: {
      const cudaHostNodeParams h = host_v1(p.host);
      return cudaGraphHostNodeSetParams(node, &h);
    }
    case cudaGraphNodeTypeEmpty: return cudaSuccess;  // nothing to change
    case cudaGraphNodeTypeWaitEvent: return cudaGraphEventWaitNodeSetEvent(node, p.eventWait.event);
    case cudaGraphNodeTypeEventRecord: return cudaGraphEventRecordNodeSetEvent(node, p.eventRecord.event);
    case cudaGraphNodeTypeMemAlloc:
    case cudaGraphNodeTypeMemFree: return not_supported();
    case cudaGraphNodeTypeGraph: return guarded([&] { return set_child(node, p.graph); });
    case cudaGraphNodeTypeConditional: return set_conditional(std::get<ConditionalNodeOp>(n->op), p.conditional);
    default: return invalid();
  }
}

// Only the executable graph's copy of the node changes; `node` itself keeps its parameters.
extern "C" cudaError_t cudaGraphExecNodeSetParams(cudaGraphExec_t graphExec, cudaGraphNode_t node,
                                                  cudaGraphNodeParams* nodeParams) {
  const RuntimeHandle r = process_runtime();
  const GraphNode* n = exec_node(graphExec, node);
  if (n == nullptr || nodeParams == nullptr || nodeParams->type != node_type(n->op)) return invalid();
  const cudaGraphNodeParams& p = *nodeParams;
  switch (p.type) {
    case cudaGraphNodeTypeKernel: {
      const cudaKernelNodeParams k = kernel_v1(p.kernel);
      return cudaGraphExecKernelNodeSetParams(graphExec, node, &k);
    }
    case cudaGraphNodeTypeMemcpy: return cudaGraphExecMemcpyNodeSetParams(graphExec, node, &p.memcpy.copyParams);
    case cudaGraphNodeTypeMemset: {
      const cudaMemsetParams m = memset_v1(p.memset);
      return cudaGraphExecMemsetNodeSetParams(graphExec, node, &m);
    }
    case cudaGraphNodeTypeHost: {
      const cudaHostNodeParams h = host_v1(p.host);
      return cudaGraphExecHostNodeSetParams(graphExec, node, &h);
    }
    case cudaGraphNodeTypeGraph: return cudaGraphExecChildGraphNodeSetParams(graphExec, node, p.graph.graph);
    case cudaGraphNodeTypeEmpty: return cudaSuccess;
    case cudaGraphNodeTypeWaitEvent: return cudaGraphExecEventWaitNodeSetEvent(graphExec, node, p.eventWait.event);
    case cudaGraphNodeTypeEventRecord:
      return cudaGraphExecEventRecordNodeSetEvent(graphExec, node, p.eventRecord.event);
    case cudaGraphNodeTypeMemAlloc:
    case cudaGraphNodeTypeMemFree: return not_supported();
    case cudaGraphNodeTypeConditional: return set_conditional(std::get<ConditionalNodeOp>(n->op), p.conditional);
    default: return invalid();
  }
}
