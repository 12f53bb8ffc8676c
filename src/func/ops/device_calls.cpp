#include "func/ops/device_calls.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "fmt/format.h"
#include "func/bound_kernel.h"
#include "func/device_heap.h"
#include "func/ops/device_runtime.h"
#include "func/ops/frame_access.h"
#include "func/warp.h"

namespace lockstep::func {

namespace {

// A NUL-terminated string at a generic device address (bounded, so a bad pointer faults or
// ends rather than running away).
std::string read_string(Warp& w, uint64_t addr, uint32_t lane) {
  std::string s;
  for (uint32_t i = 0; i < 65536; ++i) {
    const char c = static_cast<char>(*w.generic(addr + i, 1, 1, lane));
    if (c == '\0') break;
    s.push_back(c);
  }
  return s;
}

// The conversion specs come from the device program at run time, so the host printf calls
// below cannot have literal formats; each spec is rebuilt from a checked conversion letter.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
// Formats one lane's printf the way CUDA does: the argument buffer holds each argument at
// an offset aligned to its size; integers without l/ll are 4 bytes, floating values are
// doubles, %s and %p are 8-byte pointers.
std::string format_printf(Warp& w, const std::string& format, uint64_t args, uint32_t lane) {
  std::string out;
  uint64_t offset = 0;
  auto next = [&](uint32_t size) {
    offset = (offset + size - 1) / size * size;
    const uint64_t at = args + offset;
    offset += size;
    return at;
  };
  for (size_t i = 0; i < format.size(); ++i) {
    if (format[i] != '%') {
      out.push_back(format[i]);
      continue;
    }
    size_t j = i + 1;
    if (j < format.size() && format[j] == '%') {
      out.push_back('%');
      i = j;
      continue;
    }
    while (j < format.size() && std::strchr("-+ #0", format[j])) ++j;
    while (j < format.size() && (std::isdigit(static_cast<unsigned char>(format[j])) || format[j] == '.')) ++j;
    int longs = 0;
    bool half = false;
    while (j < format.size() && std::strchr("hlLqjzt", format[j])) {
      if (format[j] == 'l' || format[j] == 'L' || format[j] == 'q' || format[j] == 'j' ||
          format[j] == 'z' || format[j] == 't')
        ++longs;
      else
        half = true;
      ++j;
    }
    if (j >= format.size()) {
      out.append(format, i, std::string::npos);
      break;
    }
    const char conv = format[j];
    // The host printf gets the spec without length modifiers plus the right C type.
    std::string spec;
    for (size_t k = i; k < j; ++k)
      if (!std::strchr("hlLqjzt", format[k])) spec.push_back(format[k]);
    char buf[512];
    int n = 0;
    switch (conv) {
      case 'd': case 'i': {
        spec += "lld";
        long long v = longs ? static_cast<long long>(*reinterpret_cast<int64_t*>(w.generic(next(8), 8, 8, lane)))
                            : static_cast<long long>(*reinterpret_cast<int32_t*>(w.generic(next(4), 4, 4, lane)));
        if (half) v = static_cast<short>(v);
        n = std::snprintf(buf, sizeof buf, spec.c_str(), v);
        break;
      }
      case 'u': case 'x': case 'X': case 'o': case 'c': {
        spec += conv == 'c' ? "c" : std::string("ll") + conv;
        unsigned long long v = longs ? *reinterpret_cast<uint64_t*>(w.generic(next(8), 8, 8, lane))
                                     : *reinterpret_cast<uint32_t*>(w.generic(next(4), 4, 4, lane));
        if (conv == 'c') n = std::snprintf(buf, sizeof buf, spec.c_str(), static_cast<int>(v));
        else n = std::snprintf(buf, sizeof buf, spec.c_str(), v);
        break;
      }
      case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A': {
        spec.push_back(conv);
        double v;
        std::memcpy(&v, w.generic(next(8), 8, 8, lane), 8);
        n = std::snprintf(buf, sizeof buf, spec.c_str(), v);
        break;
      }
      case 's': {
        spec.push_back('s');
        uint64_t p;
        std::memcpy(&p, w.generic(next(8), 8, 8, lane), 8);
        const std::string s = p ? read_string(w, p, lane) : std::string("(null)");
        n = std::snprintf(buf, sizeof buf, spec.c_str(), s.c_str());
        break;
      }
      case 'p': {
        uint64_t p;
        std::memcpy(&p, w.generic(next(8), 8, 8, lane), 8);
        spec += "llx";
        n = std::snprintf(buf, sizeof buf, ("0x" + spec.substr(0)).c_str(), static_cast<unsigned long long>(p));
        break;
      }
      default:
        out.append(format, i, j - i + 1);  // unknown conversion: printed as written
        i = j;
        continue;
    }
    if (n > 0) out.append(buf, std::min<size_t>(static_cast<size_t>(n), sizeof buf - 1));
    i = j;
  }
  return out;
}

#pragma GCC diagnostic pop

// table: [format offset, args offset, result offset or ~0u] (offsets in the caller frame)
void vprintf_h(const ExecInst& in, Warp& w) {
  const std::vector<uint32_t>& t = w.launch->kernel->tables[in.table];
  for_each_lane(w.exec, [&](uint32_t lane) {
    const auto fmt_addr = read_local<uint64_t>(w, t[0], lane);
    const auto args = read_local<uint64_t>(w, t[1], lane);
    const std::string format = read_string(w, fmt_addr, lane);
    if (w.launch->printf_out) w.launch->printf_out->append(format_printf(w, format, args, lane));
    if (t[2] != ~0u) {
      const int32_t result = 0;
      std::memcpy(w.local(w.frame_base() + t[2], 4, 1, lane), &result, 4);
    }
  });
}

// table: [message, file, line, function] offsets in the caller frame
void assertfail_h(const ExecInst& in, Warp& w) {
  const std::vector<uint32_t>& t = w.launch->kernel->tables[in.table];
  const uint32_t lane = static_cast<uint32_t>(std::countr_zero(w.exec));
  const std::string message = read_string(w, read_local<uint64_t>(w, t[0], lane), lane);
  const std::string file = read_string(w, read_local<uint64_t>(w, t[1], lane), lane);
  const auto line = read_local<uint32_t>(w, t[2], lane);
  const std::string function = read_string(w, read_local<uint64_t>(w, t[3], lane), lane);
  w.fault(FaultKind::AssertFailed, lane, 0, 0, "",
          fmt::format("{}:{}: {}: Assertion `{}` failed.", file, line, function, message));
}

// table: [size offset, result offset] in the caller frame. Lanes allocate in lane order, so the
// addresses are deterministic.
void malloc_h(const ExecInst& in, Warp& w) {
  const std::vector<uint32_t>& t = w.launch->kernel->tables[in.table];
  for_each_lane(w.exec, [&](uint32_t lane) {
    const auto bytes = read_local<uint64_t>(w, t[0], lane);
    const uint64_t address = w.launch->heap ? w.launch->heap->allocate(bytes) : 0;
    std::memcpy(w.local(w.frame_base() + t[1], 8, 1, lane), &address, 8);
  });
}

// table: [pointer offset] in the caller frame.
void free_h(const ExecInst& in, Warp& w) {
  const std::vector<uint32_t>& t = w.launch->kernel->tables[in.table];
  for_each_lane(w.exec, [&](uint32_t lane) {
    const auto address = read_local<uint64_t>(w, t[0], lane);
    if (w.launch->heap == nullptr || !w.launch->heap->release(address))
      w.fault(FaultKind::InvalidFree, lane, address, 0, "global",
              fmt::format("free({:#x}): not an address malloc returned, or already freed", address));
  });
}

// table: [handle, value]. A conditional handle (cudaGraphConditionalHandleCreate) is the device
// address of the 32-bit value the conditional node reads when it runs.
void set_conditional_h(const ExecInst& in, Warp& w) {
  const std::vector<uint32_t>& t = w.launch->kernel->tables[in.table];
  for_each_lane(w.exec, [&](uint32_t lane) {
    const auto value = read_local<uint32_t>(w, t[1], lane);
    std::memcpy(w.global(read_local<uint64_t>(w, t[0], lane), 4, 4, lane), &value, 4);
  });
}

}  // namespace

