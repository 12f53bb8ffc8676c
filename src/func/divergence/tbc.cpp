// tbc: thread block compaction (seed 001 §3.3.5). The CtaRunner gives its warps views of one
// block-wide stack (block_stack.h) and compacts them at divergence; a warp on its own is a one-warp
// block, whose block stack is the IPDOM stack built here. Functional mode only.
#include "func/divergence/divergence_unit.h"
#include "func/divergence/unit_factories.h"

namespace lockstep::func {

namespace {
std::unique_ptr<DivergenceUnit> make_entry(const DivergenceOptions&) { return make_ipdom_stack(); }
}  // namespace

extern constinit const DivergenceUnitInfo kTbcDivergence{
    "tbc", "thread block compaction: a block-wide stack, warps compacted at divergence",
    {}, make_entry,
    {.block_level = true, .formation = FormationRule::Compaction}};

}  // namespace lockstep::func
