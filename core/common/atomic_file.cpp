#include "core/common/atomic_file.h"

#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <string>
#include <system_error>
#include <utility>

namespace attnviz {
namespace {

namespace fs = std::filesystem;

// Errors that say the path cannot be written here, whatever the bytes: bad input. A full disk
// or quota is the user's to fix too (free space, or write elsewhere), so it is bad input as well.
bool is_path_errno(int error) {
  switch (error) {
    case ENOENT:
    case ENOTDIR:
    case EISDIR:
    case EACCES:
    case EPERM:
    case EROFS:
    case ENAMETOOLONG:
    case ELOOP:
    case ENXIO:
    case ENODEV:
    case EXDEV:
    case EINVAL:
    case ENOSPC:
    case EDQUOT:
    case EFBIG: return true;
    default: return false;
  }
}

std::string os_reason(int error, const fs::path& folder) {
  if (error == ENOSPC) return "no space left on device (free some space, or write somewhere else)";
  if (error == EDQUOT) return "the disk quota is used up (free some space, or write somewhere else)";
  std::string reason = std::strerror(error);
  if (error == ENOENT) reason += " (there is no folder " + (folder.empty() ? std::string(".") : folder.string()) + ")";
  return reason;
}

// The temporary files being written, by name, where a signal handler can read them: fixed
// slots of plain characters claimed with atomics (no allocation, no lock). A slot's state goes
// free -> claimed (being filled) -> ready (the handler may unlink it) -> free.
constexpr int kTemporarySlots = 512;
enum SlotState : int { kFree = 0, kClaimed = 1, kReady = 2 };
struct TemporarySlot {
  std::atomic<int> state{kFree};
  char path[PATH_MAX];
};
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler reads the slots' states");
TemporarySlot g_temporary_slots[kTemporarySlots];

// Returns the slot's number, or -1 when the path is too long or every slot is taken (the
// file is then only removed by the ordinary paths and the next run's stale-file check).
int register_temporary(const fs::path& path) {
  const std::string& text = path.native();
  if (text.size() >= PATH_MAX) return -1;
  for (int slot = 0; slot < kTemporarySlots; ++slot) {
    int expected = kFree;
    if (!g_temporary_slots[slot].state.compare_exchange_strong(expected, kClaimed)) continue;
    std::memcpy(g_temporary_slots[slot].path, text.c_str(), text.size() + 1);
    g_temporary_slots[slot].state.store(kReady);
    return slot;
  }
  return -1;
}

void unregister_temporary(int slot) {
  if (slot >= 0) g_temporary_slots[slot].state.store(kFree);
}

// The files of a set being put in place (PlacementUndo), as the handler undoes them: the old
// file's second name renamed back over the target, or (no backup) the new target removed.
constexpr int kUndoSlots = 64;
struct UndoSlot {
  std::atomic<int> state{kFree};
  char target[PATH_MAX];
  char backup[PATH_MAX];  // "" when the target is new in the set
};
UndoSlot g_undo_slots[kUndoSlots];

// Async-signal-safe: atomics, rename and unlink only. The signal is then delivered again with its
// default action (SA_RESETHAND), so the process ends as it would have (exit status 128 + N).
void remove_temporaries_and_reraise(int signal_number) {
  for (UndoSlot& slot : g_undo_slots) {
    if (slot.state.load() != kReady) continue;
    if (slot.backup[0] == '\0') {
      (void)::unlink(slot.target);
      continue;
    }
    // Renaming a second name of the same file does nothing: the backup is then unlinked.
    (void)::rename(slot.backup, slot.target);
    (void)::unlink(slot.backup);
  }
  for (TemporarySlot& slot : g_temporary_slots) {
    if (slot.state.load() == kReady) (void)::unlink(slot.path);
  }
  (void)::raise(signal_number);
}

bool process_is_running(long pid) { return ::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH; }

// PATH.tmp-PID-N files beside the target whose process is gone (killed with SIGKILL, a power
// cut): removed before a new one is written, so a crash never leaves one for good.
void remove_stale_temporaries(const fs::path& target) {
  const std::string target_name = target.filename().string();
  const fs::path folder = target.parent_path().empty() ? fs::path(".") : target.parent_path();
  std::error_code error;
  for (fs::directory_iterator it(folder, error), end; !error && it != end; it.increment(error)) {
    const std::string name = it->path().filename().string();
    if (name.size() <= target_name.size() || name.compare(0, target_name.size(), target_name) != 0) continue;
    const std::optional<long> pid = stale_temporary_pid(name, target_name);
    if (!pid || process_is_running(*pid)) continue;
    std::error_code ignored;
    if (it->is_regular_file(ignored) && !it->is_symlink(ignored)) fs::remove(it->path(), ignored);
  }
}

// A file the user made read-only is not replaced (cp refuses it too): a rename would succeed,
// since only the folder's permission counts, and silently undo what they meant.
std::optional<std::string> read_only_reason(const fs::path& target, const struct stat& info) {
  if ((info.st_mode & 0222) == 0) {
    return "the file is read-only; attnviz does not replace it (make it writable with chmod u+w, or choose another name)";
  }
  if (::access(target.c_str(), W_OK) != 0 && errno != ENOENT) {
    if (errno == EROFS) return "is on a read-only file system";
    return "the file is not writable by you; attnviz does not replace it (choose another name)";
  }
  return std::nullopt;
}

// /dev/stdout, /dev/stderr, /dev/fd/N and /proc/self/fd/N name a descriptor this process
// already has open: writing to it is what the user asked for, whatever it leads to.
std::optional<int> open_descriptor(const fs::path& path) {
  const std::string text = path.lexically_normal().string();
  if (text == "/dev/stdout") return 1;
  if (text == "/dev/stderr") return 2;
  for (const std::string_view prefix : {std::string_view("/dev/fd/"), std::string_view("/proc/self/fd/")}) {
    if (text.size() <= prefix.size() || text.compare(0, prefix.size(), prefix) != 0) continue;
    int fd = -1;
    const char* first = text.data() + prefix.size();
    const char* last = text.data() + text.size();
    const auto [end, error] = std::from_chars(first, last, fd);
    if (error == std::errc() && end == last && fd >= 0) return fd;
  }
  return std::nullopt;
}

std::atomic<unsigned> g_temporary_counter{0};

bool write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t written = ::write(fd, bytes.data(), bytes.size());
    if (written < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    bytes.remove_prefix(static_cast<std::size_t>(written));
  }
  return true;
}

// After a rename, the folder's entry is on disk too.
void sync_folder(const fs::path& folder) {
  const int fd = ::open(folder.empty() ? "." : folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  (void)::fsync(fd);
  ::close(fd);
}

}  // namespace

FileWriteError::FileWriteError(const fs::path& path, const std::string& reason, bool path_problem)
    : std::runtime_error("cannot write " + path.string() + ": " + reason),
      path_(path),
      reason_(reason),
      path_problem_(path_problem) {}

AtomicFileWriter::AtomicFileWriter(const fs::path& path, WriteOptions options) : path_(path), target_(path) {
  if (path.empty()) fail("no file name given", true);
  // Follow symbolic links to what they name (at most 40, as the kernel does).
  for (int hops = 0;; ++hops) {
    if (const std::optional<int> descriptor = open_descriptor(target_)) {
      fd_ = ::fcntl(*descriptor, F_DUPFD_CLOEXEC, 3);
      if (fd_ < 0) fail("descriptor " + std::to_string(*descriptor) + " is not open", true);
      return;
    }
    struct stat link_info {};
    if (::lstat(target_.c_str(), &link_info) != 0) {
      if (errno != ENOENT) fail(os_reason(errno, target_.parent_path()), is_path_errno(errno));
      break;  // nothing there yet: a new file
    }
    if (!S_ISLNK(link_info.st_mode)) break;
    if (hops == 40) fail("too many levels of symbolic links", true);
    std::error_code error;
    const fs::path next = fs::read_symlink(target_, error);
    if (error) fail(error.message(), true);
    target_ = next.is_absolute() ? next : target_.parent_path() / next;
  }

  struct stat info {};
  const bool exists = ::stat(target_.c_str(), &info) == 0;
  if (exists && S_ISDIR(info.st_mode)) fail("is a folder; give a file name", true);
  if (exists && S_ISBLK(info.st_mode)) fail("is a block device (a disk); attnviz writes files, not disks", true);
  if (exists && !S_ISREG(info.st_mode)) {
    // A character device, a FIFO, a terminal: written through, never replaced.
    const bool fifo = S_ISFIFO(info.st_mode);
    const int flags = O_WRONLY | O_CLOEXEC | O_NOCTTY | (fifo && !options.wait_for_reader ? O_NONBLOCK : 0);
    do {
      fd_ = ::open(target_.c_str(), flags);
    } while (fd_ < 0 && errno == EINTR);
    if (fd_ < 0) {
      const int error = errno;
      if (fifo && error == ENXIO) fail("no program is reading this FIFO", true);
      if (S_ISSOCK(info.st_mode)) fail("is a socket, not a file", true);
      fail(std::strerror(error), is_path_errno(error));
    }
    if (fifo && !options.wait_for_reader) ::fcntl(fd_, F_SETFL, ::fcntl(fd_, F_GETFL) & ~O_NONBLOCK);
    return;
  }

  replaces_ = exists;
  if (exists) {
    if (const std::optional<std::string> reason = read_only_reason(target_, info)) fail(*reason, true);
  }
  remove_stale_temporaries(target_);
  const fs::path folder = target_.parent_path();
  for (int attempt = 0; attempt < 100 && fd_ < 0; ++attempt) {
    fs::path temporary = target_;
    temporary += ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(g_temporary_counter++);
    // Registered before it exists: a signal between the open and a registration after it left
    // the file behind (a test that signals as the file appears caught that window).
    const int slot = register_temporary(temporary);
    fd_ = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0666);
    const int error = errno;
    if (fd_ >= 0) {
      temporary_ = std::move(temporary);
      temporary_slot_ = slot;
      continue;
    }
    // Not made here (EEXIST: a file of that name is already there): no longer ours to remove.
    unregister_temporary(slot);
    if (error != EEXIST && error != EINTR) fail(os_reason(error, folder), is_path_errno(error));
  }
  if (fd_ < 0) fail("cannot create a temporary file beside it", false);
  // The new file keeps the permissions of the one it replaces (a private file stays private).
  if (replaces_) (void)::fchmod(fd_, info.st_mode & 07777);
}

