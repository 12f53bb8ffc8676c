#include "runtime/launch_attributes.h"

namespace lockstep::runtime {

bool kernel_node_attribute(cudaLaunchAttributeID id) {
  switch (id) {
    case cudaLaunchAttributeAccessPolicyWindow:
    case cudaLaunchAttributeCooperative:
    case cudaLaunchAttributeClusterDimension:
    case cudaLaunchAttributeClusterSchedulingPolicyPreference:
    case cudaLaunchAttributePriority:
    case cudaLaunchAttributeMemSyncDomainMap:
    case cudaLaunchAttributeMemSyncDomain:
    case cudaLaunchAttributePreferredClusterDimension:
    case cudaLaunchAttributeDeviceUpdatableKernelNode:
    case cudaLaunchAttributeNvlinkUtilCentricScheduling:
      return true;
    default:
      return false;
  }
}

bool valid_attribute(cudaLaunchAttributeID id, const cudaLaunchAttributeValue& value) {
  if (id != cudaLaunchAttributeAccessPolicyWindow) return true;
  return value.accessPolicyWindow.hitRatio >= 0.0f && value.accessPolicyWindow.hitRatio <= 1.0f;
}

cudaLaunchAttributeValue unset_attribute(cudaLaunchAttributeID id) {
  cudaLaunchAttributeValue v{};
  if (id == cudaLaunchAttributeSynchronizationPolicy) v.syncPolicy = cudaSyncPolicyAuto;
  if (id == cudaLaunchAttributeClusterDimension) v.clusterDim = {1, 1, 1};
  if (id == cudaLaunchAttributeMemSyncDomainMap) {
    v.memSyncDomainMap.default_ = 0;
    v.memSyncDomainMap.remote = 1;
  }
  return v;
}

}  // namespace lockstep::runtime
