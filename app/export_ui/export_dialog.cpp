// The Export dialog: the choices of `attnviz export` (what, heads, format, colormap, range,
// zoom, cell size, dpi, values, title, grid) and where to save, started from what the window
// shows. One dialog for the whole window (the desktop adds it to the layout), opened by a
// request in the view state from a heatmap's Export button, File > Export… or Ctrl+E.

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <utility>

#include "app/compute/compute_session.h"
#include "app/document/autosave.h"
#include "app/export_ui/export_popup.h"
#include "app/export_ui/export_runner.h"
#include "app/export_ui/export_ui.h"
#include "app/export_ui/window_source.h"
#include "app/i18n/translate.h"
#include "app/ui/keys.h"
#include "app/ui/palette.h"
#include "app/ui/text_lines.h"
#include "app/ui/view_state.h"
#include "core/common/error.h"
#include "core/export/colormap.h"
#include "core/common/number_text.h"

namespace attnviz::export_ui {
namespace {

// The dialog's title, translated (as heads_export.cpp's: a window is named by its whole title).
std::string popup_title() { return i18n::tr("Export") + std::string("##export_dialog"); }

struct DialogState {
  bool open_requested = false;
  ExportChoices choices;
  SaveTo save_to;
  std::string error;  // the last failure, shown in the dialog
};

void open_with(const ui::UiContext& ui, DialogState& state, ExportChoices choices) {
  state.choices = std::move(choices);
  state.save_to.propose(export_folder_memory(ui));
  state.error.clear();
  state.open_requested = true;
}

float label_width() { return ImGui::GetFontSize() * 6.5f; }

// `text` a msgid, shown translated; `option` the command line's, as it is.
void row_label(const char* text, const char* option) {
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(i18n::tr(text));
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("attnviz export %s", option);  // not translated: a command
  ImGui::SameLine(label_width());
}

bool contains(const std::vector<Quantity>& list, Quantity q) {
  return std::find(list.begin(), list.end(), q) != list.end();
}

void draw_what(ExportChoices& c, const ShownState& shown) {
  row_label(N_("What"), "--what");
  const Quantity all[] = {Quantity::Scores, Quantity::Scaled,  Quantity::Weights,
                          Quantity::Mask,   Quantity::Context, Quantity::Diff};
  for (const Quantity q : all) {
    bool on = contains(c.what, q);
    ImGui::BeginDisabled(q == Quantity::Diff && !shown.has_difference);
    const std::string label = std::string(quantity_label(q)) + "###" + exporting::quantity_name(q);
    if (ImGui::Checkbox(label.c_str(), &on)) {
      std::vector<Quantity> next;
      for (const Quantity k : all) {  // keep the command line's order
        if (k == q ? on : contains(c.what, k)) next.push_back(k);
      }
      c.what = next;
    }
    if (q == Quantity::Diff && !shown.has_difference && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
      ImGui::SetTooltip("%s", i18n::tr("Needs both backends: Backend panel > both"));
    }
    ImGui::EndDisabled();
    if (q == Quantity::Weights)
      ImGui::SetCursorPosX(label_width());  // second line
    else if (q != Quantity::Diff)
      ImGui::SameLine();
  }
}

void draw_heads(ExportChoices& c, const ShownState& shown) {
  row_label(N_("Heads"), "--heads");
  int choice = static_cast<int>(c.heads);
  const std::string shown_label = i18n::format(i18n::tr("head %d (shown)"), shown.head) + "###shown";
  ImGui::RadioButton(shown_label.c_str(), &choice, static_cast<int>(HeadsChoice::Shown));
  ImGui::SameLine();
  ImGui::RadioButton(i18n::tr_label("all").c_str(), &choice, static_cast<int>(HeadsChoice::All));
  ImGui::SameLine();
  ImGui::RadioButton(i18n::tr_label("these:").c_str(), &choice, static_cast<int>(HeadsChoice::List));
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6.0f);
  if (ImGui::InputTextWithHint("##heads", "0,2", &c.head_list)) choice = static_cast<int>(HeadsChoice::List);
  c.heads = static_cast<HeadsChoice>(choice);
  ImGui::SameLine(0.0f, ImGui::GetFontSize() * 1.5f);
  ImGui::BeginDisabled(!exporting::is_image(c.format));
  ImGui::Checkbox(i18n::tr_label("grid: the heads in one image").c_str(), &c.grid);
  ImGui::EndDisabled();
}

void draw_format(ExportChoices& c) {
  row_label(N_("Format"), "--format");
  int format = static_cast<int>(c.format);
  const char* names[] = {"PNG", "SVG", "CSV", "NPY", "JSON"};
  for (int i = 0; i < 5; ++i) {
    if (i > 0) ImGui::SameLine();
    ImGui::RadioButton(names[i], &format, i);
  }
  c.format = static_cast<ExportFormat>(format);
}

// "0 to 1", "-0.32 to 0.32", "log scale, 0.0001 to 1", or "each heatmap's own" when several
// matrices are chosen.
std::string shown_range_text(const ExportChoices& c, const ShownState& shown) {
  if (c.what.size() != 1) return i18n::tr("each heatmap's own");
  const std::optional<std::pair<float, float>> range = shown_range(c.what.front(), shown, {shown.head});
  if (!range) return i18n::tr("from the exported values");
  const bool log = shown_scale(c.what.front(), shown) == exporting::ColourScale::Log;
  return i18n::format(log ? i18n::tr("log scale, %.3g to %.3g") : i18n::tr("%.3g to %.3g"),
                      static_cast<double>(range->first), static_cast<double>(range->second));
}

void draw_colours(ExportChoices& c, const ShownState& shown) {
  row_label(N_("Colormap"), "--colormap");
  std::string maps = i18n::tr("as shown (each heatmap's own)");
  if (c.what.size() == 1) {
    const std::optional<ColormapId> own = shown_colormap(c.what.front(), shown.view);
    maps = i18n::format(i18n::tr("as shown (%s)"),
                        own ? exporting::colormap(*own).name().c_str() : i18n::tr("export's default"));
  }
  // Combo reads items separated by \0; the colormaps' names are the same in every language.
  for (const char* name : {"viridis", "magma", "cividis"}) (maps += '\0') += name;
  (maps += '\0') += i18n::tr("rdbu (diverging)");
  maps += '\0';
  int map = c.colormap ? static_cast<int>(*c.colormap) + 1 : 0;
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 16.0f);
  if (ImGui::Combo("##colormap", &map, maps.c_str()))
    c.colormap = map == 0 ? std::nullopt : std::optional(static_cast<ColormapId>(map - 1));

