// Running graphs in the Runtime: kernel nodes copy their arguments when made (from
// kernelParams or a packed `extra` buffer), and a launch runs memset, kernel, copy and host
// nodes in dependency order, each as its stream operation does.
#include <cstdint>
#include <cstring>
#include <memory>

#include "runtime/graph_test_runtime.h"

namespace lockstep::test {
namespace {

using runtime::Graph;

TEST_F(GraphRuntime, KernelNodeKeepsTheArgumentsItWasMadeWith) {
  float* x = upload({1, 2, 3, 4, 5});
  float a = 2.0f;
  int n = 5;
  Graph g;
  g.add(scale_node(x, a, n));
  a = 100.0f;  // changed after the node was made: the node does not see it
  n = 1;
  EXPECT_EQ(download(x, 5), (std::vector<float>{1, 2, 3, 4, 5}));  // making a node runs nothing
  ASSERT_EQ(run(g), cudaSuccess);
  EXPECT_EQ(download(x, 5), (std::vector<float>{3, 6, 9, 12, 11}));
  ASSERT_EQ(run(g), cudaSuccess);  // a graph runs again each launch
  EXPECT_EQ(download(x, 5), (std::vector<float>{7, 14, 21, 28, 23}));
}

TEST_F(GraphRuntime, KernelNodeReadsAPackedExtraBuffer) {
  float* x = upload({1, 1, 1, 1});
  // The parameters at their PTX offsets: x at 0, a at 8, n at 12.
  uint8_t buffer[16] = {};
  const float a = 3.0f;
  const int n = 4;
  std::memcpy(buffer, &x, 8);
  std::memcpy(buffer + 8, &a, 4);
  std::memcpy(buffer + 12, &n, 4);
  size_t size = sizeof(buffer);
  void* extra[] = {reinterpret_cast<void*>(uintptr_t{1}), buffer, reinterpret_cast<void*>(uintptr_t{2}), &size,
                   nullptr};
  runtime::KernelNodeOp op;
  ASSERT_EQ(runtime_.kernel_node(op, kScale, Dim3{1, 1, 1}, Dim3{32, 1, 1}, 0, nullptr, extra), cudaSuccess);
  std::memset(buffer, 0, sizeof(buffer));
  ASSERT_EQ(op.args.size(), 3u);
  EXPECT_EQ(op.args[0].size(), 8u);
  EXPECT_EQ(op.args[1].size(), 4u);
  Graph g;
  g.add(std::move(op));
  ASSERT_EQ(run(g), cudaSuccess);
  EXPECT_EQ(download(x, 4), (std::vector<float>{4, 5, 6, 7}));
}

TEST_F(GraphRuntime, KernelNodeRefusesMissingArgumentsAndUnknownKernels) {
  runtime::KernelNodeOp op;
  EXPECT_EQ(runtime_.kernel_node(op, kScale, Dim3{}, Dim3{}, 0, nullptr, nullptr), cudaErrorInvalidValue);
  size_t size = 4;  // too small for the three parameters
  uint8_t buffer[4] = {};
  void* extra[] = {reinterpret_cast<void*>(uintptr_t{1}), buffer, reinterpret_cast<void*>(uintptr_t{2}), &size,
                   nullptr};
  EXPECT_EQ(runtime_.kernel_node(op, kScale, Dim3{}, Dim3{}, 0, nullptr, extra), cudaErrorInvalidValue);
  const char other = 0;
  void* args[] = {nullptr};
  EXPECT_EQ(runtime_.kernel_node(op, &other, Dim3{}, Dim3{}, 0, args, nullptr), cudaErrorInvalidDeviceFunction);
}

struct Seen {
  const float* values = nullptr;
  std::vector<float> copy;
};

void remember(void* data) {
  Seen* seen = static_cast<Seen*>(data);
  seen->copy.assign(seen->values, seen->values + 4);
}

TEST_F(GraphRuntime, NodesRunInDependencyOrderNotCreationOrder) {
  float* x = upload({0, 0, 0, 0});
  float a = 2.0f;
  int n = 4;
  std::vector<float> host(4, -1.0f);
  Seen seen{host.data(), {}};
  Graph g;
  // Created host node first, memset last; the edges put them the other way round.
  g.add(runtime::HostNodeOp{remember, &seen});                                          // 0
  g.add(runtime::memcpy_1d_op(host.data(), x, 4 * sizeof(float), cudaMemcpyDeviceToHost));  // 1
  g.add(scale_node(x, a, n));                                                           // 2
  cudaMemsetParams m{};
  m.dst = x;
  m.value = 0x3f800000;  // 1.0f in every 4-byte element
  m.elementSize = 4;
  m.width = 4;
  m.height = 1;
  g.add(runtime::MemsetNodeOp{m});  // 3
  g.add_edge(3, 2);
  g.add_edge(2, 1);
  g.add_edge(1, 0);
  ASSERT_EQ(g.topological_order(), (std::vector<size_t>{3, 2, 1, 0}));
  ASSERT_EQ(run(g), cudaSuccess);
  EXPECT_EQ(seen.copy, (std::vector<float>{3, 4, 5, 6}));
}

TEST_F(GraphRuntime, ByteMemsetAndChildGraphs) {
  float* x = upload({9, 9, 9, 9});
  float a = 1.0f;
  int n = 4;
  auto child = std::make_unique<Graph>();
  child->add(scale_node(x, a, n));
  child->add(scale_node(x, a, n));
  child->add_edge(0, 1);
  Graph g;
  cudaMemsetParams m{};
  m.dst = x;
  m.value = 0x13f;  // only the low byte counts: every byte 0x3f
  m.elementSize = 1;
  m.width = 4;  // the first float only
  m.height = 1;
  g.add(runtime::MemsetNodeOp{m});
  g.add(runtime::ChildGraphNodeOp{runtime::NestedGraph(std::move(child))});
  g.add_edge(0, 1);
  ASSERT_EQ(run(g), cudaSuccess);
  const std::vector<float> out = download(x, 4);
  const uint32_t bits = 0x3f3f3f3f;
  float first = 0;
  std::memcpy(&first, &bits, 4);
  EXPECT_EQ(out[0], (first + 1.0f) + 1.0f);  // c_tab[0] added twice
  EXPECT_EQ(out[1], 13.0f);       // 9 + 2 + 2
  EXPECT_EQ(out[3], 17.0f);       // 9 + 4 + 4
}

TEST_F(GraphRuntime, EventRecordNodesRecordAndFailuresStopTheGraph) {
  void* event = runtime_.create_event();
  Graph g;
  g.add(runtime::EventRecordNodeOp{event});
  ASSERT_EQ(run(g), cudaSuccess);
  float ms = -1.0f;
  EXPECT_TRUE(runtime_.elapsed_ms(event, event, ms));
  EXPECT_EQ(ms, 0.0f);

  std::vector<float> host(4, 0.0f);
  Seen seen{host.data(), {}};
  Graph failing;
  failing.add(runtime::memcpy_1d_op(host.data(), reinterpret_cast<void*>(uintptr_t{16}), 16, cudaMemcpyDeviceToHost));
  failing.add(runtime::HostNodeOp{remember, &seen});
  failing.add_edge(0, 1);
  EXPECT_EQ(run(failing), cudaErrorInvalidValue);
  EXPECT_TRUE(seen.copy.empty());  // the host node after the failed copy never ran
}

}  // namespace
}  // namespace lockstep::test
