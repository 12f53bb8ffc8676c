// Stream capture: while a stream captures, the operations issued to it (kernel launches,
// asynchronous copies and memsets, host functions, event records and waits) become nodes of a
// graph instead of running; the hooks sit in each operation's entry point. Host functions
// (cudaLaunchHostFunc, cudaStreamAddCallback) run at once outside capture: everything issued
// before them has completed.
#include <algorithm>
#include <cstring>
#include <utility>
#include <vector>

#include "cudart/graph_handles.h"

using namespace lockstep::runtime;

namespace {

cudaError_t invalid() { return process_runtime()->record(cudaErrorInvalidValue); }

// The legacy default stream synchronizes with every blocking stream, so it cannot capture.
bool is_legacy_stream(cudaStream_t stream) { return stream == nullptr || stream == cudaStreamLegacy; }

// A program may pass any number as the mode. Its bytes are read as an integer: loading a value
// outside the enumerators as the enum itself is undefined behaviour (UBSan reports it).
bool is_capture_mode(const cudaStreamCaptureMode& mode) {
  int raw = 0;
  static_assert(sizeof raw == sizeof mode);
  std::memcpy(&raw, &mode, sizeof raw);
  return raw == cudaStreamCaptureModeGlobal || raw == cudaStreamCaptureModeThreadLocal ||
         raw == cudaStreamCaptureModeRelaxed;
}

}  // namespace

extern "C" cudaError_t cudaStreamBeginCapture(cudaStream_t stream, cudaStreamCaptureMode mode) {
  const RuntimeHandle r = process_runtime();
  if (!r->is_stream(stream)) return r->record(cudaErrorInvalidResourceHandle);
  if (is_legacy_stream(stream)) return r->record(cudaErrorStreamCaptureUnsupported);
  if (!is_capture_mode(mode)) return invalid();
  if (r->capturing(stream)) return r->record(cudaErrorIllegalState);
  return guarded([&] { return r->record(r->captures().begin(stream, mode, r->graph_table().create())); });
}

extern "C" cudaError_t cudaStreamBeginCapture_ptsz(cudaStream_t stream, cudaStreamCaptureMode mode) {
  return cudaStreamBeginCapture(per_thread_stream(stream), mode);
}

// Captures into a graph the program made (or a child graph or conditional body it holds a
// handle to), the first node captured after `dependencies` (a repeated one counts once, as on
// CUDA 13). cudaStreamEndCapture hands the same graph back; a failed capture destroys it, as
// one cudaStreamBeginCapture made.
extern "C" cudaError_t cudaStreamBeginCaptureToGraph(cudaStream_t stream, cudaGraph_t graph,
                                                     const cudaGraphNode_t* dependencies,
                                                     const cudaGraphEdgeData* dependencyData, size_t numDependencies,
                                                     cudaStreamCaptureMode mode) {
  const RuntimeHandle r = process_runtime();
  if (!r->is_stream(stream)) return r->record(cudaErrorInvalidResourceHandle);
  if (is_legacy_stream(stream)) return r->record(cudaErrorStreamCaptureUnsupported);
  if (!is_capture_mode(mode)) return invalid();
  Graph* g = r->graph_table().graph(graph);
  if (g == nullptr || (numDependencies > 0 && dependencies == nullptr)) return invalid();
  // As cudaGraphAddDependencies: only default edges mean something here.
  for (size_t i = 0; dependencyData != nullptr && i < numDependencies; ++i) {
    const cudaGraphEdgeData& d = dependencyData[i];
    if (d.from_port != 0 || d.to_port != 0 || d.type != cudaGraphDependencyTypeDefault) {
      r->report_unsupported("cudaStreamBeginCaptureToGraph with edge data");
      return cudaErrorNotSupported;
    }
  }
  return guarded([&] {
    std::vector<void*> after;
    for (size_t i = 0; i < numDependencies; ++i)
      if (std::find(after.begin(), after.end(), dependencies[i]) == after.end()) after.push_back(dependencies[i]);
    std::vector<size_t> unused;
    if (r->graph_table().dependency_indices(*g, std::vector<const void*>(after.begin(), after.end()), unused) != cudaSuccess) return invalid();
    if (r->capturing(stream)) return r->record(cudaErrorIllegalState);
    return r->record(r->captures().begin(stream, mode, *g, std::move(after)));
  });
}

