// User objects (runtime/user_objects.h): the destructor runs exactly once, when the program's
// references and every graph's are gone, whichever goes last.
#include <gtest/gtest.h>

#include "runtime/user_objects.h"

namespace lockstep::runtime {
namespace {

void count_destruction(void* counter) { ++*static_cast<int*>(counter); }

TEST(UserObjects, TheProgramsLastReferenceDestroysAnObjectNoGraphHolds) {
  int destroyed = 0;
  UserObjectTable table;
  const cudaUserObject_t o = table.create(&destroyed, count_destruction, 2);
  EXPECT_TRUE(table.release(o, 1));
  EXPECT_EQ(destroyed, 0);
  EXPECT_FALSE(table.release(o, 2));  // more than the program holds: refused, nothing released
  EXPECT_TRUE(table.retain(o, 3));
  EXPECT_TRUE(table.release(o, 4));
  EXPECT_EQ(destroyed, 1);
  EXPECT_EQ(table.find(o), nullptr);  // the handle is gone with the program's references
  EXPECT_FALSE(table.retain(o, 1));
}

TEST(UserObjects, GraphReferencesOutliveTheProgramsAndCopiesHoldTheirOwn) {
  int destroyed = 0;
  UserObjectTable table;
  const cudaUserObject_t o = table.create(&destroyed, count_destruction, 1);
  auto graph = std::make_unique<UserObjectRefs>();
  graph->retain(table.find(o), 2);
  auto copy = std::make_unique<UserObjectRefs>(*graph);  // a clone or an executable graph
  EXPECT_TRUE(table.release(o, 1));
  EXPECT_FALSE(graph->release(o, 3));
  EXPECT_TRUE(graph->release(o, 1));
  graph.reset();
  EXPECT_EQ(destroyed, 0);
  EXPECT_TRUE(copy->release(o, 2));
  EXPECT_EQ(destroyed, 1);
  EXPECT_FALSE(copy->release(o, 1));
}

}  // namespace
}  // namespace lockstep::runtime