AtomicFileWriter::~AtomicFileWriter() {
  if (!committed_) discard();
}

void AtomicFileWriter::discard() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  if (!temporary_.empty()) ::unlink(temporary_.c_str());
  unregister_temporary(temporary_slot_);
  temporary_slot_ = -1;
}

void AtomicFileWriter::fail(const std::string& reason, bool path_problem) {
  discard();
  committed_ = true;  // nothing left to undo
  throw FileWriteError(path_, reason, path_problem);
}

void AtomicFileWriter::write(std::string_view bytes) {
  if (fd_ < 0 || finished_) fail("the file is already closed", false);
  if (!write_all(fd_, bytes)) {
    const int error = errno;
    fail(os_reason(error, {}), is_path_errno(error));
  }
}

void AtomicFileWriter::finish() {
  if (finished_) return;
  if (fd_ < 0) fail("the file is already closed", false);
  // fsync before rename: after a crash the target holds either the old or the new bytes.
  if (!writes_through() && ::fsync(fd_) != 0) {
    const int error = errno;
    fail(os_reason(error, {}), is_path_errno(error));
  }
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0 && !writes_through()) {
    const int error = errno;
    fail(os_reason(error, {}), is_path_errno(error));
  }
  finished_ = true;
}

void AtomicFileWriter::commit() {
  finish();
  if (!writes_through()) {
    if (::rename(temporary_.c_str(), target_.c_str()) != 0) {
      const int error = errno;
      fail(os_reason(error, target_.parent_path()), is_path_errno(error));
    }
    // Unregistered only after the rename: a signal before it still finds the file to remove.
    unregister_temporary(temporary_slot_);
    temporary_slot_ = -1;
    sync_folder(target_.parent_path());
  }
  committed_ = true;
}

