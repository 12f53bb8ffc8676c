#pragma once
// The parts of the floating-point family; register_float_ops (bind.h) calls each of them.
#include "func/bind.h"

namespace lockstep::func {

void register_float_arith_ops(OpTable& t);    // add sub mul fma mad
void register_float_math_ops(OpTable& t);     // div rcp sqrt rsqrt ex2 lg2 sin cos tanh
void register_float_sign_ops(OpTable& t);     // abs neg min max copysign testp
void register_float_compare_ops(OpTable& t);  // setp set
void register_float_convert_ops(OpTable& t);  // cvt with a float source or destination

}  // namespace lockstep::func
