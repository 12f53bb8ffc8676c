// Peer copies: cudaMemcpyPeer, cudaMemcpy3DPeer and their asynchronous forms. lockstep
// simulates one device, so the only peer copy there is runs within device 0, as the plain copy
// does (the 3D form with cudaMemcpyDefault: CUDA's peer copies take host memory too under
// unified addressing, and CUDA arrays). Any other device number is cudaErrorInvalidDevice, as
// CUDA answers for a device that does not exist.
#include "cudart/process_runtime.h"

using lockstep::runtime::process_runtime;
using lockstep::runtime::per_thread_stream;

namespace {

bool only_device_zero(int a, int b) { return a == 0 && b == 0; }

cudaMemcpy3DParms on_one_device(const cudaMemcpy3DPeerParms& p) {
  cudaMemcpy3DParms q{};
  q.srcArray = p.srcArray;
  q.srcPos = p.srcPos;
  q.srcPtr = p.srcPtr;
  q.dstArray = p.dstArray;
  q.dstPos = p.dstPos;
  q.dstPtr = p.dstPtr;
  q.extent = p.extent;
  q.kind = cudaMemcpyDefault;
  return q;
}

// The checks every 3D form makes before it copies.
cudaError_t check_3d(const cudaMemcpy3DPeerParms* p) {
  if (p == nullptr) return process_runtime()->record(cudaErrorInvalidValue);
  if (!only_device_zero(p->srcDevice, p->dstDevice)) return process_runtime()->record(cudaErrorInvalidDevice);
  return cudaSuccess;
}

}  // namespace

extern "C" cudaError_t cudaMemcpyPeer(void* dst, int dstDevice, const void* src, int srcDevice, size_t count) {
  if (!only_device_zero(dstDevice, srcDevice)) return process_runtime()->record(cudaErrorInvalidDevice);
  return cudaMemcpy(dst, src, count, cudaMemcpyDeviceToDevice);
}

extern "C" cudaError_t cudaMemcpyPeerAsync(void* dst, int dstDevice, const void* src, int srcDevice, size_t count,
                                           cudaStream_t stream) {
  if (!only_device_zero(dstDevice, srcDevice)) return process_runtime()->record(cudaErrorInvalidDevice);
  return cudaMemcpyAsync(dst, src, count, cudaMemcpyDeviceToDevice, stream);
}

extern "C" cudaError_t cudaMemcpy3DPeer(const cudaMemcpy3DPeerParms* p) {
  if (cudaError_t e = check_3d(p); e != cudaSuccess) return e;
  const cudaMemcpy3DParms q = on_one_device(*p);
  return cudaMemcpy3D(&q);
}

extern "C" cudaError_t cudaMemcpy3DPeer_ptds(const cudaMemcpy3DPeerParms* p) { return cudaMemcpy3DPeer(p); }

extern "C" cudaError_t cudaMemcpy3DPeerAsync(const cudaMemcpy3DPeerParms* p, cudaStream_t stream) {
  if (cudaError_t e = check_3d(p); e != cudaSuccess) return e;
  const cudaMemcpy3DParms q = on_one_device(*p);
  return cudaMemcpy3DAsync(&q, stream);  // checks the stream, and records a node while capturing
}

extern "C" cudaError_t cudaMemcpy3DPeerAsync_ptsz(const cudaMemcpy3DPeerParms* p, cudaStream_t stream) {
  return cudaMemcpy3DPeerAsync(p, per_thread_stream(stream));
}
