// Kernel resources from `ptxas -v`, for fat binaries without a cubin for the modelled GPU.
// ptxas (CUDA 13) writes its report on stderr, one block per kernel:
//   ptxas info    : Compiling entry function '_Z5scalePffi' for 'sm_80'
//   ptxas info    : Function properties for _Z5scalePffi
//       0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
//   ptxas info    : Used 10 registers, used 1 barriers, 400 bytes smem, 360 bytes cmem[0]
// ("bytes smem" only when the kernel has static shared memory; no cmem part from sm_90 on).
// Non-entry functions get a "Function properties" block but no "Compiling entry" line.
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <string>
#include <vector>

#include "runtime/kernel_resources.h"

extern char** environ;

namespace lockstep::runtime {

namespace {

// The unsigned number that ends right before `suffix` in `line`, if `suffix` is there.
std::optional<uint32_t> number_before(std::string_view line, std::string_view suffix) {
  const size_t end = line.find(suffix);
  if (end == std::string_view::npos) return std::nullopt;
  size_t begin = end;
  while (begin > 0 && line[begin - 1] >= '0' && line[begin - 1] <= '9') --begin;
  uint32_t value = 0;
  const auto [ptr, ec] = std::from_chars(line.data() + begin, line.data() + end, value);
  if (ec != std::errc() || ptr != line.data() + end || begin == end) return std::nullopt;
  return value;
}

// A PTX file in the temporary folder, removed when this goes away.
class TempPtxFile {
 public:
  explicit TempPtxFile(std::string_view text) {
    const char* dir = std::getenv("TMPDIR");
    path_ = std::string(dir != nullptr && *dir != '\0' ? dir : "/tmp") + "/lockstep-ptxas-XXXXXX.ptx";
    const int fd = mkstemps(path_.data(), 4);
    if (fd < 0) {
      path_.clear();
      return;
    }
    size_t written = 0;
    while (written < text.size()) {
      const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      written += static_cast<size_t>(n);
    }
    ::close(fd);
    ok_ = written == text.size();
  }
  ~TempPtxFile() {
    if (!path_.empty()) ::unlink(path_.c_str());
  }
  TempPtxFile(const TempPtxFile&) = delete;
  TempPtxFile& operator=(const TempPtxFile&) = delete;
  bool ok() const { return ok_; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  bool ok_ = false;
};

// Runs ptxas with stdout discarded; its stderr, or nullopt when it cannot start or fails.
// `relocatable` (-c) compiles a unit of a separately compiled program, whose calls into other
// units stay unresolved.
std::optional<std::string> run_ptxas(const std::string& ptx_path, uint32_t sm, bool relocatable) {
  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0) return std::nullopt;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], 2);  // dup2 clears O_CLOEXEC on fd 2
  std::string gpu = "sm_" + std::to_string(sm);
  std::vector<std::string> args = {"ptxas", "-v", "--gpu-name", gpu, "-o", "/dev/null", ptx_path};
  if (relocatable) args.insert(args.begin() + 1, "-c");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, "ptxas", &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(pipe_fds[1]);
  if (spawned != 0) {
    ::close(pipe_fds[0]);
    return std::nullopt;
  }
  std::string report;
  char buffer[4096];
  for (;;) {
    const ssize_t n = ::read(pipe_fds[0], buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    report.append(buffer, static_cast<size_t>(n));
  }
  ::close(pipe_fds[0]);
  int status = 0;
  pid_t waited = 0;
  do {
    waited = ::waitpid(pid, &status, 0);
  } while (waited < 0 && errno == EINTR);
  if (waited != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return std::nullopt;
  return report;
}

}  // namespace

std::map<std::string, KernelResources> parse_ptxas_report(std::string_view report) {
  constexpr std::string_view kEntry = "Compiling entry function '";
  std::map<std::string, KernelResources> result;
  std::optional<std::string> current;  // the entry whose "Used" line comes next
  while (!report.empty()) {
    const size_t newline = report.find('\n');
    const std::string_view line = report.substr(0, newline);
    report = newline == std::string_view::npos ? std::string_view() : report.substr(newline + 1);
    if (const size_t at = line.find(kEntry); at != std::string_view::npos) {
      const std::string_view rest = line.substr(at + kEntry.size());
      const size_t quote = rest.find('\'');
      current = quote == std::string_view::npos ? std::nullopt : std::optional<std::string>(rest.substr(0, quote));
      continue;
    }
    if (!current || line.find(": Used ") == std::string_view::npos) continue;
    const std::optional<uint32_t> registers = number_before(line, " registers");
    if (!registers) continue;
    KernelResources r;
    r.registers = *registers;
    r.static_shared = number_before(line, " bytes smem").value_or(0);
    r.source = KernelResources::Source::Ptxas;
    result[*current] = r;
    current.reset();
  }
  return result;
}

std::optional<std::map<std::string, KernelResources>> ptxas_resources(std::string_view ptx, uint32_t sm,
                                                                      bool relocatable) {
  if (sm < 75) return std::nullopt;
  const TempPtxFile file(ptx);
  if (!file.ok()) return std::nullopt;
  const std::optional<std::string> report = run_ptxas(file.path(), sm, relocatable);
  if (!report) return std::nullopt;
  return parse_ptxas_report(*report);
}

}  // namespace lockstep::runtime
