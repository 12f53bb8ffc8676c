// CUDA arrays in three dimensions through an unmodified program
// (tests/host/programs/array3d_textures.cu), built for sm_75, sm_80 and sm_90 and run through
// `lockstep run`: cudaMemcpy3D to and from arrays with offsets, layered and cubemap textures,
// a layered surface, a captured cudaMemcpy3DAsync into an array, and cudaMemcpy3D's errors.
#include "host/run_lockstep.h"

#ifdef LOCKSTEP_HOST_PROGRAMS

namespace lockstep::test {
namespace {

class ArrayTextureProgram : public ::testing::TestWithParam<const char*> {};

TEST_P(ArrayTextureProgram, CopiesAndLayeredAndCubemapFetchesMatchTheCpu) {
  const ProgramOutcome r = run_lockstep(std::string(LOCKSTEP_HOST_PROGRAMS) + "/array3d_textures_" + GetParam());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "3D volume host -> array -> device -> host with offsets: ok\n"
            "tex2DLayered point and linear over 3 layers: ok\n"
            "tex1DLayered over 4 layers: ok\n"
            "texCubemap over 6 faces, point and linear: ok\n"
            "texCubemapLayered over 2 cubes, point and linear: ok\n"
            "surf2DLayeredwrite over 4 layers, read back with cudaMemcpy3D: ok\n"
            "cudaMemcpy3DAsync into a layered array, captured in a graph: ok\n"
            "cudaMemcpy3D and cubemap shape errors: ok\n"
            "PASSED\n");
  EXPECT_EQ(r.err.find("not supported"), std::string::npos) << r.err;
}

INSTANTIATE_TEST_SUITE_P(Arches, ArrayTextureProgram, ::testing::Values("sm75", "sm80", "sm90"));

}  // namespace
}  // namespace lockstep::test

#endif
