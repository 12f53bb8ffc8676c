// sbi: simultaneous branch interweaving. Each warp runs on a one-warp block stack (the IPDOM stack
// built here) and the CtaRunner co-issues its top's sibling path (cta_co_issue.cpp; in timing
// mode through the SM's secondary issue path, sim/sm_co_issue.cpp).
#include "func/divergence/divergence_unit.h"
#include "func/divergence/unit_factories.h"

namespace lockstep::func {

namespace {
std::unique_ptr<DivergenceUnit> make_entry(const DivergenceOptions&) { return make_ipdom_stack(); }
}  // namespace

extern constinit const DivergenceUnitInfo kSbiDivergence{
    "sbi", "simultaneous branch interweaving: an if/else's two paths of one warp issued together",
    {}, make_entry,
    // Its stacks hold one warp each: compaction forms that warp's path as it is.
    {.block_level = true,
     .formation = FormationRule::Compaction,
     .stack_sharing = DivergenceTraits::StackSharing::Warp,
     .co_issue = DivergenceTraits::CoIssue::SiblingPath}};

}  // namespace lockstep::func
