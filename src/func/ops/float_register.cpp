// The floating-point family: f16/bf16/tf32/f32/f64 arithmetic, math, comparison and cvt.
#include "func/ops/float_family.h"

namespace lockstep::func {

void register_float_ops(OpTable& t) {
  register_float_arith_ops(t);
  register_float_math_ops(t);
  register_float_sign_ops(t);
  register_float_compare_ops(t);
  register_float_convert_ops(t);
}

}  // namespace lockstep::func
