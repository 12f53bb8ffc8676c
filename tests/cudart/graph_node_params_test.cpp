// The generic node-parameter API through the stand-in libcudart's C entry points, as a program
// calls them: cudaGraphNodeGetParams hands back what cudaGraphAddNode was given, for each kind
// of node; cudaGraphNodeSetParams changes what later instantiations run, and
// cudaGraphExecNodeSetParams what later launches of one executable graph run; a wrong type,
// missing parameters or a node that cannot change give CUDA's error codes.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <vector>

#include "cudart/scale_kernel.h"

extern "C" cudaError_t cudaGraphNodeGetParams(cudaGraphNode_t node, cudaGraphNodeParams* nodeParams);

namespace lockstep::test {
namespace {

constexpr int kN = 256;

void CUDART_CB count_one(void* data) { *static_cast<int*>(data) += 1; }
void CUDART_CB count_ten(void* data) { *static_cast<int*>(data) += 10; }

cudaGraphNodeParams memset_params(float* dst, float value) {
  cudaGraphNodeParams p{};
  p.type = cudaGraphNodeTypeMemset;
  p.memset = cudaMemsetParamsV2{dst, 0, std::bit_cast<unsigned>(value), 4, kN, 1};
  return p;
}

// kernelParams must stay valid only for the call: the node copies the arguments.
cudaGraphNodeParams kernel_params(void** args) {
  cudaGraphNodeParams p{};
  p.type = cudaGraphNodeTypeKernel;
  p.kernel.func = const_cast<char*>(&kScaleStub);
  p.kernel.gridDim = dim3(kN / 128);
  p.kernel.blockDim = dim3(128);
  p.kernel.kernelParams = args;
  return p;
}

// A graph that fills x with `fill`, then scales it by `a`: memset node, then kernel node.
struct FillThenScale {
  FillThenScale(float fill, float a) {
    register_scale();
    EXPECT_EQ(cudaMalloc(reinterpret_cast<void**>(&x), kN * sizeof(float)), cudaSuccess);
    EXPECT_EQ(cudaGraphCreate(&graph, 0), cudaSuccess);
    cudaGraphNodeParams m = memset_params(x, fill);
    EXPECT_EQ(cudaGraphAddNode(&memset, graph, nullptr, nullptr, 0, &m), cudaSuccess);
    int n = kN;
    void* args[] = {&x, &a, &n};
    cudaGraphNodeParams k = kernel_params(args);
    EXPECT_EQ(cudaGraphAddNode(&kernel, graph, &memset, nullptr, 1, &k), cudaSuccess);
  }
  ~FillThenScale() {
    cudaGraphDestroy(graph);
    cudaFree(x);
  }
  // Launches `exec` and checks every element is fill * a + c_tab[i & 3].
  void expect_result(cudaGraphExec_t exec, float fill, float a) const {
    ASSERT_EQ(cudaGraphLaunch(exec, nullptr), cudaSuccess);
    ASSERT_EQ(cudaStreamSynchronize(nullptr), cudaSuccess);
    std::vector<float> out(kN);
    ASSERT_EQ(cudaMemcpy(out.data(), x, kN * sizeof(float), cudaMemcpyDeviceToHost), cudaSuccess);
    int wrong = 0;
    for (int i = 0; i < kN; ++i) wrong += out[i] != scaled(fill, a, i);
    EXPECT_EQ(wrong, 0) << "fill " << fill << ", a " << a;
  }
  float* x = nullptr;
  cudaGraph_t graph = nullptr;
  cudaGraphNode_t memset = nullptr, kernel = nullptr;
};

float kernel_factor(cudaGraphNode_t node) {
  cudaGraphNodeParams p{};
  EXPECT_EQ(cudaGraphNodeGetParams(node, &p), cudaSuccess);
  EXPECT_EQ(p.type, cudaGraphNodeTypeKernel);
  return p.kernel.kernelParams == nullptr ? 0.0f : *static_cast<float*>(p.kernel.kernelParams[1]);
}

TEST(GraphNodeParams, GetReturnsWhatAddNodeSetForKernelAndMemset) {
  FillThenScale g(2.0f, 3.0f);
  cudaGraphNodeParams p{};
  ASSERT_EQ(cudaGraphNodeGetParams(g.memset, &p), cudaSuccess);
  EXPECT_EQ(p.type, cudaGraphNodeTypeMemset);
  EXPECT_EQ(p.memset.dst, g.x);
  EXPECT_EQ(p.memset.value, std::bit_cast<unsigned>(2.0f));
  EXPECT_EQ(p.memset.elementSize, 4u);
  EXPECT_EQ(p.memset.width, static_cast<size_t>(kN));
  EXPECT_EQ(p.memset.height, 1u);
  ASSERT_EQ(cudaGraphNodeGetParams(g.kernel, &p), cudaSuccess);
  EXPECT_EQ(p.type, cudaGraphNodeTypeKernel);
  EXPECT_EQ(p.kernel.func, &kScaleStub);
  EXPECT_EQ(p.kernel.gridDim.x, static_cast<unsigned>(kN / 128));
  EXPECT_EQ(p.kernel.blockDim.x, 128u);
  ASSERT_NE(p.kernel.kernelParams, nullptr);
  EXPECT_EQ(*static_cast<float**>(p.kernel.kernelParams[0]), g.x);
  EXPECT_EQ(*static_cast<float*>(p.kernel.kernelParams[1]), 3.0f);
  EXPECT_EQ(*static_cast<int*>(p.kernel.kernelParams[2]), kN);
}

TEST(GraphNodeParams, GetReturnsWhatAddNodeSetForMemcpyHostEventAndEmpty) {
  cudaGraph_t graph = nullptr;
  ASSERT_EQ(cudaGraphCreate(&graph, 0), cudaSuccess);
  std::vector<float> src(kN, 1.0f), dst(kN);
  cudaGraphNodeParams c{};
  c.type = cudaGraphNodeTypeMemcpy;
  c.memcpy.copyParams.srcPtr = cudaPitchedPtr{src.data(), kN * sizeof(float), kN * sizeof(float), 1};
  c.memcpy.copyParams.dstPtr = cudaPitchedPtr{dst.data(), kN * sizeof(float), kN * sizeof(float), 1};
  c.memcpy.copyParams.extent = cudaExtent{kN * sizeof(float), 1, 1};
  c.memcpy.copyParams.kind = cudaMemcpyHostToHost;
  int calls = 0;
  cudaGraphNodeParams h{};
  h.type = cudaGraphNodeTypeHost;
  h.host = cudaHostNodeParamsV2{count_one, &calls};
  cudaEvent_t event = nullptr;
  ASSERT_EQ(cudaEventCreate(&event), cudaSuccess);
  cudaGraphNodeParams rec{}, wait{}, empty{};
  rec.type = cudaGraphNodeTypeEventRecord;
  rec.eventRecord.event = event;
  wait.type = cudaGraphNodeTypeWaitEvent;
  wait.eventWait.event = event;
  empty.type = cudaGraphNodeTypeEmpty;
  cudaGraphNode_t copy = nullptr, host = nullptr, record = nullptr, waits = nullptr, nothing = nullptr;
  ASSERT_EQ(cudaGraphAddNode(&copy, graph, nullptr, nullptr, 0, &c), cudaSuccess);
  ASSERT_EQ(cudaGraphAddNode(&host, graph, nullptr, nullptr, 0, &h), cudaSuccess);
  ASSERT_EQ(cudaGraphAddNode(&record, graph, nullptr, nullptr, 0, &rec), cudaSuccess);
  ASSERT_EQ(cudaGraphAddNode(&waits, graph, nullptr, nullptr, 0, &wait), cudaSuccess);
  ASSERT_EQ(cudaGraphAddNode(&nothing, graph, nullptr, nullptr, 0, &empty), cudaSuccess);

  cudaGraphNodeParams p{};
  ASSERT_EQ(cudaGraphNodeGetParams(copy, &p), cudaSuccess);
  EXPECT_EQ(p.type, cudaGraphNodeTypeMemcpy);
  EXPECT_EQ(p.memcpy.copyParams.srcPtr.ptr, src.data());
  EXPECT_EQ(p.memcpy.copyParams.dstPtr.ptr, dst.data());
  EXPECT_EQ(p.memcpy.copyParams.extent.width, kN * sizeof(float));
  EXPECT_EQ(p.memcpy.copyParams.kind, cudaMemcpyHostToHost);
  ASSERT_EQ(cudaGraphNodeGetParams(host, &p), cudaSuccess);
  EXPECT_EQ(p.type, cudaGraphNodeTypeHost);
  EXPECT_EQ(p.host.fn, &count_one);
  EXPECT_EQ(p.host.userData, &calls);
  ASSERT_EQ(cudaGraphNodeGetParams(record, &p), cudaSuccess);
  EXPECT_EQ(p.type, cudaGraphNodeTypeEventRecord);
  EXPECT_EQ(p.eventRecord.event, event);
  ASSERT_EQ(cudaGraphNodeGetParams(waits, &p), cudaSuccess);
  EXPECT_EQ(p.type, cudaGraphNodeTypeWaitEvent);
  EXPECT_EQ(p.eventWait.event, event);
  ASSERT_EQ(cudaGraphNodeGetParams(nothing, &p), cudaSuccess);
  EXPECT_EQ(p.type, cudaGraphNodeTypeEmpty);
  EXPECT_EQ(p.reserved1[0], 0);  // the union comes back zeroed where the type has nothing
  EXPECT_EQ(cudaGraphDestroy(graph), cudaSuccess);
  EXPECT_EQ(cudaEventDestroy(event), cudaSuccess);
}

TEST(GraphNodeParams, SetChangesWhatTheNextInstantiationRuns) {
  FillThenScale g(2.0f, 3.0f);
  cudaGraphExec_t before = nullptr;
  ASSERT_EQ(cudaGraphInstantiate(&before, g.graph, 0), cudaSuccess);
  cudaGraphNodeParams m = memset_params(g.x, 5.0f);
  ASSERT_EQ(cudaGraphNodeSetParams(g.memset, &m), cudaSuccess);
  int n = kN;
  float a = -1.5f;
  void* args[] = {&g.x, &a, &n};
  cudaGraphNodeParams k = kernel_params(args);
  ASSERT_EQ(cudaGraphNodeSetParams(g.kernel, &k), cudaSuccess);
  a = 100.0f;  // the node took its own copy of the argument
  EXPECT_EQ(kernel_factor(g.kernel), -1.5f);

  cudaGraphExec_t after = nullptr;
  ASSERT_EQ(cudaGraphInstantiate(&after, g.graph, 0), cudaSuccess);
  g.expect_result(after, 5.0f, -1.5f);
  g.expect_result(before, 2.0f, 3.0f);  // instantiated earlier: keeps the old parameters
  EXPECT_EQ(cudaGraphExecDestroy(before), cudaSuccess);
  EXPECT_EQ(cudaGraphExecDestroy(after), cudaSuccess);
}

TEST(GraphNodeParams, ExecSetChangesLaterLaunchesOnly) {
  FillThenScale g(2.0f, 3.0f);
  cudaGraphExec_t exec = nullptr;
  ASSERT_EQ(cudaGraphInstantiate(&exec, g.graph, 0), cudaSuccess);
  g.expect_result(exec, 2.0f, 3.0f);
  cudaGraphNodeParams m = memset_params(g.x, 7.0f);
  ASSERT_EQ(cudaGraphExecNodeSetParams(exec, g.memset, &m), cudaSuccess);
  int n = kN;
  float a = 0.5f;
  void* args[] = {&g.x, &a, &n};
  cudaGraphNodeParams k = kernel_params(args);
  ASSERT_EQ(cudaGraphExecNodeSetParams(exec, g.kernel, &k), cudaSuccess);
  g.expect_result(exec, 7.0f, 0.5f);
  // The graph's own nodes keep what they had.
  EXPECT_EQ(kernel_factor(g.kernel), 3.0f);
  cudaGraphNodeParams p{};
  ASSERT_EQ(cudaGraphNodeGetParams(g.memset, &p), cudaSuccess);
  EXPECT_EQ(p.memset.value, std::bit_cast<unsigned>(2.0f));
  EXPECT_EQ(cudaGraphExecDestroy(exec), cudaSuccess);
}

TEST(GraphNodeParams, SetAndExecSetChangeHostAndEventNodes) {
  cudaGraph_t graph = nullptr;
  ASSERT_EQ(cudaGraphCreate(&graph, 0), cudaSuccess);
  int calls = 0;
  cudaGraphNodeParams h{};
  h.type = cudaGraphNodeTypeHost;
  h.host = cudaHostNodeParamsV2{count_one, &calls};
  cudaEvent_t first = nullptr, second = nullptr;
  ASSERT_EQ(cudaEventCreate(&first), cudaSuccess);
  ASSERT_EQ(cudaEventCreate(&second), cudaSuccess);
  cudaGraphNodeParams rec{};
  rec.type = cudaGraphNodeTypeEventRecord;
  rec.eventRecord.event = first;
  cudaGraphNode_t host = nullptr, record = nullptr;
  ASSERT_EQ(cudaGraphAddNode(&host, graph, nullptr, nullptr, 0, &h), cudaSuccess);
  ASSERT_EQ(cudaGraphAddNode(&record, graph, &host, nullptr, 1, &rec), cudaSuccess);
  cudaGraphExec_t exec = nullptr;
  ASSERT_EQ(cudaGraphInstantiate(&exec, graph, 0), cudaSuccess);

  h.host.fn = count_ten;
  ASSERT_EQ(cudaGraphExecNodeSetParams(exec, host, &h), cudaSuccess);
  ASSERT_EQ(cudaGraphLaunch(exec, nullptr), cudaSuccess);
  ASSERT_EQ(cudaStreamSynchronize(nullptr), cudaSuccess);
  EXPECT_EQ(calls, 10);

  rec.eventRecord.event = second;
  ASSERT_EQ(cudaGraphNodeSetParams(record, &rec), cudaSuccess);
  cudaGraphNodeParams p{};
  ASSERT_EQ(cudaGraphNodeGetParams(record, &p), cudaSuccess);
  EXPECT_EQ(p.eventRecord.event, second);
  ASSERT_EQ(cudaGraphNodeGetParams(host, &p), cudaSuccess);
  EXPECT_EQ(p.host.fn, &count_one);  // the exec-graph change did not reach the graph
  EXPECT_EQ(cudaGraphExecDestroy(exec), cudaSuccess);
  EXPECT_EQ(cudaGraphDestroy(graph), cudaSuccess);
  EXPECT_EQ(cudaEventDestroy(first), cudaSuccess);
  EXPECT_EQ(cudaEventDestroy(second), cudaSuccess);
}

TEST(GraphNodeParams, WrongTypeOrMissingParametersAreInvalidValue) {
  FillThenScale g(2.0f, 3.0f);
  cudaGraphExec_t exec = nullptr;
  ASSERT_EQ(cudaGraphInstantiate(&exec, g.graph, 0), cudaSuccess);
  cudaGraphNodeParams m = memset_params(g.x, 9.0f);
  EXPECT_EQ(cudaGraphNodeSetParams(g.kernel, &m), cudaErrorInvalidValue);  // a memset for a kernel node
  EXPECT_EQ(cudaGraphExecNodeSetParams(exec, g.kernel, &m), cudaErrorInvalidValue);
  EXPECT_EQ(cudaGraphNodeSetParams(g.memset, nullptr), cudaErrorInvalidValue);
  EXPECT_EQ(cudaGraphExecNodeSetParams(exec, g.memset, nullptr), cudaErrorInvalidValue);
  EXPECT_EQ(cudaGraphNodeGetParams(g.memset, nullptr), cudaErrorInvalidValue);
  EXPECT_EQ(cudaGraphNodeSetParams(nullptr, &m), cudaErrorInvalidValue);
  EXPECT_EQ(cudaGraphExecNodeSetParams(nullptr, g.memset, &m), cudaErrorInvalidValue);
  cudaGraphNodeParams p{};
  EXPECT_EQ(cudaGraphNodeGetParams(nullptr, &p), cudaErrorInvalidValue);
  cudaGraphNodeParams bad = memset_params(g.x, 9.0f);
  bad.memset.elementSize = 3;  // refused by the memset setter the generic one goes through
  EXPECT_EQ(cudaGraphNodeSetParams(g.memset, &bad), cudaErrorInvalidValue);
  // A node added after instantiation has no counterpart in the executable graph.
  cudaGraphNode_t later = nullptr;
  ASSERT_EQ(cudaGraphAddNode(&later, g.graph, nullptr, nullptr, 0, &m), cudaSuccess);
  EXPECT_EQ(cudaGraphExecNodeSetParams(exec, later, &m), cudaErrorInvalidValue);
  // Nothing changed: the first launch runs what the graph was made with.
  g.expect_result(exec, 2.0f, 3.0f);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue);
  EXPECT_EQ(cudaGraphExecDestroy(exec), cudaSuccess);
}

TEST(GraphNodeParams, MemoryNodesCannotChange) {
  cudaGraph_t graph = nullptr;
  ASSERT_EQ(cudaGraphCreate(&graph, 0), cudaSuccess);
  cudaGraphNodeParams alloc{};
  alloc.type = cudaGraphNodeTypeMemAlloc;
  alloc.alloc.poolProps.allocType = cudaMemAllocationTypePinned;
  alloc.alloc.poolProps.location = cudaMemLocation{cudaMemLocationTypeDevice, 0};
  alloc.alloc.bytesize = 4096;
  cudaGraphNode_t node = nullptr;
  ASSERT_EQ(cudaGraphAddNode(&node, graph, nullptr, nullptr, 0, &alloc), cudaSuccess);
  ASSERT_NE(alloc.alloc.dptr, nullptr);
  cudaGraphNodeParams p{};
  ASSERT_EQ(cudaGraphNodeGetParams(node, &p), cudaSuccess);
  EXPECT_EQ(p.type, cudaGraphNodeTypeMemAlloc);
  EXPECT_EQ(p.alloc.dptr, alloc.alloc.dptr);
  EXPECT_EQ(p.alloc.bytesize, 4096u);
  cudaGraphExec_t exec = nullptr;
  ASSERT_EQ(cudaGraphInstantiate(&exec, graph, 0), cudaSuccess);
  EXPECT_EQ(cudaGraphNodeSetParams(node, &p), cudaErrorNotSupported);
  EXPECT_EQ(cudaGraphExecNodeSetParams(exec, node, &p), cudaErrorNotSupported);
  EXPECT_EQ(cudaGetLastError(), cudaErrorNotSupported);
  EXPECT_EQ(cudaGraphExecDestroy(exec), cudaSuccess);
  EXPECT_EQ(cudaGraphDestroy(graph), cudaSuccess);
}

}  // namespace
}  // namespace lockstep::test
