// Registration of the warp-level family: shfl, vote, match, redux, activemask, bar.warp.sync,
// elect.sync. The lane-group rule for widths other than 32 is described in warp_common.h.
#include "func/ops/warp_binders.h"

namespace lockstep::func {

void register_warp_ops(OpTable& t) {
  t.add("shfl", warp_ops::bind_shfl);
  t.add("vote", warp_ops::bind_vote);
  t.add("activemask", warp_ops::bind_activemask);
  t.add("bar", warp_ops::bind_bar_warp);  // only bar.warp.sync; other bar forms are control's
  t.add("elect", warp_ops::bind_elect);
  t.add("match", warp_ops::bind_match);
  t.add("redux", warp_ops::bind_redux);
}

}  // namespace lockstep::func
