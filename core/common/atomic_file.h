#pragma once
// Writing files without ever leaving a half-written one behind, and without ever replacing
// something that is not a file.
//
// What `path` names decides how the bytes get there:
//   - a regular file, or nothing yet: the bytes go to a temporary file in the same folder, are
//     flushed to disk, then renamed over it, so a reader sees the old bytes or all the new ones
//     (a replaced file keeps its permissions);
//   - a symbolic link: it is followed to the file it names, and that file is replaced as above
//     (the link stays a link);
//   - anything else (a character device such as /dev/null, a FIFO, a terminal) and the open
//     descriptors /dev/stdout, /dev/stderr, /dev/fd/N: the bytes are written through, in place;
//   - a folder or a block device (a disk) is refused.
//
// A regular file without write permission (chmod a-w, or another user's) is refused, as cp
// refuses it. The temporary file is PATH.tmp-PID-N, removed again on every failure and, once
// remove_temporary_files_on_signals() was called, on SIGINT, SIGTERM, SIGHUP and SIGQUIT; one
// left by a process that died otherwise (SIGKILL, a power cut) is recognised by
// stale_temporary_pid() and removed by the next writer of the same path.

#include <cstddef>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace attnviz {

// "cannot write PATH: REASON". path_problem() is true when the user can fix it by choosing or
// freeing the place (a missing folder, a folder, no permission, a read-only file or place, a
// block device, a full disk or quota): the command line reports those as bad input naming
// --out (exit 2); an I/O error is not.
class FileWriteError : public std::runtime_error {
 public:
  FileWriteError(const std::filesystem::path& path, const std::string& reason, bool path_problem);
  [[nodiscard]] bool path_problem() const { return path_problem_; }
  [[nodiscard]] const std::filesystem::path& path() const { return path_; }
  [[nodiscard]] const std::string& reason() const { return reason_; }

 private:
  std::filesystem::path path_;
  std::string reason_;
  bool path_problem_;
};

struct WriteOptions {
  // A FIFO that no program reads yet: wait for a reader (the command line, as `cat > fifo`), or
  // refuse at once (the window, which must not freeze).
  bool wait_for_reader = true;
};

// Streams bytes to a path as described above. Nothing replaces the target before commit();
// destroyed without commit(), it removes its temporary file and leaves the target as it was.
// Every method throws FileWriteError.
class AtomicFileWriter {
 public:
  explicit AtomicFileWriter(const std::filesystem::path& path, WriteOptions options = {});
  ~AtomicFileWriter();
  AtomicFileWriter(const AtomicFileWriter&) = delete;
  AtomicFileWriter& operator=(const AtomicFileWriter&) = delete;

  void write(std::string_view bytes);
  // Flushes the bytes to disk and closes the file; the target is not replaced yet.
  void finish();
  // finish(), then renames the temporary file over the target.
  void commit();

  // The file that is written: `path`, or the file its symbolic links lead to.
  [[nodiscard]] const std::filesystem::path& target() const { return target_; }
  [[nodiscard]] const std::filesystem::path& path() const { return path_; }
  // Whether the bytes go straight into the target (a device, a FIFO, a descriptor).
  [[nodiscard]] bool writes_through() const { return temporary_.empty(); }
  // Whether a regular file was at the target when writing began.
  [[nodiscard]] bool replaces_a_file() const { return replaces_; }

 private:
  [[noreturn]] void fail(const std::string& reason, bool path_problem);
  void discard();

  std::filesystem::path path_;
  std::filesystem::path target_;
  std::filesystem::path temporary_;  // empty: writing through
  int fd_ = -1;
  int temporary_slot_ = -1;  // where a signal handler finds the temporary file's name
  bool replaces_ = false;
  bool finished_ = false;
  bool committed_ = false;
};

// One write of `bytes` to `path`, as AtomicFileWriter. Throws FileWriteError naming the path
// and the OS's reason; on failure the previous file, if any, is untouched and no temporary
// file is left.
void write_file_atomically(const std::filesystem::path& path, std::string_view bytes, WriteOptions options = {});

// Installs handlers for SIGINT, SIGTERM, SIGHUP and SIGQUIT that remove every temporary file
// an AtomicFileWriter is writing, then end the process as the signal would have (signals the
// process was started ignoring stay ignored). For the command line; the window handles its
// signals itself and its writers clean up as it closes.
void remove_temporary_files_on_signals();

// While a set of files is put in place together (core/export's write_files_all_or_nothing), what
// the handlers of remove_temporary_files_on_signals() undo: with `backup` (a second name the
// replaced file was given) it is renamed back over `target`; with an empty one, `target` (new in
// the set) is removed. Nothing is undone once it is destroyed. Made before the target is replaced;
// without a free slot (64) the set is only undone on the ordinary error paths.
class PlacementUndo {
 public:
  PlacementUndo(const std::filesystem::path& target, const std::filesystem::path& backup);
  ~PlacementUndo();
  PlacementUndo(PlacementUndo&& other) noexcept;
  PlacementUndo(const PlacementUndo&) = delete;
  PlacementUndo& operator=(const PlacementUndo&) = delete;
  PlacementUndo& operator=(PlacementUndo&&) = delete;

 private:
  int slot_ = -1;
};

// The process id in a temporary file's name ("autosave.json.tmp-4242-0" → 4242), so one left
// behind by a process that was killed can be recognised and removed; nullopt for other names.
std::optional<long> stale_temporary_pid(const std::string& file_name, const std::string& target_name);

}  // namespace attnviz
