// Registration of the texture and surface family: tex, tld4, txq over texture objects and
// suld.b, sust.b, suq over surface objects. Handles are device addresses of the descriptors
// the runtime writes (func/texture_descriptor.h).
#include "func/ops/texture_binders.h"

namespace lockstep::func {

void register_texture_ops(OpTable& t) {
  t.add("tex", texture::bind_tex);
  t.add("tld4", texture::bind_tld4);
  t.add("txq", texture::bind_txq);
  t.add("suq", texture::bind_suq);
  t.add("suld", texture::bind_suld);
  t.add("sust", texture::bind_sust);
}

}  // namespace lockstep::func
