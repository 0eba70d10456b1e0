#include "app/window/widget_log.h"

#include <imgui.h>
#include <imgui_internal.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <set>
#include <system_error>
#include <unordered_map>
#include <unordered_set>

#include "core/common/text_excerpt.h"

namespace attnviz::window::widget_log {
namespace {

struct Item {
  std::uint32_t id = 0;
  std::string path;
  std::string label;  // the widget's own label as given ("Causal##preset"; "K/V" keeps its slash)
  std::string window;
  ImRect rect;                                                // the whole widget, screen pixels
  ImRect visible;                                             // the part its window shows (empty when clipped away)
  std::vector<std::pair<std::string, nlohmann::json>> notes;  // annotate()
  bool disabled = false;                                      // inside BeginDisabled: drawn greyed, takes no clicks
};

struct State {
  std::optional<std::filesystem::path> file;
  bool check_ids = false;
  bool wrapped = false;
  std::uint64_t frames = 0;
  int origin_x = 0;
  int origin_y = 0;
  bool input_pending = false;
  std::string preedit;
  std::vector<std::string> menu_titles;
  std::unordered_map<std::uint32_t, std::string> names;  // labels and pushed IDs seen
  std::vector<Item> items;
  std::unordered_map<std::uint32_t, std::size_t> by_id;  // this frame's first item of each ID
  std::set<std::string> windows_seen;                    // every window shown since start-up
  std::vector<std::string> conflicts;
  std::unordered_set<std::string> reported;
};

State& state() {
  static State s;
  return s;
}

// A translated label ("보기###View", app/i18n) is named by its ID, as ImGui identifies it: a
// widget's path is the same in every language.
std::string id_part(const std::string& name) {
  const std::size_t id_start = name.find("###");
  return id_start == std::string::npos ? name : name.substr(id_start + 3);
}

std::string path_of(const ImGuiWindow& window, std::uint32_t id) {
  const State& s = state();
  std::string path = window.Name != nullptr ? window.Name : "?";
  for (int i = 1; i < window.IDStack.Size; ++i) {  // [0] is the window's own ID
    const auto name = s.names.find(window.IDStack[i]);
    if (name != s.names.end()) path += "/" + id_part(name->second);
  }
  const auto label = s.names.find(id);
  if (label != s.names.end()) return path + "/" + id_part(label->second);
  char hex[16];
  std::snprintf(hex, sizeof hex, "#%08x", id);
  return path + "/" + hex;
}

// "Causal##preset" is shown as "Causal".
std::string shown_label(std::string label) {
  const std::size_t hashes = label.find("##");
  if (hashes != std::string::npos) label.erase(hashes);
  return label;
}

bool same_rect(const ImRect& a, const ImRect& b) {
  return a.Min.x == b.Min.x && a.Min.y == b.Min.y && a.Max.x == b.Max.x && a.Max.y == b.Max.y;
}

nlohmann::json rect_json(const ImRect& r) { return {r.Min.x, r.Min.y, r.GetWidth(), r.GetHeight()}; }

void write_file(const std::filesystem::path& file) {
  const State& s = state();
  const ImGuiContext& g = *GImGui;
  nlohmann::json widgets = nlohmann::json::array();
  for (const Item& item : s.items) {
    const bool shown = item.visible.GetWidth() > 0.0f && item.visible.GetHeight() > 0.0f;
    nlohmann::json widget = {{"path", item.path},
                             {"label", shown_label(item.label)},
                             {"window", item.window},
                             {"rect", rect_json(item.rect)},
                             {"visible", shown ? rect_json(item.visible) : nlohmann::json(nullptr)}};
    if (item.disabled) widget["disabled"] = true;
    for (const auto& [key, value] : item.notes) widget[key] = value;
    widgets.push_back(std::move(widget));
  }
  nlohmann::json windows = nlohmann::json::object();
  for (const ImGuiWindow* window : g.Windows) {
    if (window->Active && !window->Hidden && window->Name != nullptr) {
      windows[window->Name] = {
          {"rect",
           rect_json(ImRect(window->Pos, ImVec2(window->Pos.x + window->Size.x, window->Pos.y + window->Size.y)))},
          {"scroll_max", {window->ScrollMax.x, window->ScrollMax.y}}};
    }
  }
  const nlohmann::json json = {{"frame", s.frames},
                               {"display", {g.IO.DisplaySize.x, g.IO.DisplaySize.y}},
                               {"window_origin", {s.origin_x, s.origin_y}},
                               {"want_text_input", g.IO.WantTextInput},
                               {"input_pending", s.input_pending},
                               {"preedit", s.preedit},
                               {"windows", windows},
                               {"windows_seen", s.windows_seen},
                               {"menu_titles", s.menu_titles},
                               {"id_conflicts", s.conflicts},
                               {"widgets", widgets}};
  const std::filesystem::path temporary = file.string() + ".tmp";
  {
    std::ofstream out(temporary, std::ios::trunc);
    out << json.dump() << '\n';
    if (!out) return;  // a test's directory went away: nothing to report to
  }
  std::error_code error;
  std::filesystem::rename(temporary, file, error);
}

}  // namespace

void configure(std::optional<std::filesystem::path> file, bool check_ids) {
  State& s = state();
  s.file = std::move(file);
  s.check_ids = check_ids;
}

bool enabled() {
  const State& s = state();
  return s.wrapped && (s.file || s.check_ids);
}

bool wrapped() { return state().wrapped; }

void set_input_pending(bool pending) { state().input_pending = pending; }

void set_preedit(std::string text) { state().preedit = std::move(text); }

void set_menu_titles(std::vector<std::string> titles) { state().menu_titles = std::move(titles); }

void set_window_origin(int x, int y) {
  state().origin_x = x;
  state().origin_y = y;
}

void mark_wrapped() { state().wrapped = true; }

void on_label(std::uint32_t id, const char* begin, const char* end) {
  if (!enabled() || begin == nullptr) return;
  state().names[id] = end != nullptr ? std::string(begin, end) : std::string(begin);
}

void on_push(std::uint32_t id, std::string name) {
  if (!enabled()) return;
  state().names[id] = std::move(name);
}

void on_item(const ImRect& rect, std::uint32_t id, bool visible) {
  if (id == 0 || !enabled() || GImGui == nullptr || GImGui->CurrentWindow == nullptr) return;
  State& s = state();
  const ImGuiWindow& window = *GImGui->CurrentWindow;
  Item item;
  item.id = id;
  item.path = path_of(window, id);
  const auto label = s.names.find(id);
  item.label = label != s.names.end() ? label->second : std::string();
  item.window = window.Name != nullptr ? window.Name : "?";
  item.rect = rect;
  item.disabled = (GImGui->CurrentItemFlags & ImGuiItemFlags_Disabled) != 0;
  if (visible) {
    item.visible = rect;
    item.visible.ClipWithFull(window.ClipRect);
  } else {
    item.visible = ImRect(rect.Min, rect.Min);
  }
  const auto [first, inserted] = s.by_id.try_emplace(id, s.items.size());
  if (!inserted && s.check_ids) {
    const Item& other = s.items[first->second];
    // The same widget submitted twice in one place is harmless; two places are two widgets.
    if (!same_rect(other.rect, rect) && s.reported.insert(item.path).second) {
      char where[160];
      std::snprintf(where, sizeof where, " (at %.0f,%.0f and %.0f,%.0f)", static_cast<double>(other.rect.Min.x),
                    static_cast<double>(other.rect.Min.y), static_cast<double>(rect.Min.x),
                    static_cast<double>(rect.Min.y));
      s.conflicts.push_back("two widgets share the ImGui ID of \u201C" + item.path + "\u201D" +
                            (other.path != item.path ? " and \u201C" + other.path + "\u201D" : std::string()) + where +
                            ": one of them never gets the mouse; give one a different label or a ##suffix");
    }
  }
  s.items.push_back(std::move(item));
}

namespace {

void add_note(std::uint32_t id, const char* key, nlohmann::json value) {
  if (!enabled()) return;
  State& s = state();
  const auto found = s.by_id.find(id);
  if (found != s.by_id.end()) s.items[found->second].notes.emplace_back(key, std::move(value));
}

}  // namespace

void annotate(std::uint32_t id, const char* key, bool value) { add_note(id, key, value); }

// Cut as the window cuts what it shows: a label made of a megabytes-long token logged whole
// made each frame's file hundreds of megabytes.
void annotate(std::uint32_t id, const char* key, const std::string& value) { add_note(id, key, cut_text(value, 256)); }

void end_frame() {
  if (!enabled()) return;
  State& s = state();
  ++s.frames;
  if (GImGui != nullptr) {
    for (const ImGuiWindow* window : GImGui->Windows) {
      if (window->Active && !window->Hidden && window->Name != nullptr) s.windows_seen.insert(window->Name);
    }
  }
  if (s.file) write_file(*s.file);
  s.items.clear();
  s.by_id.clear();
  // Labels and pushed names are kept (IDs are stable), but not without bound: a long session
  // of typed labels would grow them.
  if (s.names.size() > 100000) s.names.clear();
}

std::vector<std::string> id_conflicts() { return state().conflicts; }

}  // namespace attnviz::window::widget_log
