// Registration of the tensor family: wmma (warp matrix functions), mma.sync with the PTX ISA's
// documented fragment layouts, ldmatrix and stmatrix. Every form needs a 32-lane warp executed
// by all its lanes (tensor_common.h: require_whole_warp).
#include "func/ops/tensor_binders.h"

namespace lockstep::func {

void register_tensor_ops(OpTable& t) {
  t.add("wmma", tensor::bind_wmma);
  t.add("mma", tensor::bind_mma);
  t.add("ldmatrix", tensor::bind_ldmatrix);
  t.add("stmatrix", tensor::bind_stmatrix);
}

}  // namespace lockstep::func