extern "C" cudaError_t cudaStreamBeginCaptureToGraph_ptsz(cudaStream_t stream, cudaGraph_t graph,
                                                          const cudaGraphNode_t* dependencies,
                                                          const cudaGraphEdgeData* dependencyData,
                                                          size_t numDependencies, cudaStreamCaptureMode mode) {
  return cudaStreamBeginCaptureToGraph(per_thread_stream(stream), graph, dependencies, dependencyData, numDependencies,
                                       mode);
}

// pGraph may be null: a program that captured into its own graph (cudaStreamBeginCaptureToGraph)
// has it already, and NVIDIA's CUDA 13 samples end such a capture so.
extern "C" cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t* pGraph) {
  const RuntimeHandle r = process_runtime();
  if (!r->is_stream(stream)) return r->record(cudaErrorInvalidResourceHandle);
  return guarded([&] {
    Graph* graph = nullptr;
    const cudaError_t e = r->captures().end(stream, graph);
    if (pGraph != nullptr) *pGraph = nullptr;
    if (e == cudaSuccess) {
      if (pGraph != nullptr) *pGraph = graph_handle(*graph);
      return cudaSuccess;
    }
    // An invalidated or unjoined capture's graph goes, even one the program made and named in
    // cudaStreamBeginCaptureToGraph (CUDA 13 does so); a child graph or conditional body stays
    // with its node (the table refuses it).
    if (graph != nullptr) r->graph_table().destroy(graph);
    return r->record(e);
  });
}

extern "C" cudaError_t cudaStreamEndCapture_ptsz(cudaStream_t stream, cudaGraph_t* pGraph) {
  return cudaStreamEndCapture(per_thread_stream(stream), pGraph);
}

extern "C" cudaError_t cudaStreamIsCapturing(cudaStream_t stream, cudaStreamCaptureStatus* pCaptureStatus) {
  const RuntimeHandle r = process_runtime();
  if (pCaptureStatus == nullptr) return invalid();
  if (!r->is_stream(stream)) return r->record(cudaErrorInvalidResourceHandle);
  *pCaptureStatus = r->captures().status(stream);
  return cudaSuccess;
}

extern "C" cudaError_t cudaStreamIsCapturing_ptsz(cudaStream_t stream, cudaStreamCaptureStatus* pCaptureStatus) {
  return cudaStreamIsCapturing(per_thread_stream(stream), pCaptureStatus);
}

// Edges are never annotated here, so edgeData_out (when asked for) holds default entries.
extern "C" cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream, cudaStreamCaptureStatus* captureStatus_out,
                                                unsigned long long* id_out, cudaGraph_t* graph_out,
                                                const cudaGraphNode_t** dependencies_out,
                                                const cudaGraphEdgeData** edgeData_out, size_t* numDependencies_out) {
  const RuntimeHandle r = process_runtime();
  if (captureStatus_out == nullptr || (edgeData_out != nullptr && dependencies_out == nullptr)) return invalid();
  if (!r->is_stream(stream)) return r->record(cudaErrorInvalidResourceHandle);
  *captureStatus_out = r->captures().status(stream);
  unsigned long long id = 0;
  const CaptureSequence* s = r->captures().sequence(stream, &id);
  if (s == nullptr) return cudaSuccess;
  if (id_out != nullptr) *id_out = id;
  if (graph_out != nullptr) *graph_out = graph_handle(*s->graph);
  const std::vector<void*>& deps = r->captures().dependencies(stream);
  // The node handles are the addresses the stream state holds (cudaGraphNode_t values).
  if (dependencies_out != nullptr) *dependencies_out = reinterpret_cast<const cudaGraphNode_t*>(deps.data());
  if (edgeData_out != nullptr) *edgeData_out = r->captures().default_edge_data(deps.size());
  if (numDependencies_out != nullptr) *numDependencies_out = deps.size();
  return cudaSuccess;
}

extern "C" cudaError_t cudaStreamGetCaptureInfo_ptsz(cudaStream_t stream, cudaStreamCaptureStatus* captureStatus_out,
                                                     unsigned long long* id_out, cudaGraph_t* graph_out,
                                                     const cudaGraphNode_t** dependencies_out,
                                                     const cudaGraphEdgeData** edgeData_out,
                                                     size_t* numDependencies_out) {
  return cudaStreamGetCaptureInfo(per_thread_stream(stream), captureStatus_out, id_out, graph_out, dependencies_out,
                                  edgeData_out, numDependencies_out);
}

