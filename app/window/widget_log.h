#pragma once
// Every widget Dear ImGui adds in a frame, by name and screen rectangle: for tests that drive
// the real window with mouse and keyboard (tests/gui), and for finding widgets that share an
// ImGui ID (two widgets with one ID steal each other's clicks: a button and a checkbox both
// labelled "Causal" in one panel).
//
// ImGui 1.86 has no hook for this (its test-engine hooks are compiled out of Debian's
// libimgui.a), so the executables that want it are linked with `--wrap` around ImGui::ItemAdd,
// ImGuiWindow::GetID(label) and ImGui::PushID (imgui_wraps.cpp, attnviz_imgui_wraps() in
// app/window/CMakeLists.txt); the wrappers report here and call ImGui's own functions. In
// executables linked without them nothing is recorded and nothing is checked.
//
// A widget's path is its window, the names pushed on the ID stack and its label, joined with
// '/': "##inputs/Mask/Causal", "##inputs/Sentence/3/##chip".

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

struct ImRect;

namespace attnviz::window::widget_log {

// What to do with the widgets, set once at start-up: write them to `file` after every frame
// (a JSON object, replaced atomically), and/or check that no two share an ID.
void configure(std::optional<std::filesystem::path> file, bool check_ids);
[[nodiscard]] bool enabled();

// Whether the executable was linked with the wrappers (widgets are seen at all).
[[nodiscard]] bool wrapped();

// Where the window's top-left corner is on the screen (widgets are in window coordinates).
void set_window_origin(int x, int y);
// What the input method is composing at the caret ("" when nothing): tests read it.
void set_preedit(std::string text);
// The menu bar's titles as shown ("파일", "편집", ...): tests read the window's language there.
void set_menu_titles(std::vector<std::string> titles);
// Whether input events still wait in the window's queue for later frames (key_queue.h).
void set_input_pending(bool pending);

// Called by the wrappers (imgui_wraps.cpp).
void on_label(std::uint32_t id, const char* begin, const char* end);
void on_push(std::uint32_t id, std::string name);
void on_item(const ImRect& rect, std::uint32_t id, bool visible);
void mark_wrapped();

// Something a test wants to know about a widget of this frame that its rectangle does not say
// ("numbers": the heatmap shows numbers in its cells), written beside it.
void annotate(std::uint32_t id, const char* key, bool value);
void annotate(std::uint32_t id, const char* key, const std::string& value);
void annotate(std::uint32_t id, const char* key, const char* value) = delete;  // would pick the bool one

// After the frame's UI was built: writes the file, checks the IDs, forgets the frame's widgets.
void end_frame();

// "two widgets share the ImGui ID of "##inputs/Mask/Causal" ...": one message per path that
// collided since start-up, in the order found.
[[nodiscard]] std::vector<std::string> id_conflicts();

}  // namespace attnviz::window::widget_log
