#pragma once
// The setup the graph tests share: device bytes for memset nodes to fill, an empty graph and a
// stream to capture into it. Teardown ends a capture a failed test left open (so the graph can
// go), frees everything and clears the error the teardown may leave.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include "cudart/graph_memset_util.h"

namespace lockstep::test {

struct GraphAndStream {
  GraphAndStream() {
    EXPECT_EQ(cudaMalloc(&dst, kMemsetBytes), cudaSuccess);
    EXPECT_EQ(cudaStreamCreate(&stream), cudaSuccess);
    EXPECT_EQ(cudaGraphCreate(&graph, 0), cudaSuccess);
  }
  ~GraphAndStream() {
    cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
    if (cudaStreamIsCapturing(stream, &status) == cudaSuccess && status != cudaStreamCaptureStatusNone) {
      cudaGraph_t ended = nullptr;
      cudaStreamEndCapture(stream, &ended);
    }
    cudaStreamDestroy(stream);
    cudaGraphDestroy(graph);  // a test that destroyed it sets it to nullptr: refused, harmless
    cudaFree(dst);
    cudaGetLastError();
  }
  GraphAndStream(const GraphAndStream&) = delete;
  GraphAndStream& operator=(const GraphAndStream&) = delete;

  size_t edges() const {
    size_t count = 0;
    EXPECT_EQ(cudaGraphGetEdges(graph, nullptr, nullptr, nullptr, &count), cudaSuccess);
    return count;
  }

  void* dst = nullptr;
  cudaStream_t stream = nullptr;
  cudaGraph_t graph = nullptr;
};

}  // namespace lockstep::test
