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
  return process_runtime().sticky();
}

extern "C" cudaError_t cudaStreamQuery(cudaStream_t stream) { return cudaStreamSynchronize(stream); }

extern "C" cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t /*event*/, unsigned int /*flags*/) {
  return process_runtime().is_stream(stream) ? cudaSuccess : process_runtime().record(cudaErrorInvalidResourceHandle);
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
  return process_runtime().destroy_event(event) ? cudaSuccess : process_runtime().record(cudaErrorInvalidResourceHandle);
}
