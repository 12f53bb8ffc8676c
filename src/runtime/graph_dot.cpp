#include "runtime/graph_dot.h"

#include <cstdint>
#include <string_view>
#include <variant>

#include "fmt/format.h"

namespace lockstep::runtime {

namespace {

std::string dims(const Dim3& d) { return fmt::format("({},{},{})", d.x, d.y, d.z); }

std::string escaped(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

const char* conditional_kind(cudaGraphConditionalNodeType t) {
  switch (t) {
    case cudaGraphCondTypeIf: return "if";
    case cudaGraphCondTypeWhile: return "while";
    case cudaGraphCondTypeSwitch: return "switch";
    default: return "unknown";
  }
}

class DotWriter {
 public:
  explicit DotWriter(const std::function<std::string(const void*)>& kernel_name) : kernel_name_(kernel_name) {}

  // The nodes and edges of `g`; `prefix` names its nodes apart from other graphs' ("n" at the top,
  // "n3_0_" inside node 3's first nested graph).
  void graph(const Graph& g, const std::string& prefix, const std::string& indent) {
    for (size_t i = 0; i < g.size(); ++i) node(g.node(i), prefix, indent);
    for (const auto& [from, to] : g.edges())
      out_ += fmt::format("{}{}{} -> {}{};\n", indent, prefix, from, prefix, to);
  }

  std::string take() { return std::move(out_); }

 private:
  void node(const GraphNode& n, const std::string& prefix, const std::string& indent) {
    const std::string name = prefix + std::to_string(n.index);
    out_ += fmt::format("{}{} [shape=box, label=\"{}: {}\"];\n", indent, name, n.index, escaped(label(n.op)));
    const std::vector<Graph*> nested = nested_graphs(n.op);
    const bool child = std::holds_alternative<ChildGraphNodeOp>(n.op);
    for (size_t k = 0; k < nested.size(); ++k) {
      const std::string cluster = fmt::format("{}_{}", name, k);
      const std::string title = child ? fmt::format("child graph of {}", n.index) : fmt::format("body {} of {}", k, n.index);
      out_ += fmt::format("{}subgraph cluster_{} {{\n{}  label=\"{}\";\n", indent, cluster, indent, title);
      graph(*nested[k], cluster + "_", indent + "  ");
      out_ += indent + "}\n";
    }
  }

  std::string label(const NodeOp& op) const {
    if (const auto* k = std::get_if<KernelNodeOp>(&op)) {
      const std::string name = kernel_name_(k->host_fun);
      return fmt::format("kernel {} grid {} block {} shared {}", name.empty() ? "(unknown)" : name, dims(k->grid),
                         dims(k->block), k->shared);
    }
    if (const auto* m = std::get_if<MemcpyNodeOp>(&op)) {
      const cudaExtent e = m->params.extent;
      return fmt::format("memcpy {} x {} x {}", e.width, e.height, e.depth);
    }
    if (const auto* m = std::get_if<MemsetNodeOp>(&op))
      return fmt::format("memset {} x {} of {} bytes, value {:#x}", m->params.width, m->params.height,
                         m->params.elementSize, m->params.value);
    if (std::holds_alternative<HostNodeOp>(op)) return "host function";
    if (std::holds_alternative<ChildGraphNodeOp>(op)) return "child graph";
    if (std::holds_alternative<EmptyNodeOp>(op)) return "empty";
    if (std::holds_alternative<EventWaitNodeOp>(op)) return "event wait";
    if (std::holds_alternative<EventRecordNodeOp>(op)) return "event record";
    if (const auto* c = std::get_if<ConditionalNodeOp>(&op))
      return fmt::format("conditional {}, {} bodies", conditional_kind(c->type), c->bodies.size());
    if (const auto* a = std::get_if<MemAllocNodeOp>(&op))
      return fmt::format("mem alloc {} bytes at {:#x}", a->params.bytesize,
                         reinterpret_cast<uintptr_t>(a->params.dptr));
    if (const auto* f = std::get_if<MemFreeNodeOp>(&op))
      return fmt::format("mem free {:#x}", reinterpret_cast<uintptr_t>(f->address));
    return "node";
  }

  const std::function<std::string(const void*)>& kernel_name_;
  std::string out_;
};

}  // namespace

std::string graph_dot(const Graph& graph, const std::function<std::string(const void*)>& kernel_name) {
  DotWriter writer(kernel_name);
  writer.graph(graph, "n", "  ");
  return "digraph cuda_graph {\n" + writer.take() + "}\n";
}

}  // namespace lockstep::runtime
