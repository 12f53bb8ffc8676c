// 11_bfs: level-synchronous BFS on a random CSR graph, one launch per level driven by the test.
// Distances are unique whatever order the atomics run in; each next frontier must hold exactly
// the vertices of the next level (its order depends on atomic order, so it is compared sorted).
#include <algorithm>
#include <queue>

#include "kernels/kernel_test_util.h"

namespace lockstep::test {
namespace {

class Bfs : public KernelProgramTest {};

struct Csr {
  std::vector<int32_t> offsets, columns;
};

Csr random_graph(TestRng& rng, int vertices) {
  Csr g;
  g.offsets.push_back(0);
  for (int v = 0; v < vertices; ++v) {
    int degree = rng.range(0, 5);
    for (int e = 0; e < degree; ++e) g.columns.push_back(rng.range(0, vertices - 1));
    if (v + 7 < vertices && v % 3 == 0) g.columns.push_back(v + 7);  // long chains: many levels
    g.offsets.push_back(static_cast<int32_t>(g.columns.size()));
  }
  return g;
}

std::vector<int32_t> cpu_bfs(const Csr& g, int vertices, int source) {
  std::vector<int32_t> dist(vertices, -1);
  std::queue<int> q;
  dist[source] = 0;
  q.push(source);
  while (!q.empty()) {
    int v = q.front();
    q.pop();
    for (int e = g.offsets[v]; e < g.offsets[v + 1]; ++e) {
      int u = g.columns[e];
      if (dist[u] == -1) {
        dist[u] = dist[v] + 1;
        q.push(u);
      }
    }
  }
  return dist;
}

TEST_P(Bfs, LevelByLevel) {
  ModuleId m = load("11_bfs");
  TestRng rng(1101);
  const int vertices = 1500;
  const Csr g = random_graph(rng, vertices);
  const std::vector<int32_t> expected = cpu_bfs(g, vertices, 0);

  std::vector<int32_t> dist(vertices, -1);
  dist[0] = 0;
  DeviceBuffer<int32_t> doffsets(engine_, g.offsets), dcolumns(engine_, g.columns);
  DeviceBuffer<int32_t> ddist(engine_, dist), dfront_a(engine_, vertices), dfront_b(engine_, vertices);
  DeviceBuffer<int32_t> dnext_size(engine_, 1);
  dfront_a.upload({0});
  DeviceBuffer<int32_t>* frontier = &dfront_a;
  DeviceBuffer<int32_t>* next = &dfront_b;
  int32_t frontier_size = 1;
  int levels = 0;
  for (int32_t level = 0; frontier_size > 0; ++level) {
    ASSERT_LT(level, vertices) << "BFS does not terminate";
    engine_.memset(dnext_size.address(), 0, sizeof(int32_t));
    launch_ok(engine_, m, "bfs_level", {blocks_for(frontier_size, 64)}, {64},
              {doffsets.arg(), dcolumns.arg(), ddist.arg(), frontier->arg(), arg(frontier_size),
               next->arg(), dnext_size.arg(), arg(level)});
    frontier_size = dnext_size.download()[0];
    std::vector<int32_t> got = next->download();
    got.resize(static_cast<size_t>(std::clamp(frontier_size, 0, vertices)));
    std::sort(got.begin(), got.end());
    std::vector<int32_t> level_expected;
    for (int v = 0; v < vertices; ++v)
      if (expected[v] == level + 1) level_expected.push_back(v);
    ASSERT_TRUE(same_bits(got, level_expected)) << "frontier of level " << level + 1;
    std::swap(frontier, next);
    ++levels;
  }
  EXPECT_GT(levels, 5);  // the graph really needs several launches
  EXPECT_TRUE(same_bits(ddist.download(), expected));
}

INSTANTIATE_TEST_SUITE_P(Arch, Bfs, ::testing::ValuesIn(kernel_cases(WarpOps::kNone)),
                         kernel_case_name);

}  // namespace
}  // namespace lockstep::test
