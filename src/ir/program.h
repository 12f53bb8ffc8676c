#pragma once
// A kernel lowered for execution: every function reachable from the kernel flattened into one
// instruction array with program counters, registers resolved to per-warp slots, symbols to
// addresses or offsets, labels to PCs, and each branch annotated with its reconvergence PC
// (the immediate post-dominator). The instruction text is still the PTX form, decoded once by
// the lowering into typed fields (ir/decoded_form.h); func/ binds a handler to each instruction
// once, at load time.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ir/decoded_form.h"
#include "ptx/ast.h"

namespace lockstep::ir {

using Pc = uint32_t;
inline constexpr Pc kNoPc = 0xffffffffu;

// Special registers whose value is fixed for a thread during a launch are materialised into
// register slots when a warp starts; the dynamic ones (clocks, timers) are read by handlers.
enum class SpecialReg : uint8_t {
  TidX, TidY, TidZ, NtidX, NtidY, NtidZ,
  CtaidX, CtaidY, CtaidZ, NctaidX, NctaidY, NctaidZ,
  LaneId, WarpSize, WarpId, NWarpId, SmId, NSmId, GridId,
  LanemaskEq, LanemaskLe, LanemaskLt, LanemaskGe, LanemaskGt,
  DynamicSmemSize, TotalSmemSize, EnvReg,   // EnvReg: index in SpecialOperand::index
  ClusterCtaRank, ClusterNCtaRank, ClusterIdX, ClusterIdY, ClusterIdZ,
  NClusterIdX, NClusterIdY, NClusterIdZ, ClusterCtaidX, ClusterCtaidY, ClusterCtaidZ,
  ClusterNCtaidX, ClusterNCtaidY, ClusterNCtaidZ,
  // The block's reserved shared-memory region (func/shared_layout.h); ReservedSmemOffset: index 0 or 1.
  ReservedSmemBegin, ReservedSmemEnd, ReservedSmemCap, ReservedSmemOffset,
  AggrSmemSize, CurrentGraphExec, IsExplicitCluster,
  Pm, Pm64,  // performance-monitor counters %pmN, %pmN_64: index N
  // dynamic:
  Clock, Clock64, GlobalTimer, ClockHi, GlobalTimerLo, GlobalTimerHi,
};
inline bool is_dynamic(SpecialReg r) { return r >= SpecialReg::Clock; }

// Where a symbol used as an address or value lives.
enum class SymbolSpace : uint8_t {
  Global,       // module .global/.const variable: device address = module base + offset
  Shared,       // CTA shared memory offset (static layout; .extern .shared after statics)
  Local,        // offset in the current function's frame (per-thread local memory)
  KernelParam,  // offset in the launch's parameter buffer
  FrameParam,   // .param of a .func or of a call sequence: offset in the current frame
  Function,     // index into KernelProgram::functions
  Label,        // a PC (in value)
};

struct SymbolRef {
  SymbolSpace space = SymbolSpace::Global;
  uint64_t value = 0;     // offset, function index or PC, per space
  uint32_t global = 0;    // Global: index into KernelProgram::globals
  uint64_t size = 0;      // bytes of the variable (Local, FrameParam, Shared, KernelParam)
  std::string name;
};

struct Operand {
  enum class Kind : uint8_t { Reg, Pred, Imm, Special, Symbol, Address, Vector, Sink };
  Kind kind = Kind::Reg;
  ptx::SourceLoc loc;
  // Reg: slot of a 64-bit per-lane register. Pred: index of a per-warp predicate mask.
  uint32_t index = 0;
  ptx::Type reg_type = ptx::Type::None;  // declared type of a Reg/Pred
  bool negated = false;                  // !%p
  // Imm: raw bits. For FloatImmediate, is_float and is_f64 say how it was written.
  uint64_t imm = 0;
  bool is_float = false;
  bool is_f64 = false;
  // Special: which register; index = EnvReg number.
  SpecialReg special = SpecialReg::TidX;
  // Symbol or Address base symbol.
  bool has_symbol = false;
  SymbolRef symbol;
  // Address: [base_reg + offset] when base is a register (index holds the slot, kind of base
  // in base_is_reg), [symbol + offset], or [offset]. Texture/surface: elements = coordinates.
  bool base_is_reg = false;
  int64_t offset = 0;
  std::vector<Operand> elements;  // Vector parts, texture coordinates, Pair (d|p) parts
  bool is_pair = false;           // Vector that was written d|p
};

struct Instruction {
  ptx::SourceLoc loc;      // in the PTX file
  ptx::DebugLoc debug;     // in the CUDA source (.loc)
  std::string opcode;
  std::vector<std::string> modifiers;
  // opcode and modifiers decoded (typed opcode, memory space, effects): what the rest of the
  // simulator asks of an instruction instead of comparing strings. Set by the lowering; code
  // that builds an Instruction by hand calls decode_form itself.
  DecodedForm decoded;
  std::vector<Operand> operands;
  bool has_guard = false;
  uint32_t guard = 0;      // predicate index
  bool guard_negated = false;
  // Control flow, filled by lowering: bra target (also in operands[0] as a Label symbol),
  // the reconvergence PC of a potentially divergent branch, and the function it belongs to.
  Pc target = kNoPc;
  Pc reconverge = kNoPc;
  uint32_t function = 0;

