// Registration of the integer opcode family. Within one opcode, the more specific binders
// (carry chains, packed 16x2) come first; each declines (std::nullopt) what is not its form.
#include "func/ops/integer_ops.h"

namespace lockstep::func {

void register_integer_ops(OpTable& t) {
  using namespace integer;
  t.add("add", bind_add_cc);
  t.add("add", bind_add_x2);
  t.add("add", bind_add);
  t.add("addc", bind_addc);
  t.add("sub", bind_sub_cc);
  t.add("sub", bind_sub_x2);
  t.add("sub", bind_sub);
  t.add("subc", bind_subc);
  t.add("mul", bind_mul);
  t.add("mad", bind_mad_cc);
  t.add("mad", bind_mad);
  t.add("madc", bind_madc);
  t.add("mul24", bind_mul24);
  t.add("mad24", bind_mad24);
  t.add("sad", bind_sad);
  t.add("div", bind_div);
  t.add("rem", bind_rem);
  t.add("abs", bind_abs);
  t.add("neg", bind_neg);
  t.add("min", bind_min_x2);
  t.add("min", bind_min);
  t.add("max", bind_max_x2);
  t.add("max", bind_max);

  t.add("popc", bind_popc);
  t.add("clz", bind_clz);
  t.add("brev", bind_brev);
  t.add("bfind", bind_bfind);
  t.add("bfe", bind_bfe);
  t.add("bfi", bind_bfi);
  t.add("szext", bind_szext);
  t.add("bmsk", bind_bmsk);
  t.add("shl", bind_shl);
  t.add("shr", bind_shr);
  t.add("shf", bind_shf);
  t.add("prmt", bind_prmt);

  t.add("and", bind_and);
  t.add("or", bind_or);
  t.add("xor", bind_xor);
  t.add("not", bind_not);
  t.add("cnot", bind_cnot);
  t.add("lop3", bind_lop3);

  t.add("setp", bind_setp);
  t.add("set", bind_set);
  t.add("selp", bind_selp);
  t.add("slct", bind_slct);
  t.add("cvt", bind_cvt);

  t.add("dp4a", bind_dp4a);
  t.add("dp2a", bind_dp2a);
  for (const char* op : {"vadd4", "vsub4", "vavrg4", "vabsdiff4", "vmin4", "vmax4"})
    t.add(op, bind_video4);
  for (const char* op : {"vadd2", "vsub2", "vavrg2", "vabsdiff2", "vmin2", "vmax2"})
    t.add(op, bind_video2);
}

}  // namespace lockstep::func
