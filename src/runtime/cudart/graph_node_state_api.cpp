// What a node carries beside its parameters: a kernel node's launch attributes, whether an
// executable graph's node is enabled, and which node of a clone a node became.
#include "cudart/graph_handles.h"

using namespace lockstep::runtime;

namespace {

cudaError_t invalid() { return process_runtime()->record(cudaErrorInvalidValue); }

// CUDA lets only kernel, memcpy and memset nodes be disabled.
bool may_disable(const GraphNode& n) {
  const cudaGraphNodeType type = node_type(n.op);
  return type == cudaGraphNodeTypeKernel || type == cudaGraphNodeTypeMemcpy || type == cudaGraphNodeTypeMemset;
}

}  // namespace

extern "C" cudaError_t cudaGraphKernelNodeGetAttribute(cudaGraphNode_t hNode, cudaKernelNodeAttrID attr,
                                                       cudaKernelNodeAttrValue* value_out) {
  const RuntimeHandle r = process_runtime();
  const KernelNodeOp* k = node_op<KernelNodeOp>(hNode);
  if (k == nullptr || value_out == nullptr || !kernel_node_attribute(attr)) return invalid();
  const cudaLaunchAttributeValue* set = k->attribute(attr);
  *value_out = set != nullptr ? *set : unset_attribute(attr);
  return cudaSuccess;
}

extern "C" cudaError_t cudaGraphKernelNodeSetAttribute(cudaGraphNode_t hNode, cudaKernelNodeAttrID attr,
                                                       const cudaKernelNodeAttrValue* value) {
  const RuntimeHandle r = process_runtime();
  KernelNodeOp* k = node_op<KernelNodeOp>(hNode);
  if (k == nullptr || value == nullptr || !kernel_node_attribute(attr) || !valid_attribute(attr, *value))
    return invalid();
  k->set_attribute(attr, *value);
  return cudaSuccess;
}

extern "C" cudaError_t cudaGraphKernelNodeCopyAttributes(cudaGraphNode_t hDst, cudaGraphNode_t hSrc) {
  const RuntimeHandle r = process_runtime();
  KernelNodeOp* dst = node_op<KernelNodeOp>(hDst);
  const KernelNodeOp* src = node_op<KernelNodeOp>(hSrc);
  if (dst == nullptr || src == nullptr) return invalid();
  dst->attributes = src->attributes;
  return cudaSuccess;
}

// A disabled node runs as an empty one until it is enabled again.
extern "C" cudaError_t cudaGraphNodeSetEnabled(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode,
                                               unsigned int isEnabled) {
  const RuntimeHandle r = process_runtime();
  GraphNode* n = exec_node(hGraphExec, hNode);
  if (n == nullptr || !may_disable(*n)) return invalid();
  n->enabled = isEnabled != 0;
  return cudaSuccess;
}

extern "C" cudaError_t cudaGraphNodeGetEnabled(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode,
                                               unsigned int* isEnabled) {
  const RuntimeHandle r = process_runtime();
  const GraphNode* n = exec_node(hGraphExec, hNode);
  if (n == nullptr || isEnabled == nullptr || !may_disable(*n)) return invalid();
  *isEnabled = n->enabled ? 1 : 0;
  return cudaSuccess;
}

// The node of `clonedGraph` made from `originalNode` when cudaGraphClone copied its graph.
extern "C" cudaError_t cudaGraphNodeFindInClone(cudaGraphNode_t* pNode, cudaGraphNode_t originalNode,
                                                cudaGraph_t clonedGraph) {
  const RuntimeHandle r = process_runtime();
  GraphTable& table = r->graph_table();
  Graph* owner = nullptr;
  GraphNode* original = table.node(originalNode, &owner);
  Graph* clone = table.graph(clonedGraph);
  if (pNode == nullptr || original == nullptr || clone == nullptr || clone->cloned_from() != owner) return invalid();
  const std::optional<size_t> index = clone->find(original->id);
  if (!index) return invalid();
  *pNode = node_handle(clone->node(*index));
  return cudaSuccess;
}