  row_label(N_("Range"), "--range");
  int range = static_cast<int>(c.range);
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 16.0f);
  std::string ranges;
  for (const char* item : {i18n::tr("as shown"), i18n::tr("auto (from the exported values)"), i18n::tr("from .. to")})
    (ranges += item) += '\0';
  ImGui::Combo("##range", &range, ranges.c_str());
  c.range = static_cast<RangeChoice>(range);
  if (c.range == RangeChoice::AsShown) {
    ImGui::SameLine();
    ImGui::TextDisabled("%s", shown_range_text(c, shown).c_str());
  }
  if (c.range == RangeChoice::Custom) {
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 5.0f);
    ImGui::InputFloat("##low", &c.range_low, 0.0f, 0.0f, "%g");
    ImGui::SameLine();
    ImGui::TextUnformatted(i18n::trc("range", "to"));
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 5.0f);
    ImGui::InputFloat("##high", &c.range_high, 0.0f, 0.0f, "%g");
  }
}

void draw_zoom(ExportChoices& c, const ShownState& shown) {
  row_label(N_("Cells"), "--rows, --cols");  // not translated: options
  const std::optional<exporting::CellWindow> window = shown_window(Quantity::Weights, shown);
  if (!window) {
    ImGui::TextDisabled("%s", i18n::tr("all rows and columns (zoom in with the wheel to export a part)"));
    return;
  }
  const auto end = [](int value, int total) { return value == exporting::CellWindow::kToEnd ? total : value; };
  // Numbered as the heatmap's zoom caption numbers them ("rows 1,000–1,499").
  const auto range = [](int begin, int last) { return format_grouped(begin) + "\xe2\x80\x93" + format_grouped(last); };
  const std::string label =
      i18n::format(i18n::tr("only the zoomed cells: rows %s, columns %s"),
                   range(window->row_begin, end(window->row_end, shown.problem.n()) - 1).c_str(),
                   range(window->col_begin, end(window->col_end, shown.problem.m()) - 1).c_str()) +
      "###zoomed";
  ImGui::Checkbox(label.c_str(), &c.zoom_as_shown);
}

