#include "app/ui/scenario_files.h"

#include <exception>
#include <optional>

#include "app/document/document.h"
#include "app/ui/notices.h"
#include "core/common/error.h"
#include "core/model/problem.h"
#include "core/model/scenario_json.h"

namespace attnviz::ui {
namespace {

constexpr const char* kPresetPrefix = "preset:";

bool is_preset(const std::string& path_or_preset) { return path_or_preset.rfind(kPresetPrefix, 0) == 0; }

}  // namespace

bool open_scenario(document::Document& document, Notices& notices, const std::string& path_or_preset) {
  LoadedScenario loaded;
  try {
    loaded = load_scenario(path_or_preset);
    (void)build_problem(loaded.scenario, path_or_preset);  // refuse what could not be shown
  } catch (const std::exception& error) {
    notices.post(NoticeLevel::Error, std::string("Could not open ") + path_or_preset + ":\n" + error.what() +
                                         "\nYour current work is unchanged.");
    return false;
  }
  std::optional<std::filesystem::path> path;
  if (!is_preset(path_or_preset)) path = std::filesystem::path(path_or_preset);
  document.reset(std::move(loaded.scenario), std::move(path));
  for (const std::string& warning : loaded.warnings) notices.post(NoticeLevel::Warning, warning);
  return true;
}

bool save_scenario_to(document::Document& document, Notices& notices, const std::filesystem::path& path) {
  try {
    save_scenario(document.scenario_for_saving(), path);
  } catch (const std::exception& error) {
    notices.post(NoticeLevel::Error, std::string("Could not save: ") + error.what());
    return false;
  }
  document.set_saved(path);
  notices.post(NoticeLevel::Info, "Saved " + path.string());
  return true;
}

}  // namespace attnviz::ui
