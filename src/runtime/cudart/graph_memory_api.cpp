// Graph memory nodes (runtime/graph_memory.h): memory-allocation and memory-free nodes, their
// parameters, and the device's graph memory figures. Capturing cudaMallocAsync and
// cudaFreeAsync makes the same nodes (host_memory_api.cpp, mem_pool_api.cpp).
#include <cstring>
#include <utility>

#include "cudart/graph_handles.h"

using namespace lockstep::runtime;

namespace {

cudaError_t invalid() { return process_runtime()->record(cudaErrorInvalidValue); }

}  // namespace

extern "C" cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                                const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                                cudaMemAllocNodeParams* nodeParams) {
  const RuntimeHandle r = process_runtime();
  if (pGraphNode == nullptr || nodeParams == nullptr || r->graph_table().graph(graph) == nullptr) return invalid();
  return guarded([&] {
    MemAllocNodeOp op;
    cudaMemAllocNodeParams params = *nodeParams;
    if (const cudaError_t e = r->mem_alloc_node(op, params); e != cudaSuccess) return e;
    // The address reserved stays reserved if the node cannot be added: it is simply never used.
    if (const cudaError_t e = add_graph_node(pGraphNode, graph, pDependencies, numDependencies, std::move(op));
        e != cudaSuccess)
      return e;
    nodeParams->dptr = params.dptr;
    return cudaSuccess;
  });
}

extern "C" cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                               const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                               void* dptr) {
  const RuntimeHandle r = process_runtime();
  Graph* g = r->graph_table().graph(graph);
  if (pGraphNode == nullptr || g == nullptr) return invalid();
  return guarded([&] {
    MemFreeNodeOp op;
    if (const cudaError_t e = r->mem_free_node(op, *g, dptr); e != cudaSuccess) return e;
    return add_graph_node(pGraphNode, graph, pDependencies, numDependencies, op);
  });
}

// The access descriptors point into the node, valid while it lives (as CUDA's do).
extern "C" cudaError_t cudaGraphMemAllocNodeGetParams(cudaGraphNode_t node, cudaMemAllocNodeParams* params_out) {
  MemAllocNodeOp* op = node_op<MemAllocNodeOp>(node);
  if (op == nullptr || params_out == nullptr) return invalid();
  *params_out = op->params;
  params_out->accessDescs = op->access.empty() ? nullptr : op->access.data();
  params_out->accessDescCount = op->access.size();
  return cudaSuccess;
}

extern "C" cudaError_t cudaGraphMemFreeNodeGetParams(cudaGraphNode_t node, void* dptr_out) {
  const MemFreeNodeOp* op = node_op<MemFreeNodeOp>(node);
  if (op == nullptr || dptr_out == nullptr) return invalid();
  std::memcpy(dptr_out, &op->address, sizeof op->address);
  return cudaSuccess;
}

// Nothing to trim: lockstep keeps no graph memory back beyond what is live (graph_memory.h).
extern "C" cudaError_t cudaDeviceGraphMemTrim(int device) {
  return device == 0 ? cudaSuccess : process_runtime()->record(cudaErrorInvalidDevice);
}

extern "C" cudaError_t cudaDeviceGetGraphMemAttribute(int device, cudaGraphMemAttributeType attr, void* value) {
  const RuntimeHandle r = process_runtime();
  if (device != 0) return r->record(cudaErrorInvalidDevice);
  return r->record(r->graph_memory().get_attribute(attr, value));
}

extern "C" cudaError_t cudaDeviceSetGraphMemAttribute(int device, cudaGraphMemAttributeType attr, void* value) {
  const RuntimeHandle r = process_runtime();
  if (device != 0) return r->record(cudaErrorInvalidDevice);
  return r->record(r->graph_memory().set_attribute(attr, value));
}