// `heading`: the figure's first line when the Title field is left empty.
void draw_sizes(ExportChoices& c, const std::string& heading) {
  row_label(N_("Cell size"), "--cell, --dpi");  // not translated: options
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6.0f);
  ImGui::InputInt(i18n::tr_label("px (0: auto)", "px (0: auto)##cell").c_str(), &c.cell_px, 0, 0);
  c.cell_px = std::clamp(c.cell_px, 0, 1000);
  ImGui::SameLine(0.0f, ImGui::GetFontSize() * 1.5f);
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 5.0f);
  ImGui::InputInt("dpi##dpi", &c.dpi, 0, 0);  // not translated: a unit
  c.dpi = std::clamp(c.dpi, 10, 2400);
  ImGui::SameLine(0.0f, ImGui::GetFontSize() * 1.5f);
  int values = static_cast<int>(c.values);
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 5.0f);
  std::string modes;
  for (const char* item : {i18n::trc("values", "auto"), i18n::trc("values", "on"), i18n::trc("values", "off")})
    (modes += item) += '\0';
  ImGui::Combo(i18n::tr_label("values in cells", "values in cells##values").c_str(), &values, modes.c_str());
  c.values = static_cast<ValuesMode>(values);

  row_label(N_("Title"), "--title");
  ImGui::SetNextItemWidth(-1.0f);
  ImGui::InputTextWithHint("##title", heading.c_str(), &c.title);
}

void finish(ui::UiContext& ui, DialogState& state) {
  state.error.clear();
  ExportPlan plan;
  try {
    plan = plan_export(state.choices, shown_state(ui));
  } catch (const InputError& error) {
    state.error = error.what();
    return;
  }
  if (plan.requests.empty()) {
    state.error = i18n::tr("Tick at least one matrix under What.");
    return;
  }
  export_from_popup(state.save_to, export_folder_memory(ui), state.error, [&](const std::filesystem::path& out) {
    return run_export(plan, export_source(ui), out, ui.notices);
  });
}

void draw_save_row(ui::UiContext& ui, DialogState& state) {
  row_label(N_("Save to"), "--out");
  ImGui::SetNextItemWidth(-1.0f);
  const bool entered = ImGui::InputText("##out", &state.save_to.out, ImGuiInputTextFlags_EnterReturnsTrue);
  ImGui::SetCursorPosX(label_width());
  ImGui::TextDisabled(
      "%s", i18n::tr("A folder (created when missing; files named like weights_head0.png) or one file's name"));
  // A relative path or ~ is taken from the folder proposed, never from where attnviz was started.
  const std::filesystem::path resolved = state.save_to.resolved();
  if (!state.save_to.out.empty() && resolved.string() != state.save_to.out) {
    ImGui::SetCursorPosX(label_width());
    ImGui::TextDisabled(i18n::tr("that is %s"), resolved.string().c_str());
  }
  if (!state.error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ui::palette::error_text());
    ui::text_lines(state.error);
    ImGui::PopStyleColor();
  }
  const float w = ImGui::GetFontSize() * 6.0f;
  if (ImGui::Button(i18n::tr_label("Export").c_str(), ImVec2(w, 0.0f)) || entered) finish(ui, state);
  ImGui::SameLine();
  if (ImGui::Button(i18n::tr_label("Cancel").c_str(), ImVec2(w, 0.0f)) ||
      ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) {
    ImGui::CloseCurrentPopup();
  }
}

