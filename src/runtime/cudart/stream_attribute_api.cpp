// Stream attributes and identity: what a program sets on a stream (an L2 access-policy window,
// a synchronization policy, a priority, memory-synchronization domains) is kept and reported
// back. Streams run in order at the call, so none of it changes what runs; the L2 model has no
// persisting lines, so cudaCtxResetPersistingL2Cache has nothing to reset.
#include "cudart/process_runtime.h"
#include "runtime/launch_attributes.h"

using lockstep::runtime::process_runtime;
using lockstep::runtime::RuntimeHandle;

namespace {

bool is_stream_attribute(cudaStreamAttrID id) {
  switch (id) {
    case cudaStreamAttributeAccessPolicyWindow:
    case cudaStreamAttributeSynchronizationPolicy:
    case cudaStreamAttributePriority:
    case cudaStreamAttributeMemSyncDomainMap:
    case cudaStreamAttributeMemSyncDomain:
      return true;
    default:
      return false;
  }
}

}  // namespace

extern "C" cudaError_t cudaStreamGetAttribute(cudaStream_t hStream, cudaStreamAttrID attr,
                                              cudaStreamAttrValue* value_out) {
  const RuntimeHandle r = process_runtime();
  if (value_out == nullptr || !is_stream_attribute(attr)) return r->record(cudaErrorInvalidValue);
  if (!r->is_stream(hStream)) return r->record(cudaErrorInvalidResourceHandle);
  if (attr == cudaStreamAttributePriority) {
    *value_out = cudaStreamAttrValue{};
    value_out->priority = r->stream_priority(hStream);
  } else if (const cudaStreamAttrValue* set = r->stream_attribute(hStream, attr)) {
    *value_out = *set;
  } else {
    *value_out = lockstep::runtime::unset_attribute(attr);
  }
  return cudaSuccess;
}

extern "C" cudaError_t cudaStreamSetAttribute(cudaStream_t hStream, cudaStreamAttrID attr,
                                              const cudaStreamAttrValue* value) {
  const RuntimeHandle r = process_runtime();
  if (value == nullptr || !is_stream_attribute(attr)) return r->record(cudaErrorInvalidValue);
  if (!r->is_stream(hStream)) return r->record(cudaErrorInvalidResourceHandle);
  if (!lockstep::runtime::valid_attribute(attr, *value)) return r->record(cudaErrorInvalidValue);
  if (attr == cudaStreamAttributePriority) {
    r->set_stream_priority(hStream, value->priority);
  } else {
    r->set_stream_attribute(hStream, attr, *value);
  }
  return cudaSuccess;
}

extern "C" cudaError_t cudaStreamCopyAttributes(cudaStream_t dst, cudaStream_t src) {
  const RuntimeHandle r = process_runtime();
  if (!r->is_stream(dst) || !r->is_stream(src)) return r->record(cudaErrorInvalidResourceHandle);
  r->copy_stream_attributes(dst, src);
  return cudaSuccess;
}

extern "C" cudaError_t cudaStreamGetId(cudaStream_t hStream, unsigned long long* streamId) {
  const RuntimeHandle r = process_runtime();
  if (streamId == nullptr) return r->record(cudaErrorInvalidValue);
  if (!r->is_stream(hStream)) return r->record(cudaErrorInvalidResourceHandle);
  *streamId = r->stream_id(hStream);
  return cudaSuccess;
}

extern "C" cudaError_t cudaStreamGetDevice(cudaStream_t hStream, int* device) {
  const RuntimeHandle r = process_runtime();
  if (device == nullptr) return r->record(cudaErrorInvalidValue);
  if (!r->is_stream(hStream)) return r->record(cudaErrorInvalidResourceHandle);
  *device = 0;
  return cudaSuccess;
}

// Managed memory is visible to every stream and to the host at once here, so attaching it to
// a stream changes nothing; the flags are checked as CUDA checks them.
extern "C" cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void* devPtr,
                                                size_t /*length*/, unsigned int flags) {
  const RuntimeHandle r = process_runtime();
  if (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost && flags != cudaMemAttachSingle)
    return r->record(cudaErrorInvalidValue);
  if (devPtr == nullptr) return r->record(cudaErrorInvalidValue);
  if (!r->is_stream(stream)) return r->record(cudaErrorInvalidResourceHandle);
  return cudaSuccess;
}

extern "C" cudaError_t cudaCtxResetPersistingL2Cache() {
  return process_runtime()->sticky();
}
