#pragma once
// Child-graph nodes (graph_child_api.cpp): the node runs a graph of its own, a copy of the graph
// the program named or that graph itself, moved in. Shared by the entry points that add one or
// change one.
#include "cudart/graph_handles.h"

namespace lockstep::runtime {

// The operation of a child-graph node of `parent` that runs a copy of `child`, taken now as
// CUDA takes it; cudaErrorInvalidValue, as CUDA answers, for an unknown graph, the parent
// itself, a cycle (it could never run), memory or conditional nodes (a child graph may hold
// neither unless moved in, and never a conditional), or a graph moved into another node.
cudaError_t child_graph_op(cudaGraph_t child, cudaGraph_t parent, ChildGraphNodeOp& op);

// cudaGraphAddChildGraphNode, and cudaGraphAddNode of a child-graph node: with
// cudaGraphChildGraphOwnershipMove the node takes `child` itself, whose handle then belongs to
// the node (the program may no longer destroy, instantiate or move it).
cudaError_t add_child_graph_node(cudaGraphNode_t* pGraphNode, cudaGraph_t graph, const cudaGraphNode_t* pDependencies,
                                 size_t numDependencies, cudaGraph_t child,
                                 cudaGraphChildGraphNodeOwnership ownership);

// Whether `graph` is the child graph of a node it was moved into.
bool moved_child(cudaGraph_t graph);

}  // namespace lockstep::runtime
