#pragma once
// The syntax tree of one PTX module, as written. Names are kept as strings here; the
// checker (check.h) validates them and ir/ resolves them to slots and offsets.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "ptx/error.h"

namespace lockstep::ptx {

enum class StateSpace : uint8_t { None, Reg, Sreg, Const, Global, Local, Param, Shared, Tex, Surf };

// Fundamental types as spelled in PTX (.b32, .f16x2, .pred, ...).
enum class Type : uint8_t {
  None,
  Pred,
  B8, B16, B32, B64, B128,
  U8, U16, U32, U64,
  S8, S16, S32, S64,
  F16, F16x2, BF16, BF16x2, TF32, F32, F64,
  TexRef, SurfRef, SamplerRef,
};

struct Operand {
  enum class Kind : uint8_t {
    Register,        // %r1, low, %tid.x (special registers are registers named %tid etc.)
    Immediate,       // 42, -1, 0x10 (value in int_value)
    FloatImmediate,  // 0f3F800000 (f32 bits) or 0d3FF0000000000000 (f64 bits) in bits
    Symbol,          // a label, function, variable or parameter name used as a value
    Address,         // [base+offset], [offset]; texture forms [tex, {coords}] use elements
    Vector,          // {a, b, c, d}; elements hold the parts
    Pair,            // d|p (shfl, setp with two destinations); elements hold both
    Sink,            // _
  };
  Kind kind = Kind::Register;
  SourceLoc loc;
  std::string name;          // Register / Symbol name; Address base name ("" = absolute)
  std::string component;     // special-register component: "x" of %tid.x ("" if none)
  int64_t int_value = 0;     // Immediate value; Address offset
  uint64_t bits = 0;         // FloatImmediate bits
  bool is_f64 = false;       // FloatImmediate written as 0d...
  bool negated = false;      // !%p as a source operand
  std::vector<Operand> elements;
};

// Source position in the CUDA program, from the most recent .loc before an instruction.
struct DebugLoc {
  uint32_t file = 0;  // .file index; 0 = none
  uint32_t line = 0;
  uint32_t col = 0;
};

struct Instruction {
  SourceLoc loc;
  DebugLoc debug;
  std::string guard;               // predicate register name; empty = unguarded
  bool guard_negated = false;      // @!p
  std::string opcode;              // "add"
  std::vector<std::string> modifiers;  // as written, without dots: {"rn", "f32"}
  // Operands as written. call: [Vector(results)]? Symbol(callee) [Vector(args)] [Symbol(proto)]
  std::vector<Operand> operands;

  // "add.rn.f32": the form used in diagnostics and the census.
  std::string form() const {
    std::string s = opcode;
    for (const auto& m : modifiers) s += "." + m;
    return s;
  }
};

struct Initializer {
  enum class Kind : uint8_t { Integer, Float, SymbolAddress };
  Kind kind = Kind::Integer;
  uint64_t bits = 0;        // Integer value or float bits (f32 bits for .f32 variables)
  std::string symbol;       // SymbolAddress: the named variable or function
  int64_t offset = 0;       // SymbolAddress: sym+offset
  bool generic = false;     // generic(sym)
  SourceLoc loc;
};

struct VariableDecl {
  SourceLoc loc;
  StateSpace space = StateSpace::None;
  std::string linkage;            // "", "visible", "extern", "weak", "common"
  uint32_t align = 0;             // 0 = natural alignment of the type
  Type type = Type::None;
  uint32_t vector_width = 1;      // .v2/.v4
  std::string name;
  uint32_t range = 0;             // %r<12> declares %r0..%r11: range = 12; 0 = single name
  std::vector<uint64_t> dims;     // array dimensions; a 0 entry means unsized ("[]")
  bool has_init = false;
  std::vector<Initializer> init;  // flattened initializer list
  bool ptr_attribute = false;     // .ptr was present (kernel params)
};

struct Label {
  SourceLoc loc;
  std::string name;
};

struct Statement;
struct Block {
  SourceLoc loc;
  std::vector<Statement> statements;
};

struct Pragma {
  SourceLoc loc;
  std::string text;
};

struct Statement {
  std::variant<Instruction, Label, VariableDecl, Block, Pragma> node;
};

struct PerformanceHints {
  std::optional<std::vector<uint32_t>> maxntid, reqntid, reqnctapercluster;
  std::optional<uint32_t> minnctapersm, maxnctapersm, maxnreg;
  bool explicitcluster = false;
  std::vector<std::string> pragmas;
};

struct Function {
  SourceLoc loc;
  bool is_entry = false;          // .entry (kernel) or .func
  std::string linkage;            // "", "visible", "extern", "weak"
  std::string name;
  std::vector<VariableDecl> results;  // .func (.param .b32 func_retval0) name(...)
  std::vector<VariableDecl> params;
  PerformanceHints hints;
  bool has_body = false;          // false for prototypes / .extern declarations
  Block body;
};

// .alias name, aliasee; — `name` is another name for the function `aliasee`.
struct Alias {
  SourceLoc loc;
  std::string name;
  std::string aliasee;
};

struct Module {
  std::string filename;
  uint32_t version_major = 0, version_minor = 0;
  std::vector<std::string> target;   // {"sm_80"} or {"sm_75", "texmode_independent"}
  uint32_t address_size = 64;
  std::map<uint32_t, std::string> files;  // .file index -> path
  std::vector<VariableDecl> globals;      // module-scope variables in order
  std::vector<Function> functions;        // in order of appearance (declarations included)
  std::vector<Alias> aliases;             // .alias directives in order
};

}  // namespace lockstep::ptx
