// Memcpy nodes to and from a __device__ or __constant__ variable: the symbol's address and the
// offset are resolved when the node is made or changed (Runtime::symbol_range), so the node is an
// ordinary 1D memcpy node from then on (as a captured cudaMemcpyToSymbolAsync is, memory_api.cpp).
#include "cudart/graph_handles.h"

using namespace lockstep::runtime;

namespace {

// The copy into the symbol's bytes [offset, offset + count), or out of them.
cudaError_t to_symbol(const void* symbol, const void* src, size_t count, size_t offset, cudaMemcpyKind kind,
                      MemcpyNodeOp& op) {
  uint64_t address = 0;
  const cudaError_t e = process_runtime()->symbol_range(symbol, offset, count, address);
  if (e == cudaSuccess) op = memcpy_1d_op(reinterpret_cast<void*>(address), src, count, kind);
  return e;
}

cudaError_t from_symbol(void* dst, const void* symbol, size_t count, size_t offset, cudaMemcpyKind kind,
                        MemcpyNodeOp& op) {
  uint64_t address = 0;
  const cudaError_t e = process_runtime()->symbol_range(symbol, offset, count, address);
  if (e == cudaSuccess) op = memcpy_1d_op(dst, reinterpret_cast<const void*>(address), count, kind);
  return e;
}

// A memcpy node's operation, given the node's handle or the executable graph's copy of it.
cudaError_t set_node(MemcpyNodeOp* node, const MemcpyNodeOp& op) {
  if (node == nullptr) return process_runtime()->record(cudaErrorInvalidValue);
  *node = op;
  return cudaSuccess;
}

}  // namespace

extern "C" cudaError_t cudaGraphAddMemcpyNodeToSymbol(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                                      const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                                      const void* symbol, const void* src, size_t count,
                                                      size_t offset, cudaMemcpyKind kind) {
  return guarded([&] {
    MemcpyNodeOp op;
    if (cudaError_t e = to_symbol(symbol, src, count, offset, kind, op); e != cudaSuccess) return e;
    return add_graph_node(pGraphNode, graph, pDependencies, numDependencies, op);
  });
}

extern "C" cudaError_t cudaGraphAddMemcpyNodeFromSymbol(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                                        const cudaGraphNode_t* pDependencies,
                                                        size_t numDependencies, void* dst, const void* symbol,
                                                        size_t count, size_t offset, cudaMemcpyKind kind) {
  return guarded([&] {
    MemcpyNodeOp op;
    if (cudaError_t e = from_symbol(dst, symbol, count, offset, kind, op); e != cudaSuccess) return e;
    return add_graph_node(pGraphNode, graph, pDependencies, numDependencies, op);
  });
}

extern "C" cudaError_t cudaGraphMemcpyNodeSetParamsToSymbol(cudaGraphNode_t node, const void* symbol,
                                                            const void* src, size_t count, size_t offset,
                                                            cudaMemcpyKind kind) {
  return guarded([&] {
    MemcpyNodeOp op;
    if (cudaError_t e = to_symbol(symbol, src, count, offset, kind, op); e != cudaSuccess) return e;
    return set_node(node_op<MemcpyNodeOp>(node), op);
  });
}

extern "C" cudaError_t cudaGraphMemcpyNodeSetParamsFromSymbol(cudaGraphNode_t node, void* dst, const void* symbol,
                                                              size_t count, size_t offset, cudaMemcpyKind kind) {
  return guarded([&] {
    MemcpyNodeOp op;
    if (cudaError_t e = from_symbol(dst, symbol, count, offset, kind, op); e != cudaSuccess) return e;
    return set_node(node_op<MemcpyNodeOp>(node), op);
  });
}

extern "C" cudaError_t cudaGraphExecMemcpyNodeSetParamsToSymbol(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                                                const void* symbol, const void* src, size_t count,
                                                                size_t offset, cudaMemcpyKind kind) {
  return guarded([&] {
    MemcpyNodeOp op;
    if (cudaError_t e = to_symbol(symbol, src, count, offset, kind, op); e != cudaSuccess) return e;
    return set_node(exec_node_op<MemcpyNodeOp>(hGraphExec, node), op);
  });
}

extern "C" cudaError_t cudaGraphExecMemcpyNodeSetParamsFromSymbol(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                                                  void* dst, const void* symbol, size_t count,
                                                                  size_t offset, cudaMemcpyKind kind) {
  return guarded([&] {
    MemcpyNodeOp op;
    if (cudaError_t e = from_symbol(dst, symbol, count, offset, kind, op); e != cudaSuccess) return e;
    return set_node(exec_node_op<MemcpyNodeOp>(hGraphExec, node), op);
  });
}
