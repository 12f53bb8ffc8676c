#pragma once
// The binders of the integer opcode family, one per opcode (or opcode group), registered by
// register_integer_ops() in integer_ops.cpp. Each returns std::nullopt for forms of another
// family (any float type) and reports unsupported integer forms itself.
#include <optional>

#include "func/bind.h"

namespace lockstep::func::integer {

using BindResult = std::optional<ExecInst>;

// integer_arith.cpp
BindResult bind_add(const ir::Instruction& inst, BindContext& ctx);
BindResult bind_sub(const ir::Instruction& inst, BindContext& ctx);
BindResult bind_min(const ir::Instruction& inst, BindContext& ctx);
BindResult bind_max(const ir::Instruction& inst, BindContext& ctx);
BindResult bind_div(const ir::Instruction& inst, BindContext& ctx);
BindResult bind_rem(const ir::Instruction& inst, BindContext& ctx);
BindResult bind_abs(const ir::Instruction& inst, BindContext& ctx);
BindResult bind_neg(const ir::Instruction& inst, BindContext& ctx);
BindResult bind_sad(const ir::Instruction& inst, BindContext& ctx);

// integer_mul.cpp
BindResult bind_mul(const ir::Instruction& inst, BindContext& ctx);
BindResult bind_mad(const ir::Instruction& inst, BindContext& ctx);
BindResult bind_mul24(const ir::Instruction& inst, BindContext& ctx);
BindResult bind_mad24(const ir::Instruction& inst, BindContext& ctx);

// integer_carry.cpp: add.cc, addc, sub.cc, subc, mad.cc, madc
BindResult bind_add_cc(const ir::Instruction& inst, BindContext& ctx);
BindResult bind_addc(const ir::Instruction& inst, BindContext& ctx);
BindResult bind_sub_cc(const ir::Instruction& inst, BindContext& ctx);
BindResult bind_subc(const ir::Instruction& inst, BindContext& ctx);
BindResult bind_mad_cc(const ir::Instruction& inst, BindContext& ctx);
BindResult bind_madc(const ir::Instruction& inst, BindContext& ctx);

// integer_simd.cpp: .u16x2/.s16x2 add/sub/min/max, dp4a, dp2a, video vop4/vop2
BindResult bind_add_x2(const ir::Instruction& inst, BindContext& ctx);
BindResult bind_sub_x2(const ir::Instruction& inst, BindContext& ctx);
BindResult bind_min_x2(const ir::Instruction& inst, BindContext& ctx);
BindResult bind_max_x2(const ir::Instruction& inst, BindContext& ctx);
BindResult bind_dp4a(const ir::Instruction& inst, BindContext& ctx);
BindResult bind_dp2a(const ir::Instruction& inst, BindContext& ctx);
BindResult bind_video4(const ir::Instruction& inst, BindContext& ctx);
BindResult bind_video2(const ir::Instruction& inst, BindContext& ctx);

// integer_bits.cpp
BindResult bind_popc(const ir::Instruction& inst, BindContext& ctx);
BindResult bind_clz(const ir::Instruction& inst, BindContext& ctx);
BindResult bind_brev(const ir::Instruction& inst, BindContext& ctx);
BindResult bind_bfind(const ir::Instruction& inst, BindContext& ctx);
BindResult bind_bfe(const ir::Instruction& inst, BindContext& ctx);
BindResult bind_bfi(const ir::Instruction& inst, BindContext& ctx);
BindResult bind_szext(const ir::Instruction& inst, BindContext& ctx);
BindResult bind_bmsk(const ir::Instruction& inst, BindContext& ctx);

// integer_shift.cpp
BindResult bind_shl(const ir::Instruction& inst, BindContext& ctx);
BindResult bind_shr(const ir::Instruction& inst, BindContext& ctx);
BindResult bind_shf(const ir::Instruction& inst, BindContext& ctx);
BindResult bind_prmt(const ir::Instruction& inst, BindContext& ctx);

// integer_logic.cpp
BindResult bind_and(const ir::Instruction& inst, BindContext& ctx);
BindResult bind_or(const ir::Instruction& inst, BindContext& ctx);
BindResult bind_xor(const ir::Instruction& inst, BindContext& ctx);
BindResult bind_not(const ir::Instruction& inst, BindContext& ctx);
BindResult bind_cnot(const ir::Instruction& inst, BindContext& ctx);
BindResult bind_lop3(const ir::Instruction& inst, BindContext& ctx);

// integer_compare.cpp
BindResult bind_setp(const ir::Instruction& inst, BindContext& ctx);
BindResult bind_set(const ir::Instruction& inst, BindContext& ctx);

// integer_select.cpp
BindResult bind_selp(const ir::Instruction& inst, BindContext& ctx);
BindResult bind_slct(const ir::Instruction& inst, BindContext& ctx);

// integer_cvt.cpp: cvt between integer types, cvt.pack
BindResult bind_cvt(const ir::Instruction& inst, BindContext& ctx);

}  // namespace lockstep::func::integer
