// Streams and events. Everything runs in order at the call, so streams only need identity,
// and an event records how many thread instructions had run (Runtime::elapsed_ms).
#include "cudart/process_runtime.h"

using lockstep::runtime::process_runtime;

extern "C" cudaError_t cudaStreamCreate(cudaStream_t* pStream) {
  if (pStream == nullptr) return process_runtime().record(cudaErrorInvalidValue);
  *pStream = static_cast<cudaStream_t>(process_runtime().create_stream());
  return cudaSuccess;
}

extern "C" cudaError_t cudaStreamCreateWithFlags(cudaStream_t* pStream, unsigned int /*flags*/) {
  return cudaStreamCreate(pStream);
}

extern "C" cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  return process_runtime().destroy_stream(stream) ? cudaSuccess : process_runtime().record(cudaErrorInvalidResourceHandle);
}

extern "C" cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
  if (!process_runtime().is_stream(stream)) return process_runtime().record(cudaErrorInvalidResourceHandle);
  if (process_runtime().capturing(stream)) {  // not permitted while capturing; the capture is invalidated
    process_runtime().captures().invalidate(stream);
    return process_runtime().record(cudaErrorStreamCaptureUnsupported);
  }
  return process_runtime().sticky();
}

extern "C" cudaError_t cudaStreamQuery(cudaStream_t stream) { return cudaStreamSynchronize(stream); }

extern "C" cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int /*flags*/) {
  auto& r = process_runtime();
  if (!r.is_stream(stream)) return r.record(cudaErrorInvalidResourceHandle);
  // Stream capture (capture_api.cpp): an event recorded in a capture forks or joins streams.
  if (r.captures().event_captured(event)) {
    if (stream == nullptr || stream == cudaStreamLegacy) return r.record(cudaErrorStreamCaptureImplicit);
    return r.record(r.captures().wait_event(stream, event));
  }
  if (r.capturing(stream)) {
    r.print("cudaStreamWaitEvent: a capturing stream can wait only on an event recorded in the same capture");
    return r.record(cudaErrorStreamCaptureIsolation);
  }
  return cudaSuccess;
}

extern "C" cudaError_t cudaEventCreate(cudaEvent_t* event) {
  if (event == nullptr) return process_runtime().record(cudaErrorInvalidValue);
  *event = static_cast<cudaEvent_t>(process_runtime().create_event());
  return cudaSuccess;
}

extern "C" cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int /*flags*/) {
  return cudaEventCreate(event);
}

extern "C" cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  if (!process_runtime().is_stream(stream)) return process_runtime().record(cudaErrorInvalidResourceHandle);
  if (process_runtime().capturing(stream)) {  // the event stands for the stream's captured work
    process_runtime().captures().record_event(event, stream);
    return cudaSuccess;
  }
  process_runtime().captures().forget_event(event);
  return process_runtime().record_event(event) ? cudaSuccess : process_runtime().record(cudaErrorInvalidResourceHandle);
}

extern "C" cudaError_t cudaEventSynchronize(cudaEvent_t /*event*/) { return process_runtime().sticky(); }

extern "C" cudaError_t cudaEventQuery(cudaEvent_t /*event*/) { return process_runtime().sticky(); }

extern "C" cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
  if (ms == nullptr) return process_runtime().record(cudaErrorInvalidValue);
  return process_runtime().elapsed_ms(start, end, *ms) ? cudaSuccess
                                                        : process_runtime().record(cudaErrorInvalidResourceHandle);
}

extern "C" cudaError_t cudaEventDestroy(cudaEvent_t event) {
  process_runtime().captures().forget_event(event);
  return process_runtime().destroy_event(event) ? cudaSuccess : process_runtime().record(cudaErrorInvalidResourceHandle);
}
