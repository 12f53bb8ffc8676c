// Streams and events through the driver API stand-in: CUstream and CUevent are the runtime's
// cudaStream_t and cudaEvent_t (the driver and the runtime share them on CUDA too).
#include "cuda_driver/driver_status.h"

using lockstep::driver::status;

extern "C" CUresult cuStreamCreate(CUstream* phStream, unsigned int Flags) {
  return status(cudaStreamCreateWithFlags(phStream, Flags));
}

extern "C" CUresult cuStreamCreateWithPriority(CUstream* phStream, unsigned int flags, int priority) {
  return status(cudaStreamCreateWithPriority(phStream, flags, priority));
}

extern "C" CUresult cuStreamDestroy_v2(CUstream hStream) { return status(cudaStreamDestroy(hStream)); }

extern "C" CUresult cuStreamSynchronize(CUstream hStream) { return status(cudaStreamSynchronize(hStream)); }

extern "C" CUresult cuStreamQuery(CUstream hStream) { return status(cudaStreamQuery(hStream)); }

extern "C" CUresult cuStreamWaitEvent(CUstream hStream, CUevent hEvent, unsigned int Flags) {
  return status(cudaStreamWaitEvent(hStream, hEvent, Flags));
}

extern "C" CUresult cuEventCreate(CUevent* phEvent, unsigned int Flags) {
  return status(cudaEventCreateWithFlags(phEvent, Flags));
}

extern "C" CUresult cuEventDestroy_v2(CUevent hEvent) { return status(cudaEventDestroy(hEvent)); }

extern "C" CUresult cuEventRecord(CUevent hEvent, CUstream hStream) { return status(cudaEventRecord(hEvent, hStream)); }

extern "C" CUresult cuEventSynchronize(CUevent hEvent) { return status(cudaEventSynchronize(hEvent)); }

extern "C" CUresult cuEventQuery(CUevent hEvent) { return status(cudaEventQuery(hEvent)); }

extern "C" CUresult cuEventElapsedTime_v2(float* pMilliseconds, CUevent hStart, CUevent hEnd) {
  return status(cudaEventElapsedTime(pMilliseconds, hStart, hEnd));
}
