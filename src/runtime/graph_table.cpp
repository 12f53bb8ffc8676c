#include "runtime/graph_table.h"

#include <algorithm>

namespace lockstep::runtime {

Graph& GraphTable::create() {
  auto g = std::make_unique<Graph>();
  Graph& graph = *g;
  graphs_.emplace(&graph, std::move(g));
  return graph;
}

Graph& GraphTable::clone(const Graph& original) {
  auto g = std::make_unique<Graph>(original);
  Graph& graph = *g;
  graph.set_cloned_from(&original);
  graphs_.emplace(&graph, std::move(g));
  register_graph(graph);
  return graph;
}

void GraphTable::register_graph(Graph& graph) {
  for (size_t i = 0; i < graph.size(); ++i) {
    node_owners_[&graph.node(i)] = &graph;
    register_nested(graph.node(i));
  }
}

void GraphTable::register_nested(GraphNode& node) {
  for (Graph* nested : nested_graphs(node.op)) {
    nested_[nested] = Nested{nested, &node};
    register_graph(*nested);
  }
}

void GraphTable::forget_graph(const Graph& graph) {
  for (size_t i = 0; i < graph.size(); ++i) {
    node_owners_.erase(&graph.node(i));
    forget_nested(graph.node(i));
  }
}

void GraphTable::forget_nested(const GraphNode& node) {
  for (const Graph* nested : nested_graphs(node.op)) {
    nested_.erase(nested);
    forget_graph(*nested);
  }
}

Graph* GraphTable::graph(const void* handle) {
  if (auto it = graphs_.find(handle); it != graphs_.end()) return it->second.get();
  auto it = nested_.find(handle);
  return it == nested_.end() ? nullptr : it->second.graph;
}

GraphNode* GraphTable::holder(const void* handle) {
  auto it = nested_.find(handle);
  return it == nested_.end() ? nullptr : it->second.holder;
}

bool GraphTable::destroy(const void* handle) { return release(handle) != nullptr; }

std::unique_ptr<Graph> GraphTable::release(const void* handle) {
  auto it = graphs_.find(handle);
  if (it == graphs_.end()) return nullptr;
  std::unique_ptr<Graph> graph = std::move(it->second);
  graphs_.erase(it);
  forget_graph(*graph);
  // Executable graphs outlive the graph they came from, but must not take a later graph made at
  // the same address for it (cudaGraphInstantiate's once-at-a-time rule for memory nodes, the
  // graphs conditional handles were made for).
  std::vector<const Graph*> gone;
  collect_graphs(*graph, gone);
  for (auto& [h, exec] : execs_) {
    if (exec->source == graph.get()) exec->source = nullptr;
    std::erase_if(exec->sources, [&](const Graph* g) { return std::find(gone.begin(), gone.end(), g) != gone.end(); });
  }
  return graph;
}

cudaError_t GraphTable::dependency_indices(const Graph& graph, const std::vector<const void*>& dependencies,
                                           std::vector<size_t>& indices) const {
  indices.clear();
  for (const void* handle : dependencies) {
    auto it = node_owners_.find(handle);
    if (it == node_owners_.end() || it->second != &graph) return cudaErrorInvalidValue;
    const size_t index = static_cast<const GraphNode*>(handle)->index;
    if (std::find(indices.begin(), indices.end(), index) != indices.end()) return cudaErrorInvalidValue;
    indices.push_back(index);
  }
  return cudaSuccess;
}

bool GraphTable::allowed_in(const Graph& graph, const NodeOp& op) {
  const GraphNode* h = holder(&graph);
  if (h == nullptr) return true;
  if (has_memory_nodes(op)) return false;
  return !std::holds_alternative<ChildGraphNodeOp>(h->op) || !has_conditional_nodes(op);
}

cudaError_t GraphTable::add_node(Graph& graph, NodeOp op, const std::vector<const void*>& dependencies,
                                 GraphNode*& added) {
  std::vector<size_t> from;
  if (const cudaError_t e = dependency_indices(graph, dependencies, from); e != cudaSuccess) return e;
  if (!allowed_in(graph, op)) return cudaErrorInvalidValue;
  added = &graph.add(std::move(op));
  node_owners_[added] = &graph;
  register_nested(*added);
  for (size_t f : from) graph.add_edge(f, added->index);
  return cudaSuccess;
}

void GraphTable::replace_op(GraphNode& node, NodeOp op) {
  forget_nested(node);
  node.op = std::move(op);
  register_nested(node);
}

GraphNode* GraphTable::node(const void* handle, Graph** owner) {
  auto it = node_owners_.find(handle);
  if (it == node_owners_.end()) return nullptr;
  if (owner != nullptr) *owner = it->second;
  return &it->second->node(static_cast<const GraphNode*>(handle)->index);
}

void GraphTable::destroy_node(GraphNode& node, Graph& owner) {
  forget_nested(node);
  node_owners_.erase(&node);
  owner.remove(node.index);
}

GraphExec* GraphTable::instantiate(const Graph& graph, unsigned long long flags) {
  std::optional<std::vector<size_t>> order = graph.topological_order();
  if (!order) return nullptr;
  auto e = std::make_unique<GraphExec>(graph, &graph, std::move(*order), flags);
  GraphExec* exec = e.get();
  execs_.emplace(exec, std::move(e));
  return exec;
}

GraphExec* GraphTable::exec(const void* handle) {
  auto it = execs_.find(handle);
  return it == execs_.end() ? nullptr : it->second.get();
}

bool GraphTable::instantiated(const Graph& graph) const {
  for (const auto& [handle, exec] : execs_)
    if (exec->source == &graph) return true;
  return false;
}

bool GraphTable::destroy_exec(const void* handle) { return execs_.erase(handle) != 0; }

}  // namespace lockstep::runtime
