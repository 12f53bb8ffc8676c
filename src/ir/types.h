#pragma once
// Sizes of PTX fundamental types.
#include <cstdint>

#include "ptx/ast.h"

namespace lockstep::ir {

inline uint32_t type_size(ptx::Type t) {
  using T = ptx::Type;
  switch (t) {
    case T::B8: case T::U8: case T::S8: return 1;
    case T::B16: case T::U16: case T::S16: case T::F16: case T::BF16: return 2;
    case T::B32: case T::U32: case T::S32: case T::F32: case T::F16x2: case T::BF16x2:
    case T::TF32: return 4;
    case T::B64: case T::U64: case T::S64: case T::F64: case T::TexRef: case T::SurfRef:
    case T::SamplerRef: return 8;
    case T::B128: return 16;
    case T::Pred: return 1;
    case T::None: return 0;
  }
  return 0;
}

}  // namespace lockstep::ir