  std::string form() const {
    std::string s = opcode;
    for (const auto& m : modifiers) s += "." + m;
    return s;
  }
};

struct ParamSlot {
  std::string name;
  uint32_t offset = 0;  // in the parameter buffer (kernel) or frame (function)
  uint32_t size = 0;
  uint32_t align = 1;
};

struct Function {
  std::string name;
  bool is_entry = false;
  bool is_extern = false;       // declared without a body (vprintf, __assertfail, ...)
  uint32_t module_ordinal = 0;  // index in ModuleProgram::function_names (function addresses)
  Pc entry = kNoPc;             // first instruction
  Pc exit = kNoPc;              // the synthetic exit instruction every ret branches to
  uint32_t frame_size = 0;      // bytes of per-thread frame (locals + params)
  uint32_t frame_align = 16;
  std::vector<ParamSlot> params;   // formal parameters (frame offsets for .func)
  std::vector<ParamSlot> results;  // return parameters (frame offsets)
  uint32_t first_slot = 0, slot_count = 0;  // the function's register slots
  uint32_t first_pred = 0, pred_count = 0;
};

struct GlobalVar {
  std::string name;
  ptx::StateSpace space = ptx::StateSpace::Global;  // Global or Const
  uint64_t size = 0;
  uint32_t align = 1;
  bool is_extern = false;
  std::vector<uint8_t> init;   // initial bytes (size bytes) when initialised
  struct Reloc {               // init bytes at offset hold the address of symbol + addend
    uint64_t offset;
    std::string symbol;
    int64_t addend;
    bool generic;
  };
  std::vector<Reloc> relocs;
};

// Why a kernel could not be lowered (a construct lockstep cannot run). The module still loads;
// binding the kernel raises this as a ptx::Error, so only launches of this kernel fail.
struct LoweringError {
  std::string file;
  ptx::SourceLoc loc;
  std::string message;
};

struct KernelProgram {
  std::string name;
  std::optional<LoweringError> lowering_error;  // set: only name, file, hints and params are valid
  std::string file;                 // PTX file name, for diagnostics
  std::vector<Instruction> code;    // all functions, each ending in its exit instruction
  std::vector<Function> functions;  // functions[0] is the kernel
  std::vector<ParamSlot> params;    // kernel parameters in the launch buffer
  uint32_t param_buffer_size = 0;
  uint32_t slot_count = 0;          // 64-bit register slots per lane
  uint32_t pred_count = 0;          // predicate registers per warp
  uint32_t static_shared_size = 0;
  uint32_t dynamic_shared_align = 16;
  bool uses_dynamic_shared = false;
  std::vector<std::pair<std::string, Pc>> labels;  // "fn::label" or "label" -> PC, for traces
  ptx::PerformanceHints hints;
  bool recursive = false;           // some function may re-enter itself
  bool indirect_calls = false;      // calls through a register: every function is included
  uint32_t max_frame_depth_bytes = 0;  // frame bytes along the deepest non-recursive path
};

// The module-wide part: variables placed in device memory by the engine.
struct ModuleProgram {
  std::string file;
  std::vector<GlobalVar> globals;     // .global and .const variables, in order
  std::vector<KernelProgram> kernels; // one per .entry
  // Every function of the module by ordinal; a function's device address (for function
  // pointers and indirect calls) is derived from its ordinal.
  std::vector<std::string> function_names;
};

}  // namespace lockstep::ir
