# Writes INPUT as a C++ raw string constant `kSamplePtx` into OUTPUT.
file(READ ${INPUT} content)
file(WRITE ${OUTPUT} "#pragma once\n// Generated from ${INPUT}; do not edit.\ninline constexpr const char* kSamplePtx = R\"lockstep_ptx(${content})lockstep_ptx\";\n")
