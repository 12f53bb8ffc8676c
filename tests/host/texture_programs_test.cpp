// Texture and surface objects through an unmodified program (tests/host/programs/textures.cu),
// built for sm_75, sm_80 and sm_90 and run through `lockstep run`: a bilinear resize over a
// CUDA array, normalized-float reads, a tex1Dfetch gather and a surface pass.
#include "host/run_lockstep.h"

#ifdef LOCKSTEP_HOST_PROGRAMS

namespace lockstep::test {
namespace {

class TextureProgram : public ::testing::TestWithParam<const char*> {};

TEST_P(TextureProgram, ResizeGrayscaleGatherAndSurfaceMatchTheCpu) {
  const ProgramOutcome r = run_lockstep(std::string(LOCKSTEP_HOST_PROGRAMS) + "/textures_" + GetParam());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "bilinear resize 64x48 -> 40x30: ok\n"
            "grayscale of 20x12 RGBA8 via normalized reads: ok\n"
            "tex1Dfetch gather of 1000 ints (53 outside read 0): ok\n"
            "surface invert of 32x16 uchar4: ok\n"
            "PASSED\n");
  EXPECT_EQ(r.err.find("not supported"), std::string::npos) << r.err;
}

INSTANTIATE_TEST_SUITE_P(Arches, TextureProgram, ::testing::Values("sm75", "sm80", "sm90"));

}  // namespace
}  // namespace lockstep::test

#endif
