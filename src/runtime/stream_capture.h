#pragma once
// Stream capture bookkeeping: which streams capture into which graph, and what the next node
// captured in each stream depends on. A capture sequence starts at one stream
// (cudaStreamBeginCapture); other streams join it by waiting on an event recorded in a
// capturing stream (fork), and must be joined back into the origin stream before
// cudaStreamEndCapture (join). The nodes themselves live in the GraphTable's graph.
#include <cstddef>
#include <map>
#include <unordered_map>
#include <vector>

#include <driver_types.h>

#include "runtime/graph.h"
#include "runtime/host_thread.h"

namespace lockstep::runtime {

struct CaptureSequence {
  Graph* graph = nullptr;
  void* origin = nullptr;
  cudaStreamCaptureMode mode = cudaStreamCaptureModeGlobal;
  bool invalidated = false;
  uint64_t thread = 0;  // the host thread that began it (host_thread.h)
};

class StreamCaptures {
 public:
  // cudaErrorIllegalState when the stream captures already. The first node captured depends on
  // `dependencies` (node handles of `graph`; cudaStreamBeginCaptureToGraph names them). The
  // calling thread owns the sequence.
  cudaError_t begin(void* stream, cudaStreamCaptureMode mode, Graph& graph, std::vector<void*> dependencies = {});
  // Ends the sequence `stream` began and stops every stream in it. `graph` is its graph; on an
  // error (invalidated, unjoined) the caller must destroy it. cudaErrorIllegalState when the
  // stream does not capture, cudaErrorStreamCaptureUnmatched when another stream began it,
  // cudaErrorStreamCaptureWrongThread when another thread began a capture that is not relaxed
  // (the capture goes on: its own thread may still end it).
  cudaError_t end(void* stream, Graph*& graph);
  bool capturing(void* stream) const { return streams_.count(stream) != 0; }
  cudaStreamCaptureStatus status(void* stream) const;
  // The stream's sequence id and sequence; nullptr when it does not capture.
  const CaptureSequence* sequence(void* stream, unsigned long long* id = nullptr) const;
  // What the next node captured in `stream` depends on (node handles).
  const std::vector<void*>& dependencies(void* stream) const { return streams_.at(stream).dependencies; }
  // After a node was captured in `stream`: the stream's next node depends on it alone.
  void advance(void* stream, GraphNode& node);
  // cudaStreamUpdateCaptureDependencies: the stream's next node depends on `nodes` instead
  // (`add`: as well, each node once). The caller checked that the stream captures.
  void update_dependencies(void* stream, const std::vector<void*>& nodes, bool add);
  void invalidate(void* stream);
  // Before `node` is destroyed: no stream or captured event depends on it any more.
  void forget_node(const void* node);
  // Whether a capture records into `graph` (which must not be destroyed before it ends).
  bool targets(const void* graph) const;
  // `count` default (all-zero) edge annotations, for cudaStreamGetCaptureInfo's edgeData_out;
  // valid until the next call.
  const cudaGraphEdgeData* default_edge_data(size_t count);

  // cudaEventRecord in a capturing stream: the event stands for the stream's dependencies.
  void record_event(void* event, void* stream);
  // An ordinary record (or destruction) of the event outside any capture.
  void forget_event(void* event) { events_.erase(event); }
  // Whether the event was recorded in a capture that is still going on.
  bool event_captured(void* event) const;
  // cudaStreamWaitEvent on an event_captured() event: a stream outside any capture joins the
  // event's capture (fork); a capturing stream adds the event's nodes to its dependencies
  // (join). cudaErrorStreamCaptureMerge when the stream captures into another sequence.
  cudaError_t wait_event(void* stream, void* event);

  // cudaThreadExchangeStreamCaptureMode: sets the calling thread's mode (global until set),
  // returns the previous one.
  cudaStreamCaptureMode exchange_mode(cudaStreamCaptureMode mode);
  // A potentially unsafe call (synchronous copy, device synchronization, allocation, graph
  // instantiation) by the calling thread. CUDA prohibits it, by the thread's mode, while:
  //   - global: the thread has a capture of its own that is not relaxed, or any thread has a
  //     global-mode capture;
  //   - thread-local: the thread has a capture of its own that is not relaxed;
  //   - relaxed: never.
  // Invalidates the captures that prohibit it and returns true (the call must fail with
  // cudaErrorStreamCaptureUnsupported); false when the call is allowed.
  bool prohibit_unsafe_call();

 private:
  struct StreamState {
    unsigned long long sequence = 0;
    std::vector<void*> dependencies;
  };
  std::map<unsigned long long, CaptureSequence> sequences_;  // by id, unique over the process
  std::unordered_map<void*, StreamState> streams_;
  std::unordered_map<void*, StreamState> events_;  // events recorded in a capture
  std::vector<cudaGraphEdgeData> default_edges_;
  unsigned long long next_id_ = 1;
  // Threads that called exchange_mode, by current_host_thread(); the others are in global
  // mode. The runtime's lock guards this as everything else here.
  std::unordered_map<uint64_t, cudaStreamCaptureMode> thread_modes_;
};

}  // namespace lockstep::runtime