PlacementUndo::PlacementUndo(const fs::path& target, const fs::path& backup) {
  const std::string& target_text = target.native();
  const std::string& backup_text = backup.native();
  if (target_text.size() >= PATH_MAX || backup_text.size() >= PATH_MAX) return;
  for (int slot = 0; slot < kUndoSlots; ++slot) {
    int expected = kFree;
    if (!g_undo_slots[slot].state.compare_exchange_strong(expected, kClaimed)) continue;
    std::memcpy(g_undo_slots[slot].target, target_text.c_str(), target_text.size() + 1);
    std::memcpy(g_undo_slots[slot].backup, backup_text.c_str(), backup_text.size() + 1);
    g_undo_slots[slot].state.store(kReady);
    slot_ = slot;
    return;
  }
}

PlacementUndo::~PlacementUndo() {
  if (slot_ >= 0) g_undo_slots[slot_].state.store(kFree);
}

PlacementUndo::PlacementUndo(PlacementUndo&& other) noexcept : slot_(std::exchange(other.slot_, -1)) {}

void remove_temporary_files_on_signals() {
  struct sigaction action {};
  action.sa_handler = remove_temporaries_and_reraise;
  sigemptyset(&action.sa_mask);
  action.sa_flags = static_cast<int>(SA_RESETHAND);
  for (const int signal_number : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) {
    struct sigaction previous {};
    // A signal the parent told us to ignore (nohup, a background job's SIGINT) stays ignored.
    if (::sigaction(signal_number, nullptr, &previous) == 0 && previous.sa_handler == SIG_IGN) continue;
    (void)::sigaction(signal_number, &action, nullptr);
  }
}

void write_file_atomically(const fs::path& path, std::string_view bytes, WriteOptions options) {
  AtomicFileWriter writer(path, options);
  writer.write(bytes);
  writer.commit();
}

std::optional<long> stale_temporary_pid(const std::string& file_name, const std::string& target_name) {
  const std::string prefix = target_name + ".tmp-";
  if (file_name.size() <= prefix.size() || file_name.compare(0, prefix.size(), prefix) != 0) return std::nullopt;
  const char* first = file_name.data() + prefix.size();
  const char* last = file_name.data() + file_name.size();
  long pid = 0;
  const auto [end, error] = std::from_chars(first, last, pid);
  if (error != std::errc() || end == first || pid <= 0) return std::nullopt;
  if (end != last) {
    // "-N", the writer's counter.
    if (*end != '-' || end + 1 == last) return std::nullopt;
    for (const char* c = end + 1; c != last; ++c) {
      if (*c < '0' || *c > '9') return std::nullopt;
    }
  }
  return pid;
}

}  // namespace attnviz
