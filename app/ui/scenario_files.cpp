#include "app/ui/scenario_files.h"

#include <exception>
#include <optional>

#include "app/i18n/translate.h"
#include "app/document/document.h"
#include "app/ui/notices.h"
#include "core/common/error.h"
#include "core/common/text_excerpt.h"
#include "core/scenario/problem.h"
#include "core/scenario/scenario_json.h"

namespace attnviz::ui {
namespace {

constexpr const char* kPresetPrefix = "preset:";

bool is_preset(const std::string& path_or_preset) { return path_or_preset.rfind(kPresetPrefix, 0) == 0; }

}  // namespace

bool open_scenario(document::Document& document, Notices& notices, const std::string& path_or_preset) {
  LoadedScenario loaded;
  try {
    // Never waits on the window's thread: only a regular file (or a preset) is read here; the
    // File menu reads anything else off the thread (document::BackgroundLoad).
    ReadOptions options;
    options.regular_files_only = true;
    loaded = load_scenario(path_or_preset, options);
    (void)build_problem(loaded.scenario, path_or_preset);  // refuse what could not be shown
  } catch (const std::exception& error) {
    report_open_failure(notices, path_or_preset, error.what());
    return false;
  }
  apply_opened(document, notices, path_or_preset, std::move(loaded));
  return true;
}

void apply_opened(document::Document& document, Notices& notices, const std::string& path_or_preset,
                  LoadedScenario loaded) {
  std::optional<std::filesystem::path> path;
  if (!is_preset(path_or_preset)) path = std::filesystem::path(path_or_preset);
  document.reset(std::move(loaded.scenario), std::move(path));
  for (const std::string& warning : loaded.warnings) notices.post(NoticeLevel::Warning, warning);
}

void report_open_failure(Notices& notices, const std::string& path_or_preset, const std::string& message) {
  notices.post(NoticeLevel::Error, i18n::format(i18n::tr("Could not open %s:\n%s\nYour current work is unchanged."),
                                                cut_text(path_or_preset, 200).c_str(), message.c_str()));
}

bool save_scenario_to(document::Document& document, Notices& notices, const std::filesystem::path& path) {
  try {
    save_scenario(document.scenario_for_saving(), path,
                  WriteOptions{.wait_for_reader = false});  // never freeze on a FIFO
  } catch (const std::exception& error) {
    notices.post(NoticeLevel::Error, i18n::format(i18n::tr("Could not save: %s"), error.what()));
    return false;
  }
  document.set_saved(path);
  notices.post(NoticeLevel::Info, i18n::format(i18n::tr("Saved %s"), path.c_str()));
  return true;
}

}  // namespace attnviz::ui
