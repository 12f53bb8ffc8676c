// Stream capture in the Runtime: captured operations become a chain of nodes instead of
// running; events fork streams into a capture and join them back; a capture ends unjoined or
// invalidated with CUDA's errors; synchronous calls during a global capture are refused, by each
// host thread's capture mode.
#include <thread>

#include "runtime/graph_test_runtime.h"

namespace lockstep::test {
namespace {

using runtime::Graph;

class GraphCapture : public GraphRuntime {
 protected:
  // Begins a capture on a new stream into a new graph of the table.
  void* begin(cudaStreamCaptureMode mode = cudaStreamCaptureModeGlobal) {
    void* stream = runtime_.create_stream();
    graph_ = &runtime_.graph_table().create();
    EXPECT_EQ(runtime_.captures().begin(stream, mode, *graph_), cudaSuccess);
    return stream;
  }
  // cudaStreamEndCapture of `stream` called from a thread of its own.
  cudaError_t end_on_another_thread(void* stream) {
    cudaError_t result = cudaErrorUnknown;
    std::thread([&] {
      Graph* ended = nullptr;
      result = runtime_.captures().end(stream, ended);
    }).join();
    return result;
  }
  Graph* graph_ = nullptr;
};

TEST_F(GraphCapture, CapturedOperationsChainAndRunOnlyAtLaunch) {
  float* x = upload({1, 1, 1, 1});
  float a = 2.0f;
  int n = 4;
  std::vector<float> host(4, 0.0f);
  void* stream = begin();
  EXPECT_TRUE(runtime_.capturing(stream));
  EXPECT_EQ(runtime_.captures().status(stream), cudaStreamCaptureStatusActive);
  ASSERT_EQ(runtime_.capture(stream, scale_node(x, a, n)), cudaSuccess);
  ASSERT_EQ(runtime_.capture(stream, scale_node(x, a, n)), cudaSuccess);
  ASSERT_EQ(runtime_.capture(stream, runtime::memcpy_1d_op(host.data(), x, 16, cudaMemcpyDeviceToHost)), cudaSuccess);
  ASSERT_EQ(runtime_.captures().dependencies(stream).size(), 1u);
  EXPECT_EQ(runtime_.captures().dependencies(stream)[0], &graph_->node(2));
  EXPECT_EQ(download(x, 4), (std::vector<float>{1, 1, 1, 1}));  // nothing ran yet

  EXPECT_TRUE(runtime_.captures().targets(graph_));
  const cudaGraphEdgeData* edges = runtime_.captures().default_edge_data(2);
  EXPECT_EQ(edges[1].from_port, 0);
  EXPECT_EQ(edges[1].type, cudaGraphDependencyTypeDefault);
  Graph* ended = nullptr;
  ASSERT_EQ(runtime_.captures().end(stream, ended), cudaSuccess);
  EXPECT_EQ(ended, graph_);
  EXPECT_FALSE(runtime_.captures().targets(graph_));
  EXPECT_FALSE(runtime_.capturing(stream));
  EXPECT_EQ(graph_->edges(), (std::vector<std::pair<size_t, size_t>>{{0, 1}, {1, 2}}));
  ASSERT_EQ(run(*graph_), cudaSuccess);
  EXPECT_EQ(host, (std::vector<float>{7, 10, 13, 16}));  // (1 * 2 + c) * 2 + c, c = 1, 2, 3, 4
}

TEST_F(GraphCapture, EventsForkAndJoinStreams) {
  void* origin = begin();
  void* side = runtime_.create_stream();
  void* fork = runtime_.create_event();
  void* join = runtime_.create_event();
  ASSERT_EQ(runtime_.capture(origin, runtime::EmptyNodeOp{}), cudaSuccess);  // 0
  runtime_.captures().record_event(fork, origin);
  ASSERT_TRUE(runtime_.captures().event_captured(fork));
  ASSERT_EQ(runtime_.captures().wait_event(side, fork), cudaSuccess);
  EXPECT_TRUE(runtime_.capturing(side));
  ASSERT_EQ(runtime_.capture(side, runtime::EmptyNodeOp{}), cudaSuccess);    // 1, after 0
  ASSERT_EQ(runtime_.capture(origin, runtime::EmptyNodeOp{}), cudaSuccess);  // 2, after 0
  runtime_.captures().record_event(join, side);
  ASSERT_EQ(runtime_.captures().wait_event(origin, join), cudaSuccess);
  ASSERT_EQ(runtime_.capture(origin, runtime::EmptyNodeOp{}), cudaSuccess);  // 3, after 2 and 1
  Graph* ended = nullptr;
  ASSERT_EQ(runtime_.captures().end(origin, ended), cudaSuccess);
  EXPECT_FALSE(runtime_.capturing(side));
  EXPECT_FALSE(runtime_.captures().event_captured(fork));
  EXPECT_EQ(ended->edges(), (std::vector<std::pair<size_t, size_t>>{{0, 1}, {0, 2}, {2, 3}, {1, 3}}));
}

TEST_F(GraphCapture, AForkedStreamMustBeJoinedBeforeTheEnd) {
  void* origin = begin();
  void* side = runtime_.create_stream();
  void* fork = runtime_.create_event();
  runtime_.captures().record_event(fork, origin);
  ASSERT_EQ(runtime_.captures().wait_event(side, fork), cudaSuccess);
  ASSERT_EQ(runtime_.capture(side, runtime::EmptyNodeOp{}), cudaSuccess);
  ASSERT_EQ(runtime_.capture(origin, runtime::EmptyNodeOp{}), cudaSuccess);
  Graph* ended = nullptr;
  EXPECT_EQ(runtime_.captures().end(side, ended), cudaErrorStreamCaptureUnmatched);
  EXPECT_EQ(runtime_.captures().end(origin, ended), cudaErrorStreamCaptureUnjoined);
  EXPECT_EQ(ended, graph_);
  EXPECT_FALSE(runtime_.capturing(side));
  EXPECT_EQ(runtime_.captures().end(origin, ended), cudaErrorIllegalState);
}

TEST_F(GraphCapture, StreamsOfTwoCapturesDoNotMerge) {
  void* first = begin();
  void* second = begin();
  void* event = runtime_.create_event();
  runtime_.captures().record_event(event, first);
  EXPECT_EQ(runtime_.captures().wait_event(second, event), cudaErrorStreamCaptureMerge);
  EXPECT_EQ(runtime_.captures().begin(first, cudaStreamCaptureModeGlobal, *graph_), cudaErrorIllegalState);
}

TEST_F(GraphCapture, SynchronousCallsInvalidateAGlobalCapture) {
  void* stream = begin();
  EXPECT_EQ(runtime_.check_capture_allows("cudaMemcpy"), cudaErrorStreamCaptureUnsupported);
  EXPECT_EQ(messages(), "lockstep: cudaMemcpy is not permitted while a stream captures; the capture is invalidated\n");
  EXPECT_EQ(runtime_.take_last_error(), cudaErrorStreamCaptureUnsupported);
  EXPECT_EQ(runtime_.captures().status(stream), cudaStreamCaptureStatusInvalidated);
  EXPECT_EQ(runtime_.capture(stream, runtime::EmptyNodeOp{}), cudaErrorStreamCaptureInvalidated);
  Graph* ended = nullptr;
  EXPECT_EQ(runtime_.captures().end(stream, ended), cudaErrorStreamCaptureInvalidated);
  EXPECT_EQ(runtime_.check_capture_allows("cudaMemcpy"), cudaSuccess);  // no capture any more
}

TEST_F(GraphCapture, RelaxedModesAllowSynchronousCalls) {
  void* relaxed = begin(cudaStreamCaptureModeRelaxed);
  EXPECT_EQ(runtime_.check_capture_allows("cudaDeviceSynchronize"), cudaSuccess);
  void* global = begin(cudaStreamCaptureModeGlobal);
  EXPECT_EQ(runtime_.captures().exchange_mode(cudaStreamCaptureModeRelaxed), cudaStreamCaptureModeGlobal);
  EXPECT_EQ(runtime_.check_capture_allows("cudaDeviceSynchronize"), cudaSuccess);
  EXPECT_EQ(runtime_.captures().exchange_mode(cudaStreamCaptureModeGlobal), cudaStreamCaptureModeRelaxed);
  EXPECT_EQ(runtime_.check_capture_allows("cudaDeviceSynchronize"), cudaErrorStreamCaptureUnsupported);
  EXPECT_EQ(runtime_.captures().status(relaxed), cudaStreamCaptureStatusActive);
  EXPECT_EQ(runtime_.captures().status(global), cudaStreamCaptureStatusInvalidated);
}

// The capture modes are per host thread, and a thread-local capture binds only the thread that
// began it (cudaThreadExchangeStreamCaptureMode's rules).
TEST_F(GraphCapture, ModesAndThreadLocalCapturesBelongToTheirThread) {
  void* mine = begin(cudaStreamCaptureModeThreadLocal);
  cudaError_t other_thread = cudaErrorUnknown;
  std::thread([&] { other_thread = runtime_.check_capture_allows("cudaMalloc"); }).join();
  EXPECT_EQ(other_thread, cudaSuccess);  // another thread's thread-local capture binds nobody else
  EXPECT_EQ(runtime_.captures().status(mine), cudaStreamCaptureStatusActive);
  // A mode set on another thread leaves this one's global.
  std::thread([&] {
    EXPECT_EQ(runtime_.captures().exchange_mode(cudaStreamCaptureModeRelaxed), cudaStreamCaptureModeGlobal);
  }).join();
  EXPECT_EQ(runtime_.check_capture_allows("cudaMalloc"), cudaErrorStreamCaptureUnsupported);
  EXPECT_EQ(runtime_.captures().status(mine), cudaStreamCaptureStatusInvalidated);
  runtime_.take_last_error();
}

TEST_F(GraphCapture, AGlobalCaptureBindsEveryThreadInGlobalMode) {
  void* stream = begin(cudaStreamCaptureModeGlobal);
  cudaError_t thread_local_mode = cudaErrorUnknown;
  std::thread([&] {
    runtime_.captures().exchange_mode(cudaStreamCaptureModeThreadLocal);
    thread_local_mode = runtime_.check_capture_allows("cudaMalloc");
  }).join();
  EXPECT_EQ(thread_local_mode, cudaSuccess);  // it has no capture of its own
  EXPECT_EQ(runtime_.captures().status(stream), cudaStreamCaptureStatusActive);
  // Not relaxed: only the thread that began it may end it (the capture goes on).
  EXPECT_EQ(end_on_another_thread(stream), cudaErrorStreamCaptureWrongThread);
  EXPECT_EQ(runtime_.captures().status(stream), cudaStreamCaptureStatusActive);
  cudaError_t global_mode = cudaErrorUnknown;
  std::thread([&] { global_mode = runtime_.check_capture_allows("cudaMalloc"); }).join();
  EXPECT_EQ(global_mode, cudaErrorStreamCaptureUnsupported);
  EXPECT_EQ(runtime_.captures().status(stream), cudaStreamCaptureStatusInvalidated);
  Graph* ended = nullptr;
  EXPECT_EQ(runtime_.captures().end(stream, ended), cudaErrorStreamCaptureInvalidated);
  runtime_.take_last_error();
}

TEST_F(GraphCapture, ARelaxedCaptureEndsOnAnyThread) {
  void* stream = begin(cudaStreamCaptureModeRelaxed);
  EXPECT_EQ(end_on_another_thread(stream), cudaSuccess);
}

TEST_F(GraphCapture, GraphTableValidatesDependencies) {
  Graph& g = runtime_.graph_table().create();
  Graph& other = runtime_.graph_table().create();
  runtime::GraphNode* a = nullptr;
  runtime::GraphNode* b = nullptr;
  ASSERT_EQ(runtime_.graph_table().add_node(g, runtime::EmptyNodeOp{}, {}, a), cudaSuccess);
  EXPECT_EQ(runtime_.graph_table().add_node(g, runtime::EmptyNodeOp{}, {a, a}, b), cudaErrorInvalidValue);
  EXPECT_EQ(runtime_.graph_table().add_node(other, runtime::EmptyNodeOp{}, {a}, b), cudaErrorInvalidValue);
  EXPECT_EQ(g.size(), 1u);
  EXPECT_EQ(other.size(), 0u);
  Graph* owner = nullptr;
  EXPECT_EQ(runtime_.graph_table().node(a, &owner), a);
  EXPECT_EQ(owner, &g);
  Graph& copy = runtime_.graph_table().clone(g);
  EXPECT_EQ(runtime_.graph_table().node(&copy.node(0), &owner), &copy.node(0));
  EXPECT_EQ(owner, &copy);
  EXPECT_TRUE(runtime_.graph_table().destroy(&g));
  EXPECT_EQ(runtime_.graph_table().node(a), nullptr);
  EXPECT_FALSE(runtime_.graph_table().destroy(&g));
}

}  // namespace
}  // namespace lockstep::test
