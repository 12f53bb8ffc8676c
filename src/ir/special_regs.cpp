#include "ir/special_regs.h"

#include <map>

namespace lockstep::ir {

namespace {

struct Xyz {
  SpecialReg x, y, z;
};

const std::map<std::string, Xyz, std::less<>>& vector_specials() {
  using S = SpecialReg;
  static const std::map<std::string, Xyz, std::less<>> table = {
      {"%tid", {S::TidX, S::TidY, S::TidZ}},
      {"%ntid", {S::NtidX, S::NtidY, S::NtidZ}},
      {"%ctaid", {S::CtaidX, S::CtaidY, S::CtaidZ}},
      {"%nctaid", {S::NctaidX, S::NctaidY, S::NctaidZ}},
      {"%clusterid", {S::ClusterIdX, S::ClusterIdY, S::ClusterIdZ}},
      {"%nclusterid", {S::NClusterIdX, S::NClusterIdY, S::NClusterIdZ}},
      {"%cluster_ctaid", {S::ClusterCtaidX, S::ClusterCtaidY, S::ClusterCtaidZ}},
      {"%cluster_nctaid", {S::ClusterNCtaidX, S::ClusterNCtaidY, S::ClusterNCtaidZ}},
  };
  return table;
}

const std::map<std::string, SpecialReg, std::less<>>& scalar_specials() {
  using S = SpecialReg;
  static const std::map<std::string, SpecialReg, std::less<>> table = {
      {"%laneid", S::LaneId},
      {"WARP_SZ", S::WarpSize},
      {"%warpid", S::WarpId},
      {"%nwarpid", S::NWarpId},
      {"%smid", S::SmId},
      {"%nsmid", S::NSmId},
      {"%gridid", S::GridId},
      {"%lanemask_eq", S::LanemaskEq},
      {"%lanemask_le", S::LanemaskLe},
      {"%lanemask_lt", S::LanemaskLt},
      {"%lanemask_ge", S::LanemaskGe},
      {"%lanemask_gt", S::LanemaskGt},
      {"%dynamic_smem_size", S::DynamicSmemSize},
      {"%total_smem_size", S::TotalSmemSize},
      {"%cluster_ctarank", S::ClusterCtaRank},
      {"%cluster_nctarank", S::ClusterNCtaRank},
      {"%clock", S::Clock},
      {"%clock64", S::Clock64},
      {"%globaltimer", S::GlobalTimer},
  };
  return table;
}

}  // namespace

std::optional<SpecialOperand> lookup_special(const std::string& base, const std::string& component) {
  if (auto it = vector_specials().find(base); it != vector_specials().end()) {
    if (component == "x") return SpecialOperand{it->second.x};
    if (component == "y") return SpecialOperand{it->second.y};
    if (component == "z") return SpecialOperand{it->second.z};
    return std::nullopt;
  }
  if (!component.empty()) return std::nullopt;
  if (auto it = scalar_specials().find(base); it != scalar_specials().end())
    return SpecialOperand{it->second};
  if (base.rfind("%envreg", 0) == 0 && base.size() > 7) {
    uint32_t n = 0;
    for (size_t i = 7; i < base.size(); ++i) {
      if (base[i] < '0' || base[i] > '9') return std::nullopt;
      n = n * 10 + static_cast<uint32_t>(base[i] - '0');
    }
    if (n < 32) return SpecialOperand{SpecialReg::EnvReg, n};
  }
  return std::nullopt;
}

}  // namespace lockstep::ir
