// Graph memory nodes in the Runtime: an allocation node's address is fixed when it is made and
// its memory exists only from the node's run to its free; parameters are checked with CUDA's
// error codes; a graph whose allocation is still live cannot be relaunched unless instantiated
// to free it on launch; capture of cudaMallocAsync / cudaFreeAsync records the same nodes.
#include "runtime/graph_test_runtime.h"

namespace lockstep::test {
namespace {

using runtime::Graph;
using runtime::GraphExec;
using runtime::MemAllocNodeOp;
using runtime::MemFreeNodeOp;

class GraphMemoryNodes : public GraphRuntime {
 protected:
  static cudaMemAllocNodeParams params(size_t bytes) {
    cudaMemAllocNodeParams p{};
    p.poolProps.allocType = cudaMemAllocationTypePinned;
    p.poolProps.location = {cudaMemLocationTypeDevice, 0};
    p.bytesize = bytes;
    return p;
  }
  // An allocation node of `bytes` added to `graph`; its address in *address.
  size_t add_alloc(Graph& graph, size_t bytes, void** address) {
    cudaMemAllocNodeParams p = params(bytes);
    MemAllocNodeOp op;
    EXPECT_EQ(runtime_.mem_alloc_node(op, p), cudaSuccess);
    *address = p.dptr;
    return graph.add(std::move(op)).index;
  }
  size_t add_free(Graph& graph, void* address) {
    MemFreeNodeOp op;
    EXPECT_EQ(runtime_.mem_free_node(op, graph, address), cudaSuccess);
    return graph.add(op).index;
  }
  GraphExec& instantiate(const Graph& graph, unsigned long long flags = 0) {
    GraphExec* exec = runtime_.graph_table().instantiate(graph, flags);
    EXPECT_NE(exec, nullptr);
    return *exec;
  }
  uint64_t used() {
    uint64_t value = 0;
    EXPECT_EQ(runtime_.graph_memory().get_attribute(cudaGraphMemAttrUsedMemCurrent, &value), cudaSuccess);
    return value;
  }
};

TEST_F(GraphMemoryNodes, AllocationParametersAreChecked) {
  MemAllocNodeOp op;
  cudaMemAllocNodeParams p = params(0);
  EXPECT_EQ(runtime_.mem_alloc_node(op, p), cudaErrorInvalidValue);  // no bytes
  p = params(64);
  p.poolProps.location.type = cudaMemLocationTypeInvalid;
  EXPECT_EQ(runtime_.mem_alloc_node(op, p), cudaErrorInvalidValue);
  p = params(64);
  p.poolProps.location.type = cudaMemLocationTypeHost;
  EXPECT_EQ(runtime_.mem_alloc_node(op, p), cudaErrorInvalidValue);
  p = params(64);
  p.poolProps.location.id = 1;  // only device 0 exists
  EXPECT_EQ(runtime_.mem_alloc_node(op, p), cudaErrorInvalidDevice);
  p = params(64);
  p.poolProps.allocType = cudaMemAllocationTypeInvalid;
  EXPECT_EQ(runtime_.mem_alloc_node(op, p), cudaErrorInvalidValue);
  p = params(64);
  p.accessDescCount = 1;  // and no descriptors
  EXPECT_EQ(runtime_.mem_alloc_node(op, p), cudaErrorInvalidValue);
  const cudaMemAccessDesc read_only{{cudaMemLocationTypeDevice, 0}, cudaMemAccessFlagsProtRead};
  p.accessDescs = &read_only;
  EXPECT_EQ(runtime_.mem_alloc_node(op, p), cudaErrorInvalidValue);
  p = params(64);
  p.dptr = reinterpret_cast<void*>(uintptr_t{0x1234});
  ASSERT_EQ(runtime_.mem_alloc_node(op, p), cudaSuccess);
  EXPECT_NE(p.dptr, reinterpret_cast<void*>(uintptr_t{0x1234}));  // an output only
  EXPECT_EQ(op.params.dptr, p.dptr);
  EXPECT_EQ(op.params.bytesize, 64u);
  EXPECT_EQ(runtime::node_type(op), cudaGraphNodeTypeMemAlloc);
  EXPECT_EQ(runtime_.take_last_error(), cudaErrorInvalidValue);  // the last failure above
}

TEST_F(GraphMemoryNodes, FreeNodesTakeOnlyGraphAllocationsOncePerGraph) {
  Graph g;
  void* address = nullptr;
  add_alloc(g, 256, &address);
  MemFreeNodeOp op;
  EXPECT_EQ(runtime_.mem_free_node(op, g, nullptr), cudaErrorInvalidValue);
  EXPECT_EQ(runtime_.mem_free_node(op, g, static_cast<char*>(address) + 4), cudaErrorInvalidValue);
  void* ordinary = nullptr;
  ASSERT_EQ(runtime_.malloc(&ordinary, 64), cudaSuccess);
  EXPECT_EQ(runtime_.mem_free_node(op, g, ordinary), cudaErrorInvalidValue);
  ASSERT_EQ(runtime_.mem_free_node(op, g, address), cudaSuccess);
  EXPECT_EQ(runtime::node_type(op), cudaGraphNodeTypeMemFree);
  g.add(op);
  EXPECT_EQ(runtime_.mem_free_node(op, g, address), cudaErrorInvalidValue);  // freed twice in one graph
  Graph other;  // another graph may free it
  EXPECT_EQ(runtime_.mem_free_node(op, other, address), cudaSuccess);
}

TEST_F(GraphMemoryNodes, MemoryExistsFromAllocationToFreeAtTheSameAddress) {
  Graph g;
  void* address = nullptr;
  const size_t alloc = add_alloc(g, 4 * sizeof(float), &address);
  float* x = static_cast<float*>(address);
  float a = 2.0f;
  int n = 4;
  const size_t scale = g.add(scale_node(x, a, n)).index;
  g.add_edge(alloc, scale);
  std::vector<float> host(4, -1.0f);
  const size_t copy = g.add(runtime::memcpy_1d_op(host.data(), x, 16, cudaMemcpyDeviceToHost)).index;
  g.add_edge(scale, copy);
  g.add_edge(copy, add_free(g, address));
  EXPECT_FALSE(runtime_.is_device_address(reinterpret_cast<uint64_t>(address)));  // nothing before the launch
  GraphExec& exec = instantiate(g);
  for (int launch = 0; launch < 2; ++launch) {
    ASSERT_EQ(runtime_.launch_graph(exec), cudaSuccess);
    EXPECT_EQ(host, (std::vector<float>{1, 2, 3, 4})) << launch;  // zero-filled, then 0 * 2 + c
    EXPECT_FALSE(runtime_.is_device_address(reinterpret_cast<uint64_t>(address)));
    EXPECT_EQ(used(), 0u);
  }
}

TEST_F(GraphMemoryNodes, RelaunchWithTheAllocationStillLiveFails) {
  Graph g;
  void* address = nullptr;
  add_alloc(g, 100, &address);
  GraphExec& exec = instantiate(g);
  ASSERT_EQ(runtime_.launch_graph(exec), cudaSuccess);
  EXPECT_TRUE(runtime_.is_device_address(reinterpret_cast<uint64_t>(address), 100));
  EXPECT_EQ(used(), 100u);
  EXPECT_EQ(runtime_.launch_graph(exec), cudaErrorInvalidValue);
  EXPECT_EQ(runtime_.take_last_error(), cudaErrorInvalidValue);
  EXPECT_EQ(runtime_.sticky(), cudaSuccess);  // not a device fault
  ASSERT_EQ(runtime_.free(address), cudaSuccess);
  EXPECT_EQ(used(), 0u);
  EXPECT_EQ(runtime_.launch_graph(exec), cudaSuccess);
  EXPECT_TRUE(runtime_.is_device_address(reinterpret_cast<uint64_t>(address), 100));
  ASSERT_EQ(runtime_.free(address), cudaSuccess);
  EXPECT_EQ(runtime_.free(address), cudaErrorInvalidValue);  // freed already
}

TEST_F(GraphMemoryNodes, AutoFreeOnLaunchFreesTheLastLaunchesAllocation) {
  Graph g;
  void* address = nullptr;
  add_alloc(g, 64, &address);
  GraphExec& exec = instantiate(g, cudaGraphInstantiateFlagAutoFreeOnLaunch);
  for (int launch = 0; launch < 3; ++launch) ASSERT_EQ(runtime_.launch_graph(exec), cudaSuccess);
  EXPECT_EQ(used(), 64u);
  uint64_t high = 0;
  ASSERT_EQ(runtime_.graph_memory().get_attribute(cudaGraphMemAttrUsedMemHigh, &high), cudaSuccess);
  EXPECT_EQ(high, 64u);
  ASSERT_EQ(runtime_.free(address), cudaSuccess);
  const uint64_t zero = 0, one = 1;
  EXPECT_EQ(runtime_.graph_memory().set_attribute(cudaGraphMemAttrUsedMemHigh, &one), cudaErrorInvalidValue);
  EXPECT_EQ(runtime_.graph_memory().set_attribute(cudaGraphMemAttrUsedMemCurrent, &zero), cudaErrorInvalidValue);
  ASSERT_EQ(runtime_.graph_memory().set_attribute(cudaGraphMemAttrUsedMemHigh, &zero), cudaSuccess);
  ASSERT_EQ(runtime_.graph_memory().get_attribute(cudaGraphMemAttrUsedMemHigh, &high), cudaSuccess);
  EXPECT_EQ(high, 0u);
}

TEST_F(GraphMemoryNodes, KernelsFaultOnFreedGraphMemory) {
  Graph g;
  void* address = nullptr;
  const size_t alloc = add_alloc(g, 4 * sizeof(float), &address);
  const size_t freed = add_free(g, address);
  g.add_edge(alloc, freed);
  float* x = static_cast<float*>(address);
  float a = 1.0f;
  int n = 4;
  g.add_edge(freed, g.add(scale_node(x, a, n)).index);
  ASSERT_EQ(runtime_.launch_graph(instantiate(g)), cudaSuccess);  // the fault is reported later
  EXPECT_EQ(runtime_.sticky(), cudaErrorIllegalAddress);
}

TEST_F(GraphMemoryNodes, CaptureRecordsAllocationAndFreeNodes) {
  void* stream = runtime_.create_stream();
  Graph& g = runtime_.graph_table().create();
  ASSERT_EQ(runtime_.captures().begin(stream, cudaStreamCaptureModeGlobal, g), cudaSuccess);
  void* address = nullptr;
  const cudaMemPool_t pool = runtime_.mem_pools().current_pool();
  EXPECT_EQ(runtime_.capture_malloc(nullptr, 64, pool, stream), cudaErrorInvalidValue);
  EXPECT_EQ(runtime_.capture_malloc(&address, 0, pool, stream), cudaErrorInvalidValue);
  ASSERT_EQ(runtime_.capture_malloc(&address, 64, pool, stream), cudaSuccess);
  EXPECT_NE(address, nullptr);
  void* ordinary = nullptr;
  ASSERT_EQ(runtime_.malloc(&ordinary, 64), cudaSuccess);
  EXPECT_EQ(runtime_.capture_free(ordinary, stream), cudaErrorInvalidValue);
  ASSERT_EQ(runtime_.capture_free(address, stream), cudaSuccess);
  EXPECT_EQ(runtime_.capture_free(address, stream), cudaErrorInvalidValue);
  EXPECT_EQ(runtime_.capture_free(address, runtime_.create_stream()), cudaErrorIllegalState);  // not capturing
  Graph* ended = nullptr;
  ASSERT_EQ(runtime_.captures().end(stream, ended), cudaSuccess);
  ASSERT_EQ(g.size(), 2u);
  EXPECT_EQ(runtime::node_type(g.node(0).op), cudaGraphNodeTypeMemAlloc);
  EXPECT_EQ(std::get<MemAllocNodeOp>(g.node(0).op).params.dptr, address);
  EXPECT_EQ(runtime::node_type(g.node(1).op), cudaGraphNodeTypeMemFree);
  EXPECT_EQ(g.edges(), (std::vector<std::pair<size_t, size_t>>{{0, 1}}));
  EXPECT_FALSE(runtime_.is_device_address(reinterpret_cast<uint64_t>(address)));  // nothing ran
  EXPECT_TRUE(runtime::has_memory_nodes(g));
}

}  // namespace
}  // namespace lockstep::test
