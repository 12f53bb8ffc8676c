// Memcpy nodes to and from a __device__ or __constant__ variable: the symbol's address and the
// offset are resolved when the node is made or changed, so the node is an ordinary 1D memcpy
// node from then on (as a captured cudaMemcpyToSymbolAsync is, memory_api.cpp).
#include "cudart/graph_handles.h"

using namespace lockstep::runtime;

namespace {

// The bytes [offset, offset + count) of `symbol`; nullptr (the error recorded) when the symbol is
// unknown or too small.
char* symbol_bytes(const void* symbol, size_t count, size_t offset, cudaError_t& error) {
  uint64_t address = 0, size = 0;
  error = process_runtime()->symbol(symbol, address, size);
  if (error != cudaSuccess) return nullptr;
  if (offset + count > size) {
    error = process_runtime()->record(cudaErrorInvalidValue);
    return nullptr;
  }
  return reinterpret_cast<char*>(address + offset);
}

// The copy into the symbol, or from it; nullopt (the error recorded) when its bytes are not there.
std::optional<MemcpyNodeOp> to_symbol(const void* symbol, const void* src, size_t count, size_t offset,
                                      cudaMemcpyKind kind, cudaError_t& error) {
  char* dst = symbol_bytes(symbol, count, offset, error);
  if (dst == nullptr) return std::nullopt;
  return memcpy_1d_op(dst, src, count, kind);
}

std::optional<MemcpyNodeOp> from_symbol(void* dst, const void* symbol, size_t count, size_t offset,
                                        cudaMemcpyKind kind, cudaError_t& error) {
  const char* src = symbol_bytes(symbol, count, offset, error);
  if (src == nullptr) return std::nullopt;
  return memcpy_1d_op(dst, src, count, kind);
}

cudaError_t set_node(MemcpyNodeOp* node, std::optional<MemcpyNodeOp> op, cudaError_t error) {
  if (!op) return error;
  if (node == nullptr) return process_runtime()->record(cudaErrorInvalidValue);
  *node = *op;
  return cudaSuccess;
}

MemcpyNodeOp* graph_memcpy(cudaGraphNode_t handle) {
  GraphNode* node = process_runtime()->graph_table().node(handle);
  return node == nullptr ? nullptr : std::get_if<MemcpyNodeOp>(&node->op);
}

}  // namespace

extern "C" cudaError_t cudaGraphAddMemcpyNodeToSymbol(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                                      const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                                      const void* symbol, const void* src, size_t count,
                                                      size_t offset, cudaMemcpyKind kind) {
  return guarded([&] {
    cudaError_t error = cudaSuccess;
    std::optional<MemcpyNodeOp> op = to_symbol(symbol, src, count, offset, kind, error);
    return op ? add_graph_node(pGraphNode, graph, pDependencies, numDependencies, *op) : error;
  });
}

extern "C" cudaError_t cudaGraphAddMemcpyNodeFromSymbol(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                                        const cudaGraphNode_t* pDependencies,
                                                        size_t numDependencies, void* dst, const void* symbol,
                                                        size_t count, size_t offset, cudaMemcpyKind kind) {
  return guarded([&] {
    cudaError_t error = cudaSuccess;
    std::optional<MemcpyNodeOp> op = from_symbol(dst, symbol, count, offset, kind, error);
    return op ? add_graph_node(pGraphNode, graph, pDependencies, numDependencies, *op) : error;
  });
}

extern "C" cudaError_t cudaGraphMemcpyNodeSetParamsToSymbol(cudaGraphNode_t node, const void* symbol,
                                                            const void* src, size_t count, size_t offset,
                                                            cudaMemcpyKind kind) {
  return guarded([&] {
    cudaError_t error = cudaSuccess;
    std::optional<MemcpyNodeOp> op = to_symbol(symbol, src, count, offset, kind, error);
    return set_node(graph_memcpy(node), std::move(op), error);
  });
}

extern "C" cudaError_t cudaGraphMemcpyNodeSetParamsFromSymbol(cudaGraphNode_t node, void* dst, const void* symbol,
                                                              size_t count, size_t offset, cudaMemcpyKind kind) {
  return guarded([&] {
    cudaError_t error = cudaSuccess;
    std::optional<MemcpyNodeOp> op = from_symbol(dst, symbol, count, offset, kind, error);
    return set_node(graph_memcpy(node), std::move(op), error);
  });
}

extern "C" cudaError_t cudaGraphExecMemcpyNodeSetParamsToSymbol(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                                                const void* symbol, const void* src, size_t count,
                                                                size_t offset, cudaMemcpyKind kind) {
  return guarded([&] {
    cudaError_t error = cudaSuccess;
    std::optional<MemcpyNodeOp> op = to_symbol(symbol, src, count, offset, kind, error);
    return set_node(exec_node_op<MemcpyNodeOp>(hGraphExec, node), std::move(op), error);
  });
}

extern "C" cudaError_t cudaGraphExecMemcpyNodeSetParamsFromSymbol(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                                                  void* dst, const void* symbol, size_t count,
                                                                  size_t offset, cudaMemcpyKind kind) {
  return guarded([&] {
    cudaError_t error = cudaSuccess;
    std::optional<MemcpyNodeOp> op = from_symbol(dst, symbol, count, offset, kind, error);
    return set_node(exec_node_op<MemcpyNodeOp>(hGraphExec, node), std::move(op), error);
  });
}
