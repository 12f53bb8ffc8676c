#include "runtime/user_objects.h"

#include <algorithm>

namespace lockstep::runtime {

void UserObjectRefs::retain(const std::shared_ptr<UserObject>& object, unsigned count) {
  auto it = std::find_if(held_.begin(), held_.end(), [&](const Held& h) { return h.object == object; });
  if (it == held_.end()) {
    held_.push_back({object, count});
  } else {
    it->count += count;
  }
}

bool UserObjectRefs::release(const void* handle, unsigned count) {
  auto it = std::find_if(held_.begin(), held_.end(), [&](const Held& h) { return h.object.get() == handle; });
  if (it == held_.end() || it->count < count) return false;
  it->count -= count;
  if (it->count == 0) held_.erase(it);
  return true;
}

cudaUserObject_t UserObjectTable::create(void* ptr, cudaHostFn_t destroy, unsigned references) {
  auto object = std::make_shared<UserObject>(ptr, destroy);
  const void* handle = object.get();
  objects_.emplace(handle, Entry{std::move(object), references});
  return reinterpret_cast<cudaUserObject_t>(const_cast<void*>(handle));
}

std::shared_ptr<UserObject> UserObjectTable::find(const void* handle) const {
  auto it = objects_.find(handle);
  return it == objects_.end() ? nullptr : it->second.object;
}

bool UserObjectTable::retain(const void* handle, unsigned count) {
  auto it = objects_.find(handle);
  if (it == objects_.end()) return false;
  it->second.references += count;
  return true;
}

bool UserObjectTable::release(const void* handle, unsigned count) {
  auto it = objects_.find(handle);
  if (it == objects_.end() || it->second.references < count) return false;
  it->second.references -= count;
  if (it->second.references == 0) objects_.erase(it);  // the object goes with the last owner
  return true;
}

}  // namespace lockstep::runtime