bool is_device_runtime_call(const std::string& name) {
  return name == "cudaGraphSetConditional" || find_device_runtime_call(name) != nullptr;
}

std::optional<ExecInst> bind_device_call(const ir::Instruction& inst, BindContext& ctx,
                                         const std::string& name, const ir::Operand* results,
                                         const ir::Operand* args) {
  auto offsets = [&](size_t expected_args) {
    if (!args || args->elements.size() != expected_args)
      ctx.error(inst, "call to '" + name + "' expects " + std::to_string(expected_args) + " arguments");
    std::vector<uint32_t> t;
    for (const ir::Operand& a : args->elements) {
      if (a.kind != ir::Operand::Kind::Symbol || a.symbol.space != ir::SymbolSpace::FrameParam)
        ctx.error(a, "call arguments must be .param variables");
      t.push_back(static_cast<uint32_t>(a.symbol.value));
    }
    return t;
  };
  Handler fn = nullptr;
  std::vector<uint32_t> t;
  if (name == "vprintf") {
    fn = vprintf_h;
    t = offsets(2);
    uint32_t result = ~0u;
    if (results && !results->elements.empty()) {
      const ir::Operand& r = results->elements[0];
      if (r.kind == ir::Operand::Kind::Symbol && r.symbol.space == ir::SymbolSpace::FrameParam)
        result = static_cast<uint32_t>(r.symbol.value);
    }
    t.push_back(result);
  } else if (name == "__assertfail") {
    fn = assertfail_h;
    t = offsets(5);
  } else if (name == "malloc") {
    fn = malloc_h;
    t = offsets(1);
    const ir::Operand* r = results && results->elements.size() == 1 ? &results->elements[0] : nullptr;
    if (r == nullptr || r->kind != ir::Operand::Kind::Symbol || r->symbol.space != ir::SymbolSpace::FrameParam)
      ctx.error(inst, "call to 'malloc' must return its result in a .param variable");
    t.push_back(static_cast<uint32_t>(r->symbol.value));
  } else if (name == "free") {
    fn = free_h;
    t = offsets(1);
  } else if (name == "cudaGraphSetConditional") {
    fn = set_conditional_h;
    t = offsets(2);
  } else if (const DeviceRuntimeCall* call = find_device_runtime_call(name)) {
    fn = call->fn;
    t = call->args == 0 && (!args || args->elements.empty()) ? std::vector<uint32_t>{} : offsets(call->args);
    const ir::Operand* r = results && results->elements.size() == 1 ? &results->elements[0] : nullptr;
    if (r == nullptr || r->kind != ir::Operand::Kind::Symbol || r->symbol.space != ir::SymbolSpace::FrameParam)
      ctx.error(inst, "call to '" + name + "' must return its result in a .param variable");
    t.push_back(static_cast<uint32_t>(r->symbol.value));
  } else {
    return std::nullopt;
  }
  // Not a control instruction: the call returns to the next PC like any other instruction.
  ExecInst e = make_exec(inst, fn);
  e.table = ctx.table(std::move(t));
  return e;
}

}  // namespace lockstep::func
