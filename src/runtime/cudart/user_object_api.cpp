// User objects (runtime/user_objects.h): a program ties a resource's lifetime to the graphs
// that use it; its destructor runs once neither the program nor any graph references it.
#include "cudart/graph_handles.h"

using namespace lockstep::runtime;

namespace {

cudaError_t invalid() { return process_runtime()->record(cudaErrorInvalidValue); }

}  // namespace

// CUDA asks for cudaUserObjectNoDestructorSync, its only flag, on every object.
extern "C" cudaError_t cudaUserObjectCreate(cudaUserObject_t* object_out, void* ptr, cudaHostFn_t destroy,
                                            unsigned int initialRefcount, unsigned int flags) {
  const RuntimeHandle r = process_runtime();
  if (object_out == nullptr || destroy == nullptr || initialRefcount == 0 || flags != cudaUserObjectNoDestructorSync)
    return invalid();
  *object_out = r->user_objects().create(ptr, destroy, initialRefcount);
  return cudaSuccess;
}

extern "C" cudaError_t cudaUserObjectRetain(cudaUserObject_t object, unsigned int count) {
  const RuntimeHandle r = process_runtime();
  if (count == 0 || !r->user_objects().retain(object, count)) return invalid();
  return cudaSuccess;
}

extern "C" cudaError_t cudaUserObjectRelease(cudaUserObject_t object, unsigned int count) {
  const RuntimeHandle r = process_runtime();
  if (count == 0 || !r->user_objects().release(object, count)) return invalid();
  return cudaSuccess;
}

// cudaGraphUserObjectMove hands the graph `count` of the program's own references; otherwise the
// graph gets new ones.
extern "C" cudaError_t cudaGraphRetainUserObject(cudaGraph_t graph, cudaUserObject_t object, unsigned int count,
                                                 unsigned int flags) {
  const RuntimeHandle r = process_runtime();
  Graph* g = r->graph_table().graph(graph);
  std::shared_ptr<UserObject> o = r->user_objects().find(object);
  if (g == nullptr || o == nullptr || count == 0 || (flags & ~unsigned{cudaGraphUserObjectMove}) != 0)
    return invalid();
  if ((flags & cudaGraphUserObjectMove) != 0 && !r->user_objects().release(object, count)) return invalid();
  g->user_objects().retain(o, count);
  return cudaSuccess;
}

extern "C" cudaError_t cudaGraphReleaseUserObject(cudaGraph_t graph, cudaUserObject_t object, unsigned int count) {
  const RuntimeHandle r = process_runtime();
  Graph* g = r->graph_table().graph(graph);
  if (g == nullptr || count == 0 || !g->user_objects().release(object, count)) return invalid();
  return cudaSuccess;
}
