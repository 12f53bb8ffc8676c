// dwf: dynamic warp formation (seed 001 §3.3.5). The CtaRunner forms warps by PC across a block's
// warps (warp_formation.h); each home warp keeps its threads' PCs in branch barriers, so dwf reads
// the branch barriers' sm.yield_after. Functional mode only.
#include "func/divergence/divergence_unit.h"
#include "func/divergence/unit_factories.h"

namespace lockstep::func {

namespace {
std::unique_ptr<DivergenceUnit> make_entry(const DivergenceOptions& o) { return make_branch_barrier(o.yield_after); }
}  // namespace

extern constinit const DivergenceUnitInfo kDwfDivergence{
    "dwf", "dynamic warp formation: warps formed by PC across a block's warps",
    kYieldAfterParams, make_entry,
    {.block_level = true, .formation = FormationRule::InPlaceLut}};

}  // namespace lockstep::func
