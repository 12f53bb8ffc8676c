#pragma once
// Linking the PTX of several translation units into one module, as nvlink links their code
// for a program built with separate compilation (-rdc=true): an `.extern` declaration binds
// to the unit that defines the name, `.weak` definitions give way to a strong one (or the
// first wins), `.common` variables merge at their largest size, and each unit's internal
// names stay its own (renamed where two units chose the same one).
#include <string>
#include <vector>

#include "ptx/ast.h"

namespace lockstep::ptx {

// `units` are parsed (and checked) modules. Throws ptx::Error, located in the second unit, for
// a name that two of them define strongly ("b.ptx:4:1: multiple definition of 'f' (also
// defined in a.ptx)"), as nvlink refuses it. A name declared `.extern` and defined nowhere stays a declaration: the
// runtime supplies some (vprintf, malloc, the device runtime's launch calls), and lowering
// reports the others when a kernel uses them. The result's `.file` indices are renumbered so
// that the debug locations of every unit stay distinct.
Module link(std::vector<Module> units, std::string filename);

}  // namespace lockstep::ptx
