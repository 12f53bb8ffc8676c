// cudaStreamBeginCaptureToGraph: a stream captures into a graph the program made (or a
// conditional body), the first node after the dependencies it names; cudaStreamEndCapture hands
// the same graph back, and a failed capture destroys it. Refused as CUDA refuses: the legacy
// stream, a stream capturing already, an unknown graph, dependencies outside it. Instantiating
// during a global capture invalidates it; in relaxed mode the target instantiates what it holds
// so far. The error codes where CUDA's documentation is silent (repeated dependencies, destroying
// the target during the capture, a failed capture's graph, instantiating during the capture) are
// those CUDA 13.0 gave on an H200 (driver 580; bench/hw/graph_capture_check.cu).
#include <gtest/gtest.h>

#include "cudart/graph_stream_fixture.h"

extern "C" cudaError_t cudaStreamBeginCaptureToGraph_ptsz(cudaStream_t stream, cudaGraph_t graph,
                                                          const cudaGraphNode_t* dependencies,
                                                          const cudaGraphEdgeData* dependencyData,
                                                          size_t numDependencies, cudaStreamCaptureMode mode);

namespace lockstep::test {
namespace {

// A graph holding one memset of 0x11 (`first`), a stream and the bytes they fill.
struct Target : GraphAndStream {
  Target() { first = add_memsets(graph, dst, 0x11); }
  cudaGraphNode_t first = nullptr;
};

TEST(GraphCaptureToGraph, NodesJoinTheGraphAfterTheDependencies) {
  Target t;
  ASSERT_EQ(cudaStreamBeginCaptureToGraph(t.stream, t.graph, &t.first, nullptr, 1, cudaStreamCaptureModeGlobal),
            cudaSuccess);
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  cudaGraph_t capturing = nullptr;
  const cudaGraphNode_t* deps = nullptr;
  size_t num_deps = 0;
  ASSERT_EQ(cudaStreamGetCaptureInfo(t.stream, &status, nullptr, &capturing, &deps, nullptr, &num_deps), cudaSuccess);
  EXPECT_EQ(status, cudaStreamCaptureStatusActive);
  EXPECT_EQ(capturing, t.graph);
  ASSERT_EQ(num_deps, 1u);
  EXPECT_EQ(deps[0], t.first);
  ASSERT_EQ(cudaMemsetAsync(t.dst, 0x22, kMemsetBytes, t.stream), cudaSuccess);
  ASSERT_EQ(cudaMemsetAsync(t.dst, 0x33, kMemsetBytes, t.stream), cudaSuccess);
  cudaGraph_t ended = nullptr;
  ASSERT_EQ(cudaStreamEndCapture(t.stream, &ended), cudaSuccess);
  EXPECT_EQ(ended, t.graph);
  ASSERT_EQ(cudaStreamIsCapturing(t.stream, &status), cudaSuccess);
  EXPECT_EQ(status, cudaStreamCaptureStatusNone);
  EXPECT_EQ(node_count(t.graph), 3);
  EXPECT_EQ(t.edges(), 2u);  // first -> 0x22 -> 0x33
  size_t roots = 0;
  ASSERT_EQ(cudaGraphGetRootNodes(t.graph, nullptr, &roots), cudaSuccess);
  EXPECT_EQ(roots, 1u);
  cudaGraphExec_t exec = nullptr;
  ASSERT_EQ(cudaGraphInstantiate(&exec, t.graph, 0), cudaSuccess);
  expect_filled(exec, t.dst, 0x33);
  EXPECT_EQ(cudaGraphExecDestroy(exec), cudaSuccess);
}

TEST(GraphCaptureToGraph, WithoutDependenciesTheNodesAreNewRoots) {
  Target t;
  const cudaGraphEdgeData plain{};  // default edge data is accepted
  ASSERT_EQ(cudaStreamBeginCaptureToGraph_ptsz(t.stream, t.graph, nullptr, &plain, 0, cudaStreamCaptureModeRelaxed),
            cudaSuccess);
  ASSERT_EQ(cudaMemsetAsync(t.dst, 0x22, kMemsetBytes, t.stream), cudaSuccess);
  cudaGraph_t ended = nullptr;
  ASSERT_EQ(cudaStreamEndCapture(t.stream, &ended), cudaSuccess);
  EXPECT_EQ(ended, t.graph);
  EXPECT_EQ(node_count(t.graph), 2);
  EXPECT_EQ(t.edges(), 0u);
  // A second capture into the same graph, after both nodes.
  cudaGraphNode_t nodes[2] = {};
  size_t count = 2;
  ASSERT_EQ(cudaGraphGetNodes(t.graph, nodes, &count), cudaSuccess);
  const cudaGraphEdgeData edges[2] = {};
  ASSERT_EQ(cudaStreamBeginCaptureToGraph(t.stream, t.graph, nodes, edges, 2, cudaStreamCaptureModeThreadLocal),
            cudaSuccess);
  ASSERT_EQ(cudaMemsetAsync(t.dst, 0x44, kMemsetBytes, t.stream), cudaSuccess);
  ASSERT_EQ(cudaStreamEndCapture(t.stream, &ended), cudaSuccess);
  EXPECT_EQ(node_count(t.graph), 3);
  EXPECT_EQ(t.edges(), 2u);
  cudaGraphExec_t exec = nullptr;
  ASSERT_EQ(cudaGraphInstantiate(&exec, t.graph, 0), cudaSuccess);
  expect_filled(exec, t.dst, 0x44);
  EXPECT_EQ(cudaGraphExecDestroy(exec), cudaSuccess);
}

TEST(GraphCaptureToGraph, RefusedAsCudaRefuses) {
  Target t;
  const auto begin = [&](cudaStream_t s, cudaGraph_t g, const cudaGraphNode_t* deps, size_t n,
                         cudaStreamCaptureMode mode = cudaStreamCaptureModeGlobal) {
    return cudaStreamBeginCaptureToGraph(s, g, deps, nullptr, n, mode);
  };
  EXPECT_EQ(begin(nullptr, t.graph, nullptr, 0), cudaErrorStreamCaptureUnsupported);
  EXPECT_EQ(begin(cudaStreamLegacy, t.graph, nullptr, 0), cudaErrorStreamCaptureUnsupported);
  int not_a_handle = 0;
  EXPECT_EQ(begin(reinterpret_cast<cudaStream_t>(&not_a_handle), t.graph, nullptr, 0),
            cudaErrorInvalidResourceHandle);
  EXPECT_EQ(begin(t.stream, nullptr, nullptr, 0), cudaErrorInvalidValue);
  EXPECT_EQ(begin(t.stream, reinterpret_cast<cudaGraph_t>(&not_a_handle), nullptr, 0), cudaErrorInvalidValue);
  EXPECT_EQ(begin(t.stream, t.graph, nullptr, 1), cudaErrorInvalidValue);
  EXPECT_EQ(begin(t.stream, t.graph, &t.first, 1, static_cast<cudaStreamCaptureMode>(7)), cudaErrorInvalidValue);
  Target other;
  EXPECT_EQ(begin(t.stream, t.graph, &other.first, 1), cudaErrorInvalidValue);  // a node of another graph
  cudaGraphEdgeData port{};
  port.from_port = 1;
  EXPECT_EQ(cudaStreamBeginCaptureToGraph(t.stream, t.graph, &t.first, &port, 1, cudaStreamCaptureModeGlobal),
            cudaErrorNotSupported);
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusActive;
  ASSERT_EQ(cudaStreamIsCapturing(t.stream, &status), cudaSuccess);
  EXPECT_EQ(status, cudaStreamCaptureStatusNone);  // nothing began
  // Once capturing, neither form begins again, and the graph cannot be destroyed until the end.
  ASSERT_EQ(begin(t.stream, t.graph, nullptr, 0), cudaSuccess);
  EXPECT_EQ(begin(t.stream, other.graph, nullptr, 0), cudaErrorIllegalState);
  EXPECT_EQ(cudaStreamBeginCapture(t.stream, cudaStreamCaptureModeGlobal), cudaErrorIllegalState);
  EXPECT_EQ(cudaGraphDestroy(t.graph), cudaErrorIllegalState);
  cudaGraph_t ended = nullptr;
  ASSERT_EQ(cudaStreamEndCapture(t.stream, &ended), cudaSuccess);
  EXPECT_EQ(ended, t.graph);
  EXPECT_EQ(node_count(t.graph), 1);  // nothing captured
  cudaGetLastError();
}

// Instantiating any graph is a potentially unsafe call while a global (or thread-local) capture
// runs: it fails and invalidates the capture, whose end then fails (CUDA 13 on an H200:
// bench/hw/results/graph-capture-h200-2026-11-26.txt).
TEST(GraphCaptureToGraph, InstantiatingDuringAGlobalCaptureInvalidatesIt) {
  Target t, other;
  ASSERT_EQ(cudaStreamBeginCaptureToGraph(t.stream, t.graph, &t.first, nullptr, 1, cudaStreamCaptureModeGlobal),
            cudaSuccess);
  ASSERT_EQ(cudaMemsetAsync(t.dst, 0x22, kMemsetBytes, t.stream), cudaSuccess);
  int untouched = 0;
  cudaGraphExec_t exec = reinterpret_cast<cudaGraphExec_t>(&untouched);
  EXPECT_EQ(cudaGraphInstantiate(&exec, t.graph, 0), cudaErrorStreamCaptureUnsupported);
  EXPECT_EQ(cudaGetLastError(), cudaErrorStreamCaptureUnsupported);
  EXPECT_EQ(cudaGraphInstantiateWithFlags(&exec, t.graph, cudaGraphInstantiateFlagAutoFreeOnLaunch),
            cudaErrorStreamCaptureUnsupported);
  cudaGraphInstantiateParams params{};
  params.result_out = cudaGraphInstantiateSuccess;
  EXPECT_EQ(cudaGraphInstantiateWithParams(&exec, t.graph, &params), cudaErrorStreamCaptureUnsupported);
  EXPECT_EQ(params.result_out, cudaGraphInstantiateError);
  EXPECT_EQ(params.errNode_out, nullptr);
  EXPECT_EQ(exec, reinterpret_cast<cudaGraphExec_t>(&untouched));
  cudaGraphExec_t other_exec = nullptr;
  EXPECT_EQ(cudaGraphInstantiate(&other_exec, other.graph, 0), cudaErrorStreamCaptureUnsupported);
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  ASSERT_EQ(cudaStreamIsCapturing(t.stream, &status), cudaSuccess);
  EXPECT_EQ(status, cudaStreamCaptureStatusInvalidated);
  cudaGraph_t ended = nullptr;
  EXPECT_EQ(cudaStreamEndCapture(t.stream, &ended), cudaErrorStreamCaptureInvalidated);
  EXPECT_EQ(ended, nullptr);
  cudaGetLastError();
  // With no capture running, the other graph instantiates.
  ASSERT_EQ(cudaGraphInstantiate(&other_exec, other.graph, 0), cudaSuccess);
  EXPECT_EQ(cudaGraphExecDestroy(other_exec), cudaSuccess);
}

// In relaxed mode the graph a stream captures into instantiates what it holds so far (the
// documentation says it "will not be instantiable until the user calls cudaStreamEndCapture";
// CUDA 13 on an H200 instantiates it), and the capture goes on.
TEST(GraphCaptureToGraph, InRelaxedModeTheTargetInstantiatesWhatItHoldsSoFar) {
  Target t;
  ASSERT_EQ(cudaStreamBeginCaptureToGraph(t.stream, t.graph, &t.first, nullptr, 1, cudaStreamCaptureModeRelaxed),
            cudaSuccess);
  ASSERT_EQ(cudaMemsetAsync(t.dst, 0x22, kMemsetBytes, t.stream), cudaSuccess);
  cudaGraphExec_t early = nullptr;
  ASSERT_EQ(cudaGraphInstantiate(&early, t.graph, 0), cudaSuccess);
  ASSERT_EQ(cudaMemsetAsync(t.dst, 0x33, kMemsetBytes, t.stream), cudaSuccess);
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  ASSERT_EQ(cudaStreamIsCapturing(t.stream, &status), cudaSuccess);
  EXPECT_EQ(status, cudaStreamCaptureStatusActive);
  cudaGraph_t ended = nullptr;
  ASSERT_EQ(cudaStreamEndCapture(t.stream, &ended), cudaSuccess);
  EXPECT_EQ(ended, t.graph);
  expect_filled(early, t.dst, 0x22);  // the snapshot: 0x11, then 0x22
  cudaGraphExec_t exec = nullptr;
  ASSERT_EQ(cudaGraphInstantiate(&exec, t.graph, 0), cudaSuccess);
  expect_filled(exec, t.dst, 0x33);
  EXPECT_EQ(cudaGraphExecDestroy(early), cudaSuccess);
  EXPECT_EQ(cudaGraphExecDestroy(exec), cudaSuccess);
}

TEST(GraphCaptureToGraph, ARepeatedDependencyCountsOnce) {
  Target t;
  const cudaGraphNode_t twice[2] = {t.first, t.first};
  ASSERT_EQ(cudaStreamBeginCaptureToGraph(t.stream, t.graph, twice, nullptr, 2, cudaStreamCaptureModeGlobal),
            cudaSuccess);
  size_t num_deps = 0;
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  ASSERT_EQ(cudaStreamGetCaptureInfo(t.stream, &status, nullptr, nullptr, nullptr, nullptr, &num_deps), cudaSuccess);
  EXPECT_EQ(num_deps, 1u);
  ASSERT_EQ(cudaMemsetAsync(t.dst, 0x22, kMemsetBytes, t.stream), cudaSuccess);
  cudaGraph_t ended = nullptr;
  ASSERT_EQ(cudaStreamEndCapture(t.stream, &ended), cudaSuccess);
  EXPECT_EQ(node_count(t.graph), 2);
  EXPECT_EQ(t.edges(), 1u);
}

TEST(GraphCaptureToGraph, AFailedCaptureDestroysTheGraph) {
  Target t;
  ASSERT_EQ(cudaStreamBeginCaptureToGraph(t.stream, t.graph, &t.first, nullptr, 1, cudaStreamCaptureModeGlobal),
            cudaSuccess);
  ASSERT_EQ(cudaMemsetAsync(t.dst, 0x22, kMemsetBytes, t.stream), cudaSuccess);
  // A synchronous call during a global capture invalidates it.
  EXPECT_EQ(cudaMemset(t.dst, 0, kMemsetBytes), cudaErrorStreamCaptureUnsupported);
  cudaGraph_t ended = t.graph;
  EXPECT_EQ(cudaStreamEndCapture(t.stream, &ended), cudaErrorStreamCaptureInvalidated);
  EXPECT_EQ(ended, nullptr);
  EXPECT_EQ(node_count(t.graph), -1);  // gone, though the program made it
  EXPECT_EQ(cudaGraphDestroy(t.graph), cudaErrorInvalidValue);
  t.graph = nullptr;
  cudaGetLastError();
}

TEST(GraphCaptureToGraph, DestroyingANodeTheStreamWaitsOnReleasesIt) {
  Target t;
  ASSERT_EQ(cudaStreamBeginCaptureToGraph(t.stream, t.graph, &t.first, nullptr, 1, cudaStreamCaptureModeGlobal),
            cudaSuccess);
  ASSERT_EQ(cudaGraphDestroyNode(t.first), cudaSuccess);
  size_t num_deps = 1;
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  ASSERT_EQ(cudaStreamGetCaptureInfo(t.stream, &status, nullptr, nullptr, nullptr, nullptr, &num_deps), cudaSuccess);
  EXPECT_EQ(num_deps, 0u);
  ASSERT_EQ(cudaMemsetAsync(t.dst, 0x22, kMemsetBytes, t.stream), cudaSuccess);
  cudaGraph_t ended = nullptr;
  ASSERT_EQ(cudaStreamEndCapture(t.stream, &ended), cudaSuccess);
  EXPECT_EQ(node_count(t.graph), 1);
  EXPECT_EQ(t.edges(), 0u);
}

// CUDA's way of filling a conditional body from a stream.
TEST(GraphCaptureToGraph, CapturesIntoAConditionalBody) {
  Target t;
  cudaGraphConditionalHandle handle = 0;
  ASSERT_EQ(cudaGraphConditionalHandleCreate(&handle, t.graph, 1, cudaGraphCondAssignDefault), cudaSuccess);
  cudaGraphNodeParams p{};
  p.type = cudaGraphNodeTypeConditional;
  p.conditional.handle = handle;
  p.conditional.type = cudaGraphCondTypeIf;
  p.conditional.size = 1;
  cudaGraphNode_t node = nullptr;
  ASSERT_EQ(cudaGraphAddNode(&node, t.graph, &t.first, nullptr, 1, &p), cudaSuccess);
  const cudaGraph_t body = p.conditional.phGraph_out[0];
  ASSERT_EQ(cudaStreamBeginCaptureToGraph(t.stream, body, nullptr, nullptr, 0, cudaStreamCaptureModeRelaxed),
            cudaSuccess);
  ASSERT_EQ(cudaMemsetAsync(t.dst, 0x55, kMemsetBytes, t.stream), cudaSuccess);
  // The body, its node and the graph holding them stay until the capture ends.
  EXPECT_EQ(cudaGraphDestroyNode(node), cudaErrorIllegalState);
  EXPECT_EQ(cudaGraphDestroy(t.graph), cudaErrorIllegalState);
  // The graph holding the body instantiates meanwhile (relaxed mode); the body runs only as part
  // of its node (CUDA 13 on an H200).
  cudaGraphExec_t early = nullptr;
  EXPECT_EQ(cudaGraphInstantiate(&early, t.graph, 0), cudaSuccess);
  EXPECT_EQ(cudaGraphExecDestroy(early), cudaSuccess);
  EXPECT_EQ(cudaGraphInstantiate(&early, body, 0), cudaErrorNotSupported);
  cudaGraph_t ended = nullptr;
  ASSERT_EQ(cudaStreamEndCapture(t.stream, &ended), cudaSuccess);
  EXPECT_EQ(ended, body);
  EXPECT_EQ(node_count(body), 1);
  cudaGraphExec_t exec = nullptr;
  ASSERT_EQ(cudaGraphInstantiate(&exec, t.graph, 0), cudaSuccess);
  expect_filled(exec, t.dst, 0x55);
  EXPECT_EQ(cudaGraphExecDestroy(exec), cudaSuccess);
  cudaGetLastError();
}

// A body belongs to its node, so a failed capture into one cannot destroy it: it keeps what was
// captured, and the graph holding it stays whole.
TEST(GraphCaptureToGraph, AFailedCaptureLeavesABodyToItsNode) {
  Target t;
  cudaGraphConditionalHandle handle = 0;
  ASSERT_EQ(cudaGraphConditionalHandleCreate(&handle, t.graph, 1, cudaGraphCondAssignDefault), cudaSuccess);
  cudaGraphNodeParams p{};
  p.type = cudaGraphNodeTypeConditional;
  p.conditional.handle = handle;
  p.conditional.type = cudaGraphCondTypeIf;
  p.conditional.size = 1;
  cudaGraphNode_t node = nullptr;
  ASSERT_EQ(cudaGraphAddNode(&node, t.graph, &t.first, nullptr, 1, &p), cudaSuccess);
  const cudaGraph_t body = p.conditional.phGraph_out[0];
  ASSERT_EQ(cudaStreamBeginCaptureToGraph(t.stream, body, nullptr, nullptr, 0, cudaStreamCaptureModeGlobal),
            cudaSuccess);
  ASSERT_EQ(cudaMemsetAsync(t.dst, 0x55, kMemsetBytes, t.stream), cudaSuccess);
  EXPECT_EQ(cudaMemset(t.dst, 0, kMemsetBytes), cudaErrorStreamCaptureUnsupported);
  cudaGraph_t ended = body;
  EXPECT_EQ(cudaStreamEndCapture(t.stream, &ended), cudaErrorStreamCaptureInvalidated);
  EXPECT_EQ(ended, nullptr);
  EXPECT_EQ(node_count(body), 1);
  EXPECT_EQ(node_count(t.graph), 2);
  cudaGraphExec_t exec = nullptr;
  ASSERT_EQ(cudaGraphInstantiate(&exec, t.graph, 0), cudaSuccess);
  expect_filled(exec, t.dst, 0x55);
  EXPECT_EQ(cudaGraphExecDestroy(exec), cudaSuccess);
  cudaGetLastError();
}

}  // namespace
}  // namespace lockstep::test
