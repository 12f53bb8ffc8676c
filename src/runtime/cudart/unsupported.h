#pragma once
// The action of every generated stub (unsupported_stubs.cpp): "lockstep: <function> is not
// supported yet" once per function on stderr, then cudaErrorNotSupported. Kept free of CUDA
// headers so the stubs can be declared as `int name(void)` without clashing with them.
namespace lockstep::runtime {

int unsupported_call(const char* function) noexcept;

}  // namespace lockstep::runtime
