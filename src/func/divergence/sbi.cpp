// sbi: simultaneous branch interweaving. Each warp runs on a one-warp block stack (the IPDOM stack
// built here) and the CtaRunner co-issues its top's sibling path (cta_co_issue.cpp). Functional
// mode only.
#include "func/divergence/divergence_unit.h"
#include "func/divergence/unit_factories.h"

namespace lockstep::func {

namespace {
std::unique_ptr<DivergenceUnit> make_entry(const DivergenceOptions&) { return make_ipdom_stack(); }
}  // namespace

extern constinit const DivergenceUnitInfo kSbiDivergence{
    "sbi", "simultaneous branch interweaving: an if/else's two paths of one warp issued together (functional mode only)",
    {}, make_entry,
    // Its stacks hold one warp each: compaction forms that warp's path as it is.
    {.block_level = true, .formation = FormationRule::Compaction}};

}  // namespace lockstep::func
