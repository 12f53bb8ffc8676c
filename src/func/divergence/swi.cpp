// swi: simultaneous warp interweaving. As sbi (sbi.cpp), and when a warp has no sibling path to
// co-issue, the CtaRunner fills its idle lanes with another warp's path at another PC
// (cta_co_issue.cpp; in timing mode through the SM's secondary issue path, sim/sm_co_issue.cpp).
#include "func/divergence/divergence_unit.h"
#include "func/divergence/unit_factories.h"

namespace lockstep::func {

namespace {
std::unique_ptr<DivergenceUnit> make_entry(const DivergenceOptions&) { return make_ipdom_stack(); }
}  // namespace

extern constinit const DivergenceUnitInfo kSwiDivergence{
    "swi", "sbi, or else another warp's path at another PC on the idle lanes",
    {}, make_entry,
    // Its stacks hold one warp each: compaction forms that warp's path as it is.
    {.block_level = true,
     .formation = FormationRule::Compaction,
     .stack_sharing = DivergenceTraits::StackSharing::Warp,
     .co_issue = DivergenceTraits::CoIssue::SiblingOrOtherWarp}};

}  // namespace lockstep::func
