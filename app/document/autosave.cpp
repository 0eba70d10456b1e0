#include "app/document/autosave.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <ctime>
#include <system_error>
#include <utility>

#include "app/i18n/translate.h"
#include "core/common/atomic_file.h"

namespace attnviz::document {
namespace {

namespace fs = std::filesystem;

constexpr int kMaxSlots = 32;

fs::path slot_file(const fs::path& folder, int slot) {
  return folder / (slot == 1 ? std::string("autosave.json") : "autosave-" + std::to_string(slot) + ".json");
}

fs::path lock_file(const fs::path& file) {
  fs::path lock = file;
  lock += ".lock";
  return lock;
}

// An exclusive lock on FILE.lock, or -1 when another window holds it (`held`) or no lock can be
// made there (a read-only folder).
int try_lock(const fs::path& file, bool* held = nullptr) {
  if (held != nullptr) *held = false;
  const int fd = ::open(lock_file(file).c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) return -1;
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    if (held != nullptr) *held = errno == EWOULDBLOCK;
    ::close(fd);
    return -1;
  }
  return fd;
}

std::string timestamp() {
  const std::time_t now = std::time(nullptr);
  std::tm local{};
  ::localtime_r(&now, &local);
  char text[32];
  std::strftime(text, sizeof text, "%Y%m%d-%H%M%S", &local);
  return text;
}

// Renames `from` to `stem` + `suffix` (then stem-2 + suffix, ...), never over an existing file:
// link() fails rather than replace.
std::optional<fs::path> move_to_new_name(const fs::path& from, const std::string& stem, const std::string& suffix) {
  for (int n = 1; n < 1000; ++n) {
    const fs::path to = stem + (n == 1 ? "" : "-" + std::to_string(n)) + suffix;
    if (::link(from.c_str(), to.c_str()) == 0) {
      ::unlink(from.c_str());
      return to;
    }
    if (errno != EEXIST) {
      // A file system without hard links: rename when nothing has the name.
      std::error_code error;
      if (fs::exists(to, error)) continue;
      if (::rename(from.c_str(), to.c_str()) == 0) return to;
      return std::nullopt;
    }
  }
  return std::nullopt;
}

bool is_running(long pid) { return ::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM; }

}  // namespace

Autosave::Autosave(fs::path file, std::chrono::milliseconds delay) : file_(std::move(file)), delay_(delay) {}

Autosave::Autosave(fs::path file, std::chrono::milliseconds delay, int slot, int lock_fd)
    : file_(std::move(file)), delay_(delay), slot_(slot), lock_fd_(lock_fd) {}

Autosave::Autosave(Autosave&& other) noexcept
    : file_(std::move(other.file_)),
      delay_(other.delay_),
      slot_(other.slot_),
      lock_fd_(std::exchange(other.lock_fd_, -1)),
      written_revision_(other.written_revision_),
      seen_revision_(other.seen_revision_),
      seen_at_(other.seen_at_),
      last_error_(std::move(other.last_error_)) {}

Autosave::~Autosave() {
  if (lock_fd_ >= 0) ::close(lock_fd_);  // releases the lock
}

Autosave Autosave::claim(const fs::path& folder, std::chrono::milliseconds delay) {
  std::error_code error;
  fs::create_directories(folder, error);
  remove_stale_temporaries(folder);
  for (int slot = 1; slot <= kMaxSlots; ++slot) {
    const fs::path file = slot_file(folder, slot);
    bool held = false;
    const int fd = try_lock(file, &held);
    if (fd >= 0) return Autosave(file, delay, slot, fd);
    if (!held) break;  // no locks here at all
  }
  return Autosave(slot_file(folder, 1), delay);
}

fs::path Autosave::default_file() {
  const char* xdg = std::getenv("XDG_CONFIG_HOME");
  if (xdg != nullptr && *xdg != '\0') return fs::path(xdg) / "attnviz" / "autosave.json";
  const char* home = std::getenv("HOME");
  const fs::path base = home != nullptr && *home != '\0' ? home : fs::temp_directory_path();
  return base / ".config" / "attnviz" / "autosave.json";
}

void Autosave::tick(const Document& document, Clock::time_point now) {
  if (document.revision() != seen_revision_) {
    seen_revision_ = document.revision();
    seen_at_ = now;
    return;
  }
  if (seen_revision_ != written_revision_ && now - seen_at_ >= delay_) write(document);
}

void Autosave::flush(const Document& document) {
  if (document.revision() != written_revision_) write(document);
}

void Autosave::write(const Document& document) {
  written_revision_ = document.revision();
  try {
    fs::create_directories(file_.parent_path());
    // A FIFO nobody reads must not freeze the window.
    save_scenario(document.scenario_for_saving(), file_, WriteOptions{.wait_for_reader = false});
    last_error_.clear();
  } catch (const std::exception& error) {
    last_error_ = i18n::format(i18n::tr("autosave failed: %s"), error.what());
  }
}

std::optional<LoadedScenario> Autosave::restore() {
  std::error_code ignored;
  if (!fs::exists(file_, ignored)) return std::nullopt;
  try {
    ReadOptions options;
    options.regular_files_only = true;
    LoadedScenario loaded = load_scenario(file_.string(), options);
    last_error_.clear();
    return loaded;
  } catch (const std::exception& error) {
    last_error_ = i18n::format(i18n::tr("could not restore the last session: %s"), error.what());
    return std::nullopt;
  }
}

std::optional<fs::path> Autosave::keep_broken() {
  return move_to_new_name(file_, file_.string() + ".broken-" + timestamp(), "");
}

std::vector<fs::path> Autosave::adopt_other_windows_work() {
  std::vector<fs::path> adopted;
  if (lock_fd_ < 0) return adopted;  // without locks, another window's file cannot be told apart
  const fs::path folder = file_.parent_path();
  for (int slot = 1; slot <= kMaxSlots; ++slot) {
    if (slot == slot_) continue;
    const fs::path file = slot_file(folder, slot);
    std::error_code error;
    if (!fs::exists(file, error)) continue;
    const int fd = try_lock(file);
    if (fd < 0) continue;  // a running window's
    if (const std::optional<fs::path> moved =
            move_to_new_name(file, (folder / ("unsaved-work-" + timestamp())).string(), ".json")) {
      adopted.push_back(*moved);
    }
    ::close(fd);
  }
  return adopted;
}

int Autosave::remove_stale_temporaries(const fs::path& folder) {
  int removed = 0;
  std::error_code error;
  for (fs::directory_iterator it(folder, error), end; !error && it != end; it.increment(error)) {
    const std::string name = it->path().filename().string();
    const std::size_t mark = name.find(".json.tmp-");
    if (mark == std::string::npos || !name.starts_with("autosave")) continue;
    const std::string target = name.substr(0, mark + 5);
    const std::optional<long> pid = stale_temporary_pid(name, target);
    if (!pid || is_running(*pid)) continue;
    std::error_code ignored;
    if (fs::remove(it->path(), ignored)) ++removed;
  }
  return removed;
}

}  // namespace attnviz::document
