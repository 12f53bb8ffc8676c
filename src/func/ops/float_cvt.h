#pragma once
// cvt with a float type on either side. float_cvt.cpp binds float <-> float (also the packing
// x2 forms and the fp8 forms); float_cvt_int.cpp binds float <-> integer.
#include "func/bind.h"
#include "func/ops/float_form.h"

namespace lockstep::func::fp {

// cvt.dtype.atype where exactly one of the two types is an integer type.
ExecInst bind_cvt_int(const ir::Instruction& inst, BindContext& ctx, const FloatForm& f);

// A mask of the destination register's declared width (cvt writes the whole register).
uint64_t register_mask(const ir::Operand& dst);

}  // namespace lockstep::func::fp