// The nodes must be nodes of the stream's capture graph; only default edges mean something here
// (as in cudaStreamBeginCaptureToGraph).
extern "C" cudaError_t cudaStreamUpdateCaptureDependencies(cudaStream_t stream, cudaGraphNode_t* dependencies,
                                                           const cudaGraphEdgeData* dependencyData,
                                                           size_t numDependencies, unsigned int flags) {
  const RuntimeHandle r = process_runtime();
  if (flags != cudaStreamAddCaptureDependencies && flags != cudaStreamSetCaptureDependencies) return invalid();
  if (numDependencies > 0 && dependencies == nullptr) return invalid();
  if (!r->is_stream(stream)) return r->record(cudaErrorInvalidResourceHandle);
  const CaptureSequence* s = r->captures().sequence(stream);
  if (s == nullptr) return r->record(cudaErrorIllegalState);
  std::vector<void*> nodes;
  for (size_t i = 0; i < numDependencies; ++i) {
    Graph* owner = nullptr;
    if (r->graph_table().node(dependencies[i], &owner) == nullptr || owner != s->graph) return invalid();
    const cudaGraphEdgeData* d = dependencyData != nullptr ? &dependencyData[i] : nullptr;
    if (d != nullptr && (d->from_port != 0 || d->to_port != 0 || d->type != cudaGraphDependencyTypeDefault)) {
      r->report_unsupported("cudaStreamUpdateCaptureDependencies with edge data");
      return cudaErrorNotSupported;
    }
    nodes.push_back(dependencies[i]);
  }
  r->captures().update_dependencies(stream, nodes, flags == cudaStreamAddCaptureDependencies);
  return cudaSuccess;
}

extern "C" cudaError_t cudaStreamUpdateCaptureDependencies_ptsz(cudaStream_t stream, cudaGraphNode_t* dependencies,
                                                                const cudaGraphEdgeData* dependencyData,
                                                                size_t numDependencies, unsigned int flags) {
  return cudaStreamUpdateCaptureDependencies(per_thread_stream(stream), dependencies, dependencyData,
                                             numDependencies, flags);
}

extern "C" cudaError_t cudaThreadExchangeStreamCaptureMode(cudaStreamCaptureMode* mode) {
  if (mode == nullptr) return invalid();
  if (!is_capture_mode(*mode)) return invalid();
  *mode = process_runtime()->captures().exchange_mode(*mode);
  return cudaSuccess;
}

extern "C" cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void* userData) {
  const RuntimeHandle r = process_runtime();
  if (fn == nullptr) return invalid();
  if (!r->is_stream(stream)) return r->record(cudaErrorInvalidResourceHandle);
  if (r->capturing(stream)) return guarded([&] { return r->capture(stream, HostNodeOp{fn, userData}); });
  if (r->sticky() != cudaSuccess) return r->sticky();
  fn(userData);
  return cudaSuccess;
}

extern "C" cudaError_t cudaLaunchHostFunc_ptsz(cudaStream_t stream, cudaHostFn_t fn, void* userData) {
  return cudaLaunchHostFunc(per_thread_stream(stream), fn, userData);
}

// Stream callbacks cannot be captured (CUDA refuses them too; cudaLaunchHostFunc can be).
extern "C" cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void* userData,
                                             unsigned int flags) {
  const RuntimeHandle r = process_runtime();
  if (callback == nullptr || flags != 0) return invalid();
  if (!r->is_stream(stream)) return r->record(cudaErrorInvalidResourceHandle);
  if (r->capturing(stream)) {
    r->captures().invalidate(stream);
    return r->record(cudaErrorStreamCaptureUnsupported);
  }
  callback(stream, r->sticky(), userData);
  return cudaSuccess;
}

extern "C" cudaError_t cudaStreamAddCallback_ptsz(cudaStream_t stream, cudaStreamCallback_t callback, void* userData,
                                                  unsigned int flags) {
  return cudaStreamAddCallback(per_thread_stream(stream), callback, userData, flags);
}
