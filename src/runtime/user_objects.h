#pragma once
// CUDA user objects (cudaUserObjectCreate): a pointer and the callback that destroys it once
// nobody references the object any more. References are the program's (counted by the table,
// cudaUserObjectRetain/Release) and graphs' (cudaGraphRetainUserObject): a graph holds its
// references as shared owners, so a clone or an executable graph, which copies its graph, holds
// them too, and destroying any of them releases its share. The callback runs when the last
// reference goes, on the thread that released it (CUDA forbids it from calling CUDA).
#include <memory>
#include <unordered_map>
#include <vector>

#include <driver_types.h>

namespace lockstep::runtime {

class UserObject {
 public:
  UserObject(void* ptr, cudaHostFn_t destroy) : ptr_(ptr), destroy_(destroy) {}
  UserObject(const UserObject&) = delete;
  UserObject& operator=(const UserObject&) = delete;
  ~UserObject() { destroy_(ptr_); }

 private:
  void* ptr_;
  cudaHostFn_t destroy_;
};

// A graph's references to user objects, by object.
class UserObjectRefs {
 public:
  void retain(const std::shared_ptr<UserObject>& object, unsigned count);
  // False (nothing released) when the graph holds fewer than `count` references to `handle`.
  bool release(const void* handle, unsigned count);

 private:
  struct Held {
    std::shared_ptr<UserObject> object;
    unsigned count = 0;
  };
  std::vector<Held> held_;
};

// The objects the program holds references to, by handle (the object's address).
class UserObjectTable {
 public:
  cudaUserObject_t create(void* ptr, cudaHostFn_t destroy, unsigned references);
  // The object, or null for a handle the program holds no reference to.
  std::shared_ptr<UserObject> find(const void* handle) const;
  // False for an unknown handle.
  bool retain(const void* handle, unsigned count);
  // False for an unknown handle or more references than the program holds. The program's last
  // reference going forgets the handle; the object goes when graphs hold none either.
  bool release(const void* handle, unsigned count);

 private:
  struct Entry {
    std::shared_ptr<UserObject> object;
    unsigned references = 0;
  };
  std::unordered_map<const void*, Entry> objects_;
};

}  // namespace lockstep::runtime
