#pragma once
// Keeps the scenario being edited in the user's config directory so no work is lost:
// written shortly after edits settle (debounced) and on exit, restored at the next start.

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "app/document/document.h"
#include "core/scenario/scenario_json.h"

namespace attnviz::document {

class Autosave {
 public:
  using Clock = std::chrono::steady_clock;

  explicit Autosave(std::filesystem::path file, std::chrono::milliseconds delay = std::chrono::milliseconds(750));

  // $XDG_CONFIG_HOME/attnviz/autosave.json, or ~/.config/attnviz/autosave.json.
  static std::filesystem::path default_file();

  // Call once per frame: writes when the document changed and then stayed unchanged for `delay`.
  void tick(const Document& document, Clock::time_point now);
  // Writes now if anything changed since the last write (on exit).
  void flush(const Document& document);

  // The last autosaved scenario; nullopt when there is none. A broken file is reported in
  // last_error() and left in place for the user, never a crash.
  std::optional<LoadedScenario> restore();

  [[nodiscard]] const std::filesystem::path& file() const { return file_; }
  // The last write or restore problem ("" when fine): the window shows it.
  [[nodiscard]] const std::string& last_error() const { return last_error_; }

 private:
  void write(const Document& document);

  std::filesystem::path file_;
  std::chrono::milliseconds delay_;
  std::uint64_t written_revision_ = 0;
  std::uint64_t seen_revision_ = 0;
  Clock::time_point seen_at_{};
  std::string last_error_;
};

}  // namespace attnviz::document
