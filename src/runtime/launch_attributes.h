#pragma once
// Launch attributes (cudaLaunchAttributeID) as streams and kernel nodes keep them: which ones a
// kernel node may hold, and what CUDA reports for one never set.
#include <driver_types.h>

namespace lockstep::runtime {

// Whether a kernel node may hold attribute `id` ("valid for graph nodes" in driver_types.h).
bool kernel_node_attribute(cudaLaunchAttributeID id);

// Whether CUDA accepts `value` for `id`: an access-policy window's hit ratio is in [0, 1].
bool valid_attribute(cudaLaunchAttributeID id, const cudaLaunchAttributeValue& value);

// The value reported for an attribute never set: automatic synchronization, clusters of one
// block, the default memory-synchronization domain mapped as CUDA maps it (default 0, remote 1),
// zero otherwise.
cudaLaunchAttributeValue unset_attribute(cudaLaunchAttributeID id);

}  // namespace lockstep::runtime
