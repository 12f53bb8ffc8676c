// Streams and events. Everything runs in order at the call, so streams only need identity,
// and an event records the device's time so far: its kernels' and its copies' (Runtime::device_ms).
#include "cudart/process_runtime.h"

using lockstep::runtime::process_runtime;
using lockstep::runtime::RuntimeHandle;
using lockstep::runtime::per_thread_stream;

extern "C" cudaError_t cudaStreamCreate(cudaStream_t* pStream) {
  if (pStream == nullptr) return process_runtime()->record(cudaErrorInvalidValue);
  *pStream = static_cast<cudaStream_t>(process_runtime()->create_stream());
  return cudaSuccess;
}

extern "C" cudaError_t cudaStreamCreateWithFlags(cudaStream_t* pStream, unsigned int flags) {
  if (pStream == nullptr || (flags & ~cudaStreamNonBlocking) != 0) return process_runtime()->record(cudaErrorInvalidValue);
  *pStream = static_cast<cudaStream_t>(process_runtime()->create_stream(flags));
  return cudaSuccess;
}

extern "C" cudaError_t cudaStreamCreateWithPriority(cudaStream_t* pStream, unsigned int flags, int priority) {
  if (pStream == nullptr || (flags & ~cudaStreamNonBlocking) != 0) return process_runtime()->record(cudaErrorInvalidValue);
  *pStream = static_cast<cudaStream_t>(process_runtime()->create_stream(flags, priority));
  return cudaSuccess;
}

extern "C" cudaError_t cudaDeviceGetStreamPriorityRange(int* leastPriority, int* greatestPriority) {
  if (leastPriority != nullptr) *leastPriority = lockstep::runtime::Runtime::kLeastStreamPriority;
  if (greatestPriority != nullptr) *greatestPriority = lockstep::runtime::Runtime::kGreatestStreamPriority;
  return cudaSuccess;
}

extern "C" cudaError_t cudaStreamGetPriority(cudaStream_t hStream, int* priority) {
  if (priority == nullptr) return process_runtime()->record(cudaErrorInvalidValue);
  if (!process_runtime()->is_stream(hStream)) return process_runtime()->record(cudaErrorInvalidResourceHandle);
  *priority = process_runtime()->stream_priority(hStream);
  return cudaSuccess;
}

extern "C" cudaError_t cudaStreamGetFlags(cudaStream_t hStream, unsigned int* flags) {
  if (flags == nullptr) return process_runtime()->record(cudaErrorInvalidValue);
  if (!process_runtime()->is_stream(hStream)) return process_runtime()->record(cudaErrorInvalidResourceHandle);
  *flags = process_runtime()->stream_flags(hStream);
  return cudaSuccess;
}

extern "C" cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  return process_runtime()->destroy_stream(stream) ? cudaSuccess : process_runtime()->record(cudaErrorInvalidResourceHandle);
}

extern "C" cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
  if (!process_runtime()->is_stream(stream)) return process_runtime()->record(cudaErrorInvalidResourceHandle);
  if (process_runtime()->capturing(stream)) {  // not permitted while capturing; the capture is invalidated
    process_runtime()->captures().invalidate(stream);
    return process_runtime()->record(cudaErrorStreamCaptureUnsupported);
  }
  return process_runtime()->sticky();
}

extern "C" cudaError_t cudaStreamQuery(cudaStream_t stream) { return cudaStreamSynchronize(stream); }

extern "C" cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int /*flags*/) {
  const RuntimeHandle r = process_runtime();
  if (!r->is_stream(stream)) return r->record(cudaErrorInvalidResourceHandle);
  // Stream capture (capture_api.cpp): an event recorded in a capture forks or joins streams.
  if (r->captures().event_captured(event)) {
    if (stream == nullptr || stream == cudaStreamLegacy) return r->record(cudaErrorStreamCaptureImplicit);
    return r->record(r->captures().wait_event(stream, event));
  }
  if (r->capturing(stream)) {
    r->print("cudaStreamWaitEvent: a capturing stream can wait only on an event recorded in the same capture");
    return r->record(cudaErrorStreamCaptureIsolation);
  }
  return cudaSuccess;
}

extern "C" cudaError_t cudaEventCreate(cudaEvent_t* event) {
  if (event == nullptr) return process_runtime()->record(cudaErrorInvalidValue);
  *event = static_cast<cudaEvent_t>(process_runtime()->create_event());
  return cudaSuccess;
}

extern "C" cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int /*flags*/) {
  return cudaEventCreate(event);
}

extern "C" cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  if (!process_runtime()->is_stream(stream)) return process_runtime()->record(cudaErrorInvalidResourceHandle);
  if (process_runtime()->capturing(stream)) {  // the event stands for the stream's captured work
    process_runtime()->captures().record_event(event, stream);
    return cudaSuccess;
  }
  process_runtime()->captures().forget_event(event);
  return process_runtime()->record_event(event) ? cudaSuccess : process_runtime()->record(cudaErrorInvalidResourceHandle);
}

// cudaEventRecordExternal marks the record as a node of its own in a captured graph; a capture
// here keeps events as the stream's dependencies either way (capture_api.cpp), so both flags
// record the same.
extern "C" cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream, unsigned int flags) {
  if ((flags & ~cudaEventRecordExternal) != 0) return process_runtime()->record(cudaErrorInvalidValue);
  return cudaEventRecord(event, stream);
}

extern "C" cudaError_t cudaEventSynchronize(cudaEvent_t /*event*/) { return process_runtime()->sticky(); }

extern "C" cudaError_t cudaEventQuery(cudaEvent_t /*event*/) { return process_runtime()->sticky(); }

extern "C" cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
  if (ms == nullptr) return process_runtime()->record(cudaErrorInvalidValue);
  return process_runtime()->elapsed_ms(start, end, *ms) ? cudaSuccess
                                                        : process_runtime()->record(cudaErrorInvalidResourceHandle);
}

extern "C" cudaError_t cudaEventDestroy(cudaEvent_t event) {
  process_runtime()->captures().forget_event(event);
  return process_runtime()->destroy_event(event) ? cudaSuccess : process_runtime()->record(cudaErrorInvalidResourceHandle);
}

// The per-thread-default-stream spellings (nvcc --default-stream per-thread).
extern "C" cudaError_t cudaStreamGetPriority_ptsz(cudaStream_t hStream, int* priority) {
  return cudaStreamGetPriority(per_thread_stream(hStream), priority);
}

extern "C" cudaError_t cudaStreamGetFlags_ptsz(cudaStream_t hStream, unsigned int* flags) {
  return cudaStreamGetFlags(per_thread_stream(hStream), flags);
}
