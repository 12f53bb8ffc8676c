// large-warp: tbc with one SIMT stack per large warp of sm.large_warp_size consecutive warps
// instead of one per block (seed 001 fig 3-17), issued as sub-warps compacted by lane. The
// CtaRunner reads the size; a warp on its own runs the IPDOM stack built here. Functional mode only.
#include "func/divergence/divergence_unit.h"
#include "func/divergence/unit_factories.h"

namespace lockstep::func {

namespace {

// DivergenceOptions::large_warp_size.
constexpr policy::Param kParams[] = {
    {"sm.large_warp_size", 4, 1, 64,
     "large-warp: consecutive warps of a block that make one large warp, run by one SIMT stack and issued as "
     "sub-warps compacted by lane (the other units ignore it)"},
};

std::unique_ptr<DivergenceUnit> make_entry(const DivergenceOptions&) { return make_ipdom_stack(); }

}  // namespace

extern constinit const DivergenceUnitInfo kLargeWarpDivergence{
    "large-warp", "large warps of sm.large_warp_size warps, one SIMT stack each, compacted sub-warps",
    kParams, make_entry,
    // Fig 3-17 (b): each cycle the scheduler takes one active thread from every column of the
    // large warp's mask matrix, which is tbc's compaction.
    {.block_level = true,
     .formation = FormationRule::Compaction,
     .stack_sharing = DivergenceTraits::StackSharing::LargeWarp}};

}  // namespace lockstep::func
