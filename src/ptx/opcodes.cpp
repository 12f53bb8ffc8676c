#include "ptx/opcodes.h"

#include <algorithm>
#include <array>

namespace lockstep::ptx {
namespace {

// Every instruction name in the PTX ISA 9.x instruction-set chapter, sorted (checked by the
// static_assert below). Names containing a '.' in the manual (e.g. cp.async.bulk) are listed
// by their first component, which is what the lexer delivers as the opcode.
constexpr std::array kOpcodes = std::to_array<std::string_view>({
    "abs", "activemask", "add", "addc", "alloca", "and", "applypriority", "atom",
    "bar", "barrier", "bfe", "bfi", "bfind", "bmsk", "bra", "brev", "brkpt", "brx",
    "call", "clusterlaunchcontrol", "clz", "cnot", "copysign", "cos", "cp", "createpolicy",
    "cvt", "cvta", "discard", "div", "dp2a", "dp4a", "elect", "ex2", "exit", "fence",
    "fma", "fns", "getctarank", "griddepcontrol", "isspacep", "istypep", "ld", "ldmatrix",
    "ldu", "lg2", "lop3", "mad", "mad24", "madc", "mapa", "match", "max", "mbarrier",
    "membar", "min", "mma", "mov", "movmatrix", "mul", "mul24", "multimem", "nanosleep",
    "neg", "not", "or", "pmevent", "popc", "prefetch", "prefetchu", "prmt", "rcp", "red",
    "redux", "rem", "ret", "rsqrt", "sad", "selp", "set", "setmaxnreg", "setp", "shf",
    "shfl", "shl", "shr", "sin", "slct", "sqrt", "st", "stackrestore", "stacksave",
    "stmatrix", "sub", "subc", "suld", "suq", "sured", "sust", "szext", "tanh", "tcgen05",
    "tensormap", "testp", "tex", "tld4", "trap", "txq", "vabsdiff", "vabsdiff2",
    "vabsdiff4", "vadd", "vadd2", "vadd4", "vavrg2", "vavrg4", "vmad", "vmax", "vmax2",
    "vmax4", "vmin", "vmin2", "vmin4", "vote", "vset", "vset2", "vset4", "vshl", "vshr",
    "vsub", "vsub2", "vsub4", "wgmma", "wmma", "xor",
});

static_assert(std::is_sorted(kOpcodes.begin(), kOpcodes.end()), "kOpcodes must stay sorted");

}  // namespace

bool is_known_opcode(std::string_view name) {
  return std::binary_search(kOpcodes.begin(), kOpcodes.end(), name);
}

std::span<const std::string_view> known_opcodes() { return kOpcodes; }

}  // namespace lockstep::ptx
