// One level of a level-synchronous breadth-first search on a CSR graph. The host launches it
// once per level: every thread takes one vertex of the current frontier, claims each unvisited
// neighbour with atomicCAS on its distance, and appends claimed vertices to the next frontier
// at a slot reserved with atomicAdd on a global counter.
extern "C" __global__ void bfs_level(const int* row_offsets, const int* columns, int* dist,
                                     const int* frontier, int frontier_size, int* next_frontier,
                                     int* next_size, int level) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= frontier_size) return;
  int v = frontier[t];
  for (int e = row_offsets[v]; e < row_offsets[v + 1]; ++e) {
    int u = columns[e];
    if (atomicCAS(&dist[u], -1, level + 1) == -1) {
      int slot = atomicAdd(next_size, 1);
      next_frontier[slot] = u;
    }
  }
}
