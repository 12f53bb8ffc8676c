#pragma once
// The integer a program stored in a CUDA enum field. Programs may store any value there, and
// reading such a field as the enum type is undefined behaviour for values outside the
// enumerators, so validation reads the bits instead.
#include <cstring>

namespace lockstep::runtime {

template <class E>
int raw_enum(const E& field) {
  static_assert(sizeof(E) == sizeof(int), "CUDA's enums are int-sized");
  int value;
  std::memcpy(&value, &field, sizeof value);
  return value;
}

}  // namespace lockstep::runtime
