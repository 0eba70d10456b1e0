#include "app/desktop/window_memory.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <system_error>

#include "app/i18n/language.h"
#include "core/common/atomic_file.h"

namespace attnviz::desktop {
namespace {

namespace fs = std::filesystem;

constexpr const char* kFormat = "attnviz-window/1";
constexpr std::uintmax_t kMostBytes = 16384;  // a few numbers and names: anything larger is not ours

bool plausible(const RememberedWindow& w) {
  const window::WindowPlacement& p = w.placement;
  const auto within = [](int v, int low, int high) { return v >= low && v <= high; };
  return within(p.x, -100000, 100000) && within(p.y, -100000, 100000) && within(p.width, 320, 16384) &&
         within(p.height, 240, 16384) && std::isfinite(w.text_scale) && w.text_scale >= 0.25f && w.text_scale <= 4.0f &&
         i18n::language_from_code(w.language).has_value();
}

// The layout part: anything unexpected in it gives the default layout, not a lost window size.
ui::RememberedLayout read_layout(const nlohmann::json& json) {
  ui::RememberedLayout layout;
  if (!json.is_object()) return layout;
  try {
    const std::optional<ui::LayoutMode> mode = ui::layout_mode_from_string(json.at("mode").get<std::string>());
    if (!mode) return layout;
    ui::RememberedLayout read;
    read.mode = *mode;
    read.main_view = json.value("main_view", std::string());
    const nlohmann::json open_panels = json.value("open_panels", nlohmann::json::object());
    for (const auto& [title, open] : open_panels.items()) read.open_panels[title] = open.get<bool>();
    // Missing (a file from before it was remembered) or unknown: the grid of heads.
    read.model_shown =
        ui::model_shown_from_string(json.value("model_shown", std::string())).value_or(ui::ModelShown::Heads);
    if (read.main_view.size() > 200 || read.open_panels.size() > 64) return layout;
    return read;
  } catch (const std::exception&) {
    return layout;
  }
}

nlohmann::json layout_json(const ui::RememberedLayout& layout) {
  nlohmann::json open = nlohmann::json::object();
  for (const auto& [title, is_open] : layout.open_panels) open[title] = is_open;
  return {{"mode", ui::to_string(layout.mode)},
          {"main_view", layout.main_view},
          {"open_panels", open},
          {"model_shown", ui::to_string(layout.model_shown)}};
}

}  // namespace

fs::path remembered_window_file() {
  const char* xdg = std::getenv("XDG_CONFIG_HOME");
  if (xdg != nullptr && *xdg != '\0') return fs::path(xdg) / "attnviz" / "window.json";
  const char* home = std::getenv("HOME");
  const fs::path base = home != nullptr && *home != '\0' ? home : fs::temp_directory_path();
  return base / ".config" / "attnviz" / "window.json";
}

std::optional<RememberedWindow> read_remembered_window(const fs::path& file) {
  std::error_code error;
  if (!fs::is_regular_file(file, error) || fs::file_size(file, error) > kMostBytes || error) return std::nullopt;
  try {
    std::ifstream in(file);
    const nlohmann::json json = nlohmann::json::parse(in);
    if (json.at("format").get<std::string>() != kFormat) return std::nullopt;
    RememberedWindow w;
    w.placement.x = json.at("x").get<int>();
    w.placement.y = json.at("y").get<int>();
    w.placement.width = json.at("width").get<int>();
    w.placement.height = json.at("height").get<int>();
    w.text_scale = json.at("text_scale").get<float>();
    w.language = json.value("language", std::string());  // absent in files written before there was a choice
    if (json.contains("theme") && json["theme"].is_string())
      w.theme = ui::theme_from_code(json["theme"].get<std::string>()).value_or(ui::Theme::Light);
    if (json.contains("layout")) w.layout = read_layout(json["layout"]);
    if (!plausible(w)) return std::nullopt;
    return w;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::string remember_window(const fs::path& file, const RememberedWindow& window) {
  nlohmann::json json = {{"format", kFormat},
                         {"x", window.placement.x},
                         {"y", window.placement.y},
                         {"width", window.placement.width},
                         {"height", window.placement.height},
                         {"text_scale", std::round(static_cast<double>(window.text_scale) * 1000.0) / 1000.0}};
  if (!window.language.empty()) json["language"] = window.language;
  json["theme"] = ui::theme_code(window.theme);
  json["layout"] = layout_json(window.layout);
  try {
    std::error_code ignored;
    fs::create_directories(file.parent_path(), ignored);
    write_file_atomically(file, json.dump(2) + "\n");
    return "";
  } catch (const std::exception& error) {
    return error.what();
  }
}

}  // namespace attnviz::desktop
