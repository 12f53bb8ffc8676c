// A template both units of the -rdc=true program instantiate: each unit's PTX defines it
// (.weak), and the linked program keeps one.
#pragma once

template <class T>
__device__ __noinline__ T twice(T x) {
  return 2 * x;
}
