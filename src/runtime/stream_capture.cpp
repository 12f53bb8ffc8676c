#include "runtime/stream_capture.h"

#include <algorithm>
#include <utility>

namespace lockstep::runtime {

namespace {

size_t index_of(const void* node) { return static_cast<const GraphNode*>(node)->index; }

}  // namespace

cudaError_t StreamCaptures::begin(void* stream, cudaStreamCaptureMode mode, Graph& graph,
                                  std::vector<void*> dependencies) {
  if (capturing(stream)) return cudaErrorIllegalState;
  const unsigned long long id = next_id_++;
  sequences_.emplace(id, CaptureSequence{&graph, stream, mode, false, current_host_thread()});
  streams_.emplace(stream, StreamState{id, std::move(dependencies)});
  return cudaSuccess;
}

cudaError_t StreamCaptures::end(void* stream, Graph*& graph) {
  auto it = streams_.find(stream);
  if (it == streams_.end()) return cudaErrorIllegalState;
  const unsigned long long id = it->second.sequence;
  CaptureSequence& s = sequences_.at(id);
  if (s.origin != stream) return cudaErrorStreamCaptureUnmatched;
  if (s.mode != cudaStreamCaptureModeRelaxed && s.thread != current_host_thread())
    return cudaErrorStreamCaptureWrongThread;
  graph = s.graph;
  cudaError_t result = s.invalidated ? cudaErrorStreamCaptureInvalidated : cudaSuccess;
  // Every forked stream's last work must lead into the origin stream's last work.
  const std::vector<void*>& joined = it->second.dependencies;
  for (const auto& [other, state] : streams_) {
    if (state.sequence != id || other == stream || result != cudaSuccess) continue;
    for (void* last : state.dependencies) {
      const bool reaches_origin = std::any_of(joined.begin(), joined.end(), [&](void* j) {
        return graph->reaches(index_of(last), index_of(j));
      });
      if (!reaches_origin) result = cudaErrorStreamCaptureUnjoined;
    }
  }
  std::erase_if(streams_, [&](const auto& entry) { return entry.second.sequence == id; });
  std::erase_if(events_, [&](const auto& entry) { return entry.second.sequence == id; });
  sequences_.erase(id);
  return result;
}

cudaStreamCaptureStatus StreamCaptures::status(void* stream) const {
  const CaptureSequence* s = sequence(stream);
  if (s == nullptr) return cudaStreamCaptureStatusNone;
  return s->invalidated ? cudaStreamCaptureStatusInvalidated : cudaStreamCaptureStatusActive;
}

const CaptureSequence* StreamCaptures::sequence(void* stream, unsigned long long* id) const {
  auto it = streams_.find(stream);
  if (it == streams_.end()) return nullptr;
  if (id != nullptr) *id = it->second.sequence;
  return &sequences_.at(it->second.sequence);
}

void StreamCaptures::advance(void* stream, GraphNode& node) { streams_.at(stream).dependencies = {&node}; }

void StreamCaptures::update_dependencies(void* stream, const std::vector<void*>& nodes, bool add) {
  std::vector<void*>& deps = streams_.at(stream).dependencies;
  if (!add) deps.clear();
  for (void* n : nodes)
    if (std::find(deps.begin(), deps.end(), n) == deps.end()) deps.push_back(n);
}

void StreamCaptures::invalidate(void* stream) {
  auto it = streams_.find(stream);
  if (it != streams_.end()) sequences_.at(it->second.sequence).invalidated = true;
}

void StreamCaptures::forget_node(const void* node) {
  for (auto* states : {&streams_, &events_})
    for (auto& [handle, state] : *states) std::erase(state.dependencies, node);
}

bool StreamCaptures::targets(const void* graph) const {
  return std::any_of(sequences_.begin(), sequences_.end(), [&](const auto& s) { return s.second.graph == graph; });
}

const cudaGraphEdgeData* StreamCaptures::default_edge_data(size_t count) {
  default_edges_.assign(count, cudaGraphEdgeData{});
  return default_edges_.data();
}

void StreamCaptures::record_event(void* event, void* stream) { events_[event] = streams_.at(stream); }

bool StreamCaptures::event_captured(void* event) const {
  auto it = events_.find(event);
  return it != events_.end() && sequences_.count(it->second.sequence) != 0;
}

cudaError_t StreamCaptures::wait_event(void* stream, void* event) {
  const StreamState& recorded = events_.at(event);
  auto it = streams_.find(stream);
  if (it == streams_.end()) {
    streams_.emplace(stream, recorded);  // fork: the stream joins the capture
    return cudaSuccess;
  }
  if (it->second.sequence != recorded.sequence) return cudaErrorStreamCaptureMerge;
  std::vector<void*>& deps = it->second.dependencies;
  for (void* node : recorded.dependencies)
    if (std::find(deps.begin(), deps.end(), node) == deps.end()) deps.push_back(node);
  return cudaSuccess;
}

cudaStreamCaptureMode StreamCaptures::exchange_mode(cudaStreamCaptureMode mode) {
  std::swap(mode, thread_modes_.try_emplace(current_host_thread(), cudaStreamCaptureModeGlobal).first->second);
  return mode;
}

bool StreamCaptures::prohibit_unsafe_call() {
  const uint64_t me = current_host_thread();
  const auto found = thread_modes_.find(me);
  const cudaStreamCaptureMode mine = found == thread_modes_.end() ? cudaStreamCaptureModeGlobal : found->second;
  if (mine == cudaStreamCaptureModeRelaxed) return false;
  bool prohibited = false;
  for (auto& [id, s] : sequences_) {
    if (s.mode == cudaStreamCaptureModeRelaxed) continue;
    const bool binds = s.thread == me || (mine == cudaStreamCaptureModeGlobal && s.mode == cudaStreamCaptureModeGlobal);
    if (!binds) continue;
    s.invalidated = true;
    prohibited = true;
  }
  return prohibited;
}

}  // namespace lockstep::runtime
