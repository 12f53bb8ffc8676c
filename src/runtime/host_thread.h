#pragma once
// Which host thread is calling, for the state CUDA keeps per host thread (the last error, the
// <<<>>> configurations pushed and not yet popped, the stream-capture mode).
//
// Not std::thread::id: the C++ library hands a finished thread's id to the next thread it
// starts (glibc reuses the id at once), so state keyed by it would leak from a thread that
// ended into an unrelated later one. A new host thread must start as CUDA starts it: no last
// error, no pending configuration, global capture mode.
#include <cstdint>

namespace lockstep::runtime {

// The calling thread's number: 1 for the first thread that asks, then 2, 3, ... in the order
// threads first ask; never given to another thread, for the life of the process.
uint64_t current_host_thread();

}  // namespace lockstep::runtime