void draw_notes(const ui::UiContext& ui, const ExportChoices& c, const ShownState& shown) {
  std::vector<std::string> notes;
  try {
    notes = plan_export(c, shown).notes;
  } catch (const InputError&) {
    // reported when Export is pressed
  }
  if (!exports_model_layer(ui) && !ui.session.error().empty()) {
    notes.emplace_back(i18n::tr(
        "The scenario has an error; the heatmaps, and so the export, show the last result that could be computed."));
  }
  for (const std::string& note : notes) {
    ImGui::PushStyleColor(ImGuiCol_Text, ui::palette::warning_text());
    ui::text_lines(note);
    ImGui::PopStyleColor();
  }
}

void draw_dialog(ui::UiContext& ui, DialogState& state) {
  if (state.open_requested) {
    ImGui::OpenPopup(popup_title().c_str());
    state.open_requested = false;
  }
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  ImGui::SetNextWindowPos(ImVec2(display.x * 0.5f, display.y * 0.5f), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
  // Height 0 fits the contents every frame (an error line appears and goes).
  ImGui::SetNextWindowSize(ImVec2(std::min(ImGui::GetFontSize() * 50.0f, display.x * 0.95f), 0.0f), ImGuiCond_Always);
  if (!ImGui::BeginPopupModal(popup_title().c_str(), nullptr, ImGuiWindowFlags_NoSavedSettings)) return;
  if (!has_something_to_export(ui)) {
    ImGui::PushTextWrapPos(0.0f);
    ui::text_lines(ui.session.only_the_overview_shows()
                       ? i18n::tr("This text is past the 4,096 tokens whose every matrix the window keeps, so "
                                  "there are no matrices to export. Its overview has an Export button of its own "
                                  "(PNG, SVG or NPY), above the image in the Heatmaps view.")
                       : i18n::tr("Nothing to export yet: the scenario has not been computed."));
    ImGui::PopTextWrapPos();
    if (ImGui::Button(i18n::tr_label("Close").c_str())) ImGui::CloseCurrentPopup();
    ImGui::EndPopup();
    return;
  }
  const ShownState shown = shown_state(ui);
  ExportChoices& c = state.choices;
  ImGui::TextDisabled(
      "%s", i18n::tr("As the heatmaps show it; the same choices as attnviz export (hover a name for its option)."));
  ImGui::Spacing();
  draw_what(c, shown);
  draw_heads(c, shown);
  draw_format(c);
  ImGui::BeginDisabled(!exporting::is_image(c.format));
  draw_colours(c, shown);
  ImGui::EndDisabled();
  draw_zoom(c, shown);
  ImGui::BeginDisabled(!exporting::is_image(c.format));
  // The scenario's title while it still describes the content, else its sentence.
  draw_sizes(c, export_source(ui).caption.title);
  ImGui::EndDisabled();
  draw_notes(ui, c, shown);
  ImGui::Separator();
  draw_save_row(ui, state);
  ImGui::EndPopup();
}

class ExportDialog final : public ui::Dialog {
 public:
  void update(ui::UiContext& ui) override {
    if (ui::keys::ctrl_pressed(ui::keys::kE, false)) open_export_all(ui);
    if (const std::optional<ui::ExportRequest> request = std::exchange(ui.view.export_request, std::nullopt))
      open(ui, *request);
    draw_dialog(ui, state_);
  }

 private:
  void open(ui::UiContext& ui, const ui::ExportRequest& request) {
    if (!has_something_to_export(ui)) {
      if (request.all) state_.open_requested = true;  // says why there is nothing to export
      return;
    }
    const ShownState shown = shown_state(ui);
    open_with(ui, state_, request.all ? choices_for_all(shown) : choices_for_heatmap(request.quantity, shown));
  }

  DialogState state_;
};

}  // namespace

std::filesystem::path export_folder_memory(const ui::UiContext& ui) {
  return ui.autosave.file().parent_path() / "export-folder";
}

void open_export_all(ui::UiContext& ui) { ui.view.export_request = ui::ExportRequest{true, Quantity::Weights}; }

void open_export(ui::UiContext& ui, Quantity quantity) { ui.view.export_request = ui::ExportRequest{false, quantity}; }

std::unique_ptr<ui::Dialog> make_export_dialog() { return std::make_unique<ExportDialog>(); }

}  // namespace attnviz::export_ui
