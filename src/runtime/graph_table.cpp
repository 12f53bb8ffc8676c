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
  graphs_.emplace(&graph, std::move(g));
  register_nodes(graph);
  return graph;
}

void GraphTable::register_nodes(Graph& graph) {
  for (size_t i = 0; i < graph.size(); ++i) node_owners_[&graph.node(i)] = &graph;
}

Graph* GraphTable::graph(const void* handle) {
  auto it = graphs_.find(handle);
  return it == graphs_.end() ? nullptr : it->second.get();
}

bool GraphTable::destroy(const void* handle) {
  auto it = graphs_.find(handle);
  if (it == graphs_.end()) return false;
  Graph& graph = *it->second;
  for (size_t i = 0; i < graph.size(); ++i) node_owners_.erase(&graph.node(i));
  graphs_.erase(it);
  return true;
}

cudaError_t GraphTable::add_node(Graph& graph, NodeOp op, const std::vector<const void*>& dependencies,
                                 GraphNode*& added) {
  std::vector<size_t> from;
  for (const void* handle : dependencies) {
    auto it = node_owners_.find(handle);
    if (it == node_owners_.end() || it->second != &graph) return cudaErrorInvalidValue;
    const size_t index = static_cast<const GraphNode*>(handle)->index;
    if (std::find(from.begin(), from.end(), index) != from.end()) return cudaErrorInvalidValue;
    from.push_back(index);
  }
  added = &graph.add(std::move(op));
  node_owners_[added] = &graph;
  for (size_t f : from) graph.add_edge(f, added->index);
  return cudaSuccess;
}

GraphNode* GraphTable::node(const void* handle, Graph** owner) {
  auto it = node_owners_.find(handle);
  if (it == node_owners_.end()) return nullptr;
  if (owner != nullptr) *owner = it->second;
  return &it->second->node(static_cast<const GraphNode*>(handle)->index);
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
