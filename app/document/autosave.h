#pragma once
// Keeps the scenario being edited in the user's config directory so no work is lost:
// written shortly after edits settle (debounced) and on exit, restored at the next start.
//
// Every window has an autosave file of its own: the first window takes autosave.json, a second
// one running at the same time autosave-2.json, and so on (claim(); each held with a lock on
// FILE.lock, which the system releases when the window ends, however it ends). So two windows
// on one config directory never overwrite each other's work; what a window left in a slot
// that no window holds any more is handed over at the next start (adopt_other_windows_work).

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "app/document/document.h"
#include "core/scenario/scenario_json.h"

namespace attnviz::document {

class Autosave {
 public:
  using Clock = std::chrono::steady_clock;

  // Writes `file`, holding no lock (tests, screenshot runs).
  explicit Autosave(std::filesystem::path file, std::chrono::milliseconds delay = std::chrono::milliseconds(750));
  // The first autosave file of `folder` no running window holds (autosave.json, autosave-2.json,
  // ...), locked for this window's lifetime; removes the temporary files that writers killed
  // mid-write left behind. Where no lock can be taken (a read-only folder) it falls back to
  // autosave.json without one.
  static Autosave claim(const std::filesystem::path& folder,
                        std::chrono::milliseconds delay = std::chrono::milliseconds(750));
  ~Autosave();
  Autosave(Autosave&& other) noexcept;
  Autosave& operator=(Autosave&&) = delete;
  Autosave(const Autosave&) = delete;
  Autosave& operator=(const Autosave&) = delete;

  // $XDG_CONFIG_HOME/attnviz/autosave.json, or ~/.config/attnviz/autosave.json.
  static std::filesystem::path default_file();
  static std::filesystem::path default_folder() { return default_file().parent_path(); }

  // Call once per frame: writes when the document changed and then stayed unchanged for `delay`.
  void tick(const Document& document, Clock::time_point now);
  // Writes now if anything changed since the last write (on exit).
  void flush(const Document& document);

  // The last autosaved scenario; nullopt when there is none. A broken file is reported in
  // last_error() and left in place for keep_broken(), never a crash. Only a regular file is
  // read (a FIFO or a device there is refused at once).
  std::optional<LoadedScenario> restore();
  // Moves a broken autosave aside under a name of its own (FILE.broken-YYYYMMDD-HHMMSS, with
  // -2, -3, ... if taken), never replacing an earlier one; the path, or nullopt if it could
  // not be moved.
  std::optional<std::filesystem::path> keep_broken();

  // The autosave files of other slots that no running window holds (a window that ran beside
  // this one, then closed or was killed): each is renamed to unsaved-work-YYYYMMDD-HHMMSS.json
  // in the same folder, so it is offered once and never overwritten; returns the new paths.
  std::vector<std::filesystem::path> adopt_other_windows_work();

  // Temporary files (FILE.tmp-PID-N) of autosave files in `folder` whose writer is no longer
  // running: each kill during a write left one behind. Returns how many were removed.
  static int remove_stale_temporaries(const std::filesystem::path& folder);

  [[nodiscard]] const std::filesystem::path& file() const { return file_; }
  // 1 for autosave.json, 2 for autosave-2.json, ...
  [[nodiscard]] int slot() const { return slot_; }
  // The last write or restore problem ("" when fine): the window shows it.
  [[nodiscard]] const std::string& last_error() const { return last_error_; }

 private:
  Autosave(std::filesystem::path file, std::chrono::milliseconds delay, int slot, int lock_fd);
  void write(const Document& document);

  std::filesystem::path file_;
  std::chrono::milliseconds delay_;
  int slot_ = 1;
  int lock_fd_ = -1;
  std::uint64_t written_revision_ = 0;
  std::uint64_t seen_revision_ = 0;
  Clock::time_point seen_at_{};
  std::string last_error_;
};

}  // namespace attnviz::document
