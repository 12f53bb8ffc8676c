#pragma once
// What cudaGetErrorName and cudaGetErrorString say of a cudaError_t, on the host (cudart's entry
// points) and in device code (the device runtime's, through func::DeviceInfo): one table.
namespace lockstep::runtime {

// The enumerator's name ("cudaErrorInvalidValue"); "cudaErrorUnknown" for a code that is none.
const char* cuda_error_name(int code);

// CUDA's description ("invalid argument") for the errors programs commonly print, the name for
// the other enumerators, "unrecognized error code" for a code that is none.
const char* cuda_error_string(int code);

}  // namespace lockstep::runtime
