// Unified and pitched memory through unmodified programs (tests/host/programs), each built for
// sm_75, sm_80 and sm_90 and run through `lockstep run`: managed memory shared by host code and
// kernels (with __managed__ variables, prefetches and advice), pitched 2D images with
// cudaMemcpy2D and cudaMemset2D, and k-means over several kernels with shared-memory and global
// atomics. stdout and the exit code are exact; stderr carries only the per-kernel summary.
#include "host/run_lockstep.h"

#ifdef LOCKSTEP_HOST_PROGRAMS

namespace lockstep::test {
namespace {

class MemoryProgram : public ::testing::TestWithParam<const char*> {
 protected:
  ProgramOutcome run(const std::string& name) const {
    return run_lockstep(std::string(LOCKSTEP_HOST_PROGRAMS) + "/" + name + "_" + GetParam());
  }
};

TEST_P(MemoryProgram, ManagedMemorySharedByHostAndKernels) {
  const ProgramOutcome r = run("managed_memory");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out,
            "managed_memory: n=5000 steps=12 box=4000x3000\n"
            "alloc=cudaSuccess prefetch=cudaSuccess advise=cudaSuccess sync=cudaSuccess copy=cudaSuccess\n"
            "bounces=1760 (reference 1760) cells=256 (reference 256)\n"
            "mismatches: positions=0 bins=0 copy=0\n"
            "attributes: managed=1 same pointer=1 last prefetch=0\n"
            "PASSED\n");
  expect_only_kernel_summaries(r.err);
}

TEST_P(MemoryProgram, PitchedImageBlurAndTranspose) {
  const ProgramOutcome r = run("pitched_2d");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out,
            "pitched_2d: 200x120 pitches=1024,1024,512,512\n"
            "copies=cudaSuccess,cudaSuccess,cudaSuccess sync=cudaSuccess cleared mismatches=0\n"
            "transpose mismatches=0 padding touched=0 window mismatches=0 blur[0]=-390 blur[last]=-108\n"
            "width > pitch: cudaErrorInvalidPitchValue, last error cudaErrorInvalidPitchValue\n"
            "PASSED\n");
  expect_only_kernel_summaries(r.err);
}

TEST_P(MemoryProgram, KMeansConvergesLikeTheCpu) {
  const ProgramOutcome r = run("kmeans");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out,
            "kmeans: n=6000 k=8 iterations=19 (reference 19)\n"
            "changed per iteration: 6000 509 390 236 216 190 37 18 13 11 11 10 7 3 8 5 2 2 0\n"
            "centroids: (100,101) (354,413) (649,126) (900,899) (848,549) (149,848) (457,507) (268,398)\n"
            "sync=cudaSuccess assignment mismatches=0\n"
            "PASSED\n");
  expect_only_kernel_summaries(r.err);
}

INSTANTIATE_TEST_SUITE_P(Arches, MemoryProgram, ::testing::Values("sm75", "sm80", "sm90"));

}  // namespace
}  // namespace lockstep::test

#endif  // LOCKSTEP_HOST_PROGRAMS
