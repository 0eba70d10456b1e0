// File menu: New, Open…, Open Recent ▸, Bundled models ▸, Save, Save As…, Presets ▸, Quit, with Ctrl+N / Ctrl+O / Ctrl+S /
// Ctrl+Shift+S / Ctrl+Q. Open and Save As use a small dialog of our own (a path field and the
// folder's sub-folders and .json files). A file is read off the window's thread
// (document::BackgroundLoad): the window keeps drawing, shows "Reading…" when it takes a
// moment, and Esc or Cancel stops it (a FIFO nobody writes to, /dev/zero). A failure shows the
// loader's message and leaves the document untouched; saving is atomic (save_scenario).
// Replacing a document with unsaved changes asks first. Open Recent lists the scenario files and
// models opened (app/document/recent_files.h); one gone since is said and dropped from it.

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include "app/compute/model_session.h"
#include "app/document/background_load.h"
#include "app/document/document.h"
#include "app/document/document_names.h"
#include "app/document/recent_files.h"
#include "app/document/file_listing.h"
#include "app/edits/text_edits.h"
#include "app/export_ui/export_ui.h"
#include "app/i18n/translate.h"
#include "app/panels/bundled_models.h"
#include "app/panels/panels.h"
#include "app/ui/keys.h"
#include "app/ui/long_text.h"
#include "app/ui/notices.h"
#include "app/ui/palette.h"
#include "app/ui/scenario_files.h"
#include "app/ui/text_lines.h"
#include "core/common/input_file.h"
#include "core/common/text_excerpt.h"
#include "core/common/number_text.h"
#include "core/overview/overview.h"
#include "core/scenario/scenario_json.h"

namespace attnviz::panels {
namespace {

namespace fs = std::filesystem;

// Shown translated; each popup's ID stays one while its title changes with the mode and the language.
constexpr const char* kOpenTitle = N_("Open a scenario");
constexpr const char* kSaveTitle = N_("Save the scenario as");
constexpr const char* kOpenTextTitle = N_("Open a text as the sentence");
constexpr const char* kDialogId = "file-dialog";
constexpr const char* kConfirmPopup = N_("Replace the current scenario?");
constexpr const char* kConfirmId = "confirm";
constexpr const char* kReadingPopup = N_("Reading\xE2\x80\xA6");
constexpr const char* kReadingId = "reading";
// A read that ends sooner shows nothing (most files): no flash of a dialog.
constexpr auto kReadingShownAfter = std::chrono::milliseconds(300);

// What File > New starts from: a short sentence that computes at once.
Scenario new_scenario() {
  Scenario s;
  s.title = i18n::tr("Untitled");
  s.sentence = i18n::tr("Type a sentence here");
  s.d_model = 8;
  s.num_heads = 2;
  s.num_kv_heads = 2;
  s.d_k = 4;
  s.d_v = 4;
  return s;
}

class FileMenu final : public ui::Menu {
 public:
  [[nodiscard]] const char* label() const override { return N_("File"); }

  void draw_items(ui::UiContext& ui) override {
    if (ImGui::MenuItem(i18n::tr_label("New").c_str(), "Ctrl+N"))
      replace_with(ui, Replacement{Replacement::Kind::New, ""});
    if (ImGui::MenuItem(i18n::tr_label("Open\xE2\x80\xA6").c_str(), "Ctrl+O")) open_dialog(ui, DialogMode::Open);
    if (ImGui::MenuItem(i18n::tr_label("Open text\xE2\x80\xA6").c_str())) open_dialog(ui, DialogMode::OpenText);
    // A pretrained model (app/panels/open_model_dialog.cpp), beside the scenario.
    if (ImGui::MenuItem(i18n::tr_label("Open model\xE2\x80\xA6").c_str())) ui.view.open_model_dialog_requested = true;
    if (ImGui::MenuItem(i18n::tr_label("Close model").c_str(), nullptr, false, ui.model.has_model() || ui.model.busy()))
      ui.model.close();
    draw_recent(ui);
    draw_bundled_models_menu(ui);  // the trained models attnviz ships (app/panels/bundled_models.h)
    if (ImGui::MenuItem(i18n::tr_label("Save").c_str(), "Ctrl+S")) save(ui);
    if (ImGui::MenuItem(i18n::tr_label("Save As\xE2\x80\xA6").c_str(), "Ctrl+Shift+S"))
      open_dialog(ui, DialogMode::SaveAs);
    if (ImGui::BeginMenu(i18n::tr_label("Presets").c_str())) {
      if (presets_.empty()) presets_ = preset_names();
      for (const std::string& name : presets_) {
        // A preset's name, as `--scenario preset:NAME` takes it: not translated.
        if (ImGui::MenuItem(name.c_str())) replace_with(ui, Replacement{Replacement::Kind::Load, "preset:" + name});
      }
      ImGui::EndMenu();
    }
    ImGui::Separator();
    if (ImGui::MenuItem(i18n::tr_label("Export all\xE2\x80\xA6").c_str(), "Ctrl+E"))
      export_ui::open_export_all(ui);  // app/export_ui
    if (ImGui::MenuItem(i18n::tr_label("Save view as image\xE2\x80\xA6").c_str(), "Ctrl+Shift+E"))
      export_ui::open_view_image(ui);
    ImGui::Separator();
    if (ImGui::MenuItem(i18n::tr_label("Quit").c_str(), "Ctrl+Q")) ui.view.quit_requested = true;
  }

  void update(ui::UiContext& ui) override {
    if (ui::keys::ctrl_pressed(ui::keys::kN, false)) replace_with(ui, Replacement{Replacement::Kind::New, ""});
    if (ui::keys::ctrl_pressed(ui::keys::kO, false)) open_dialog(ui, DialogMode::Open);
    if (ui::keys::ctrl_pressed(ui::keys::kS, false)) save(ui);
    if (ui::keys::ctrl_pressed(ui::keys::kS, true)) open_dialog(ui, DialogMode::SaveAs);
    if (ui::keys::ctrl_pressed(ui::keys::kQ, false)) ui.view.quit_requested = true;
    draw_dialog(ui);
    draw_confirm(ui);
    update_load(ui);
  }

 private:
  enum class DialogMode { Open, SaveAs, OpenText };

  [[nodiscard]] std::string dialog_title() const {
    return i18n::tr_label(mode_ == DialogMode::Open     ? kOpenTitle
                          : mode_ == DialogMode::SaveAs ? kSaveTitle
                                                        : kOpenTextTitle,
                          kDialogId);
  }

  // What replaces the document once the user agreed to lose unsaved changes.
  struct Replacement {
    enum class Kind { New, Load } kind = Kind::New;
    std::string source;  // a path or "preset:NAME" for Load
  };

  void replace_with(ui::UiContext& ui, Replacement what) {
    if (ui.document.modified()) {
      pending_ = std::move(what);
      open_confirm_ = true;
      return;
    }
    carry_out(ui, what);
  }

  void carry_out(ui::UiContext& ui, const Replacement& what) {
    load_.reset();  // a newer choice replaces a read still going on
    if (what.kind == Replacement::Kind::New) {
      ui.document.reset(new_scenario(), std::nullopt);
      return;
    }
    if (what.source.rfind("preset:", 0) == 0) {  // compiled in: nothing to wait for
      if (ui::open_scenario(ui.document, ui.notices, what.source)) {
        ui.notices.post(ui::NoticeLevel::Info, i18n::format(i18n::tr("Opened %s"), what.source.c_str()));
      }
      return;
    }
    load_ = std::make_unique<document::BackgroundLoad>(what.source);
  }

  // ---- Open Recent ----

  // The name first, its folder beside it in grey (where ImGui puts a shortcut); the whole path
  // under the mouse.
  void draw_recent(ui::UiContext& ui) {
    if (!ImGui::BeginMenu(i18n::tr_label("Open Recent").c_str())) return;
    const std::vector<document::RecentFile> entries = ui.recent.entries();  // a click changes the list
    if (entries.empty()) ImGui::MenuItem(i18n::tr_label("No recent files").c_str(), nullptr, false, false);
    for (std::size_t i = 0; i < entries.size(); ++i) {
      const fs::path path(entries[i].path);
      const std::string name =
          ui::shown_text(path.filename().empty() ? path.parent_path().filename().string() : path.filename().string(),
                         60, 1)
              .text;
      const std::string shown =
          entries[i].kind == document::RecentKind::Model  ? i18n::format(i18n::tr("%s (model)"), name.c_str())
          : entries[i].kind == document::RecentKind::Text ? i18n::format(i18n::tr("%s (text)"), name.c_str())
                                                          : name;
      const std::string folder = ui::shown_text(path.parent_path().string(), 60, 1).text;
      const bool chosen = ImGui::MenuItem((shown + "###recent" + std::to_string(i)).c_str(), folder.c_str());
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", ui::shown_text(entries[i].path, 300, 4).text.c_str());
      if (chosen) open_recent(ui, entries[i]);
    }
    ImGui::Separator();
    if (ImGui::MenuItem(i18n::tr_label("Clear Recent").c_str(), nullptr, false, !entries.empty())) ui.recent.clear();
    ImGui::EndMenu();
  }

  void open_recent(ui::UiContext& ui, const document::RecentFile& entry) {
    std::error_code ec;
    if (!fs::exists(entry.path, ec)) {
      ui.recent.remove(entry.path);
      ui.notices.post(ui::NoticeLevel::Error,
                      i18n::format(i18n::tr("%s is no longer there (moved, renamed or deleted), so it was removed "
                                            "from Open Recent."),
                                   cut_text(entry.path, 300).c_str()));
      return;
    }
    if (entry.kind == document::RecentKind::Model)
      open_model(ui, entry.path);
    else if (entry.kind == document::RecentKind::Text)
      open_recent_text(ui, entry.path);
    else
      replace_with(ui, Replacement{Replacement::Kind::Load, entry.path});
  }

  // As File ▸ Open text… opened it; a text grown past what a view can show since then opens
  // by its first tokens, as the dialog would have offered, and one that cannot be read is said.
  void open_recent_text(ui::UiContext& ui, const fs::path& path) {
    edits::OpenedText opened = edits::open_text(ui.document.scenario(), path, edits::TextPart::Whole);
    if (!opened.scenario && opened.too_long)
      opened = edits::open_text(ui.document.scenario(), path, edits::TextPart::FirstTokens);
    if (!opened.scenario) {
      ui.notices.post(ui::NoticeLevel::Error, cut_text(opened.error, 600));
      return;
    }
    apply_opened_text(ui, path, std::move(opened));
  }

  // ---- a file being read ----

  void update_load(ui::UiContext& ui) {
    if (!load_) return;
    const bool done = load_->done();
    const std::string reading = i18n::tr_label(kReadingPopup, kReadingId);
    if (!done && load_->running_for() >= kReadingShownAfter && !ImGui::IsPopupOpen(reading.c_str()))
      ImGui::OpenPopup(reading.c_str());
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    ImGui::SetNextWindowPos(ImVec2(display.x * 0.5f, display.y * 0.5f), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    ImGui::SetNextWindowSizeConstraints(ImVec2(0.0f, 0.0f), ImVec2(display.x * 0.8f, display.y * 0.8f));
    if (ImGui::BeginPopupModal(reading.c_str(), nullptr,
                               ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings)) {
      if (done)
        ImGui::CloseCurrentPopup();
      else
        draw_reading();
      ImGui::EndPopup();
    }
    if (!done) return;
    const std::string source = load_->source();
    if (std::optional<LoadedScenario> loaded = load_->take_result()) {
      ui::apply_opened(ui.document, ui.notices, source, std::move(*loaded));
      ui.recent.add(document::RecentFile{source, document::RecentKind::Scenario});
      ui.notices.post(ui::NoticeLevel::Info, i18n::format(i18n::tr("Opened %s"), cut_text(source, 200).c_str()));
    } else if (load_->cancelled()) {
      ui.notices.post(
          ui::NoticeLevel::Info,
          i18n::format(i18n::tr("Stopped reading %s; your current work is unchanged"), cut_text(source, 200).c_str()));
    } else {
      ui::report_open_failure(ui.notices, source, load_->error());
    }
    load_.reset();
  }

  // What is being read, how much so far, and the way out.
  void draw_reading() {
    ImGui::TextUnformatted(ui::shown_text(load_->source(), 120, 1).text.c_str());
    const std::size_t bytes = load_->bytes_read();
    const std::string progress =
        bytes == 0 ? std::string(i18n::tr("waiting for data\xE2\x80\xA6 (a pipe or FIFO waits for its writer)"))
                   : i18n::format(i18n::tr("%s read so far (at most %s from a pipe or device, %s from a file)"),
                                  byte_size_text(bytes).c_str(), byte_size_text(kMaxInputStreamBytes).c_str(),
                                  byte_size_text(kMaxInputFileBytes).c_str());
    ImGui::TextDisabled("%s", progress.c_str());
    if (ImGui::Button(i18n::tr_label("Cancel").c_str(), ImVec2(ImGui::GetFontSize() * 6.0f, 0.0f)) ||
        ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) {
      load_->cancel();  // reported as stopped once the reading thread has let go
    }
    ImGui::SameLine();
    ImGui::TextDisabled("%s", i18n::tr("or press Esc"));
  }

  void save(ui::UiContext& ui) {
    if (ui.document.path()) {
      ui::save_scenario_to(ui.document, ui.notices, *ui.document.path());
    } else {
      open_dialog(ui, DialogMode::SaveAs);
    }
  }

  // ---- the Open / Save As dialog ----

  void open_dialog(const ui::UiContext& ui, DialogMode mode) {
    mode_ = mode;
    std::error_code ec;
    const auto& path = ui.document.path();
    directory_ = path && path->has_parent_path() ? fs::absolute(path->parent_path(), ec) : fs::current_path(ec);
    if (ec) directory_ = "/";
    typed_.clear();
    title_.clear();
    if (mode == DialogMode::SaveAs) {
      typed_ = document::default_file_name(ui.document);
      title_ = ui.document.scenario().title;
      title_stale_ = !ui.document.title_matches();
    }
    confirm_overwrite_.reset();
    dialog_error_.clear();
    first_part_of_.reset();
    relist();
    open_dialog_ = true;
  }

  void relist() {
    listing_ = edits::list_directory(
        directory_, mode_ == DialogMode::OpenText ? edits::ListedFiles::All : edits::ListedFiles::Scenarios);
  }

  void draw_dialog(ui::UiContext& ui) {
    if (open_dialog_) {
      ImGui::OpenPopup(dialog_title().c_str());
      open_dialog_ = false;
    }
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    ImGui::SetNextWindowSize(
        ImVec2(std::min(720.0f * ui.ui_scale, display.x * 0.9f), std::min(520.0f * ui.ui_scale, display.y * 0.85f)),
        ImGuiCond_Appearing);
    ImGui::SetNextWindowPos(ImVec2(display.x * 0.5f, display.y * 0.5f), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    if (!ImGui::BeginPopupModal(dialog_title().c_str(), nullptr, ImGuiWindowFlags_NoSavedSettings)) {
      return;
    }
    draw_folder_bar();
    draw_listing(ui);
    draw_name_field(ui);
    ImGui::EndPopup();
  }

  void draw_folder_bar() {
    if (ImGui::Button(i18n::tr_label("Up").c_str()) && directory_.has_parent_path()) {
      directory_ = directory_.parent_path();
      relist();
    }
    ImGui::SameLine();
    if (ImGui::Button(i18n::tr_label("Home").c_str())) {
      if (const char* home = std::getenv("HOME")) {
        directory_ = home;
        relist();
      }
    }
    ImGui::SameLine();
    ImGui::TextDisabled("%s", ui::shown_text(directory_.string(), 200, 1).text.c_str());
  }

  void draw_listing(ui::UiContext& ui) {
    const float title_rows =
        mode_ == DialogMode::SaveAs ? ImGui::GetFrameHeightWithSpacing() + ImGui::GetTextLineHeightWithSpacing() : 0.0f;
    const float footer = ImGui::GetFrameHeightWithSpacing() * 3.0f + message_height() + title_rows +
                         (first_part_of_ ? ImGui::GetFrameHeightWithSpacing() : 0.0f);
    if (ImGui::BeginChild("##listing", ImVec2(0.0f, -footer), true)) {
      if (!listing_.error.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, ui::palette::error_text());
        ImGui::PushTextWrapPos(0.0f);
        ui::long_text(listing_.error, "listing-error", 300);
        ImGui::PopTextWrapPos();
        ImGui::PopStyleColor();
      }
      std::optional<edits::ListedEntry> chosen;
      bool activated = false;
      for (const edits::ListedEntry& entry : listing_.entries) {
        const bool selected = !entry.is_directory && entry.name == typed_;
        if (ImGui::Selectable(entry.name.c_str(), selected, ImGuiSelectableFlags_AllowDoubleClick)) {
          chosen = entry;
          activated = ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left);
        }
      }
      if (listing_.entries.empty() && listing_.error.empty()) {
        ImGui::TextDisabled("%s", mode_ == DialogMode::OpenText ? i18n::tr("(no folders or files here)")
                                                                : i18n::tr("(no folders or .json files here)"));
      }
      if (chosen) {
        if (chosen->is_directory) {
          directory_ = chosen->path;
          relist();
        } else {
          typed_ = chosen->name;
          confirm_overwrite_.reset();
          first_part_of_.reset();  // the offer was for the file chosen before
          if (activated) finish(ui);
        }
      }
    }
    ImGui::EndChild();
  }

  // The line under the name field: an error may wrap onto several (and brings a Copy button
  // when cut), which the listing above makes room for, so Open and Cancel stay in view.
  [[nodiscard]] float message_height() const {
    const float line = ImGui::GetTextLineHeightWithSpacing();
    if (dialog_error_.empty()) return line;
    const ui::ShownText shown = ui::shown_text(dialog_error_, 300);
    const float wrapped = ImGui::CalcTextSize(shown.text.c_str(), nullptr, false, ImGui::GetContentRegionAvail().x).y;
    return wrapped + ImGui::GetStyle().ItemSpacing.y + (shown.cut ? ImGui::GetFrameHeightWithSpacing() : 0.0f);
  }

  // The name fields' labels ("Title", "File") end where the longer of them ends, in any language.
  static float field_indent() {
    const float widest = std::max(ImGui::CalcTextSize(i18n::tr("Title")).x, ImGui::CalcTextSize(i18n::tr("File")).x);
    return widest + ImGui::GetStyle().ItemSpacing.x * 2.0f;
  }

  // Open, Save, Cancel: one width, wide enough for the longest in the language shown.
  static float button_width() {
    float widest = 0.0f;
    for (const char* text : {i18n::tr("Save"), i18n::tr("Open"), i18n::tr("Cancel")})
      widest = std::max(widest, ImGui::CalcTextSize(text).x);
    return std::max(ImGui::GetFontSize() * 6.0f, widest + 2.0f * ImGui::GetStyle().FramePadding.x);
  }

  // Save As: the title saved with the file. One written for the content before the user's
  // edits is offered for a rewrite rather than saved as if it still described it.
  void draw_title_field() {
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(i18n::tr("Title"));
    ImGui::SameLine(field_indent());
    ImGui::SetNextItemWidth(-1.0f);
    ImGui::InputTextWithHint("##title", i18n::tr("what this scenario shows"), &title_);
    if (title_stale_)
      ImGui::TextDisabled("%s",
                          i18n::tr("This title was written before your edits: does it still describe the scenario?"));
    else
      ImGui::TextDisabled("%s", i18n::tr("Shown in the menu bar and saved in the file."));
  }

  void draw_name_field(ui::UiContext& ui) {
    if (mode_ == DialogMode::SaveAs) draw_title_field();
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(i18n::tr("File"));
    ImGui::SameLine(field_indent());
    ImGui::SetNextItemWidth(-1.0f);
    // The proposed name is selected: typing replaces it rather than landing in its middle.
    if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
    if (ImGui::InputText("##name", &typed_, ImGuiInputTextFlags_EnterReturnsTrue | ImGuiInputTextFlags_AutoSelectAll)) {
      finish(ui);
    }
    if (ImGui::IsItemEdited()) {
      confirm_overwrite_.reset();
      first_part_of_.reset();  // the offer was for the name typed before
    }
    if (!dialog_error_.empty()) {
      ImGui::PushStyleColor(ImGuiCol_Text, ui::palette::error_text());
      ImGui::PushTextWrapPos(0.0f);
      ui::long_text(dialog_error_, "dialog-error", 300);
      ImGui::PopTextWrapPos();
      ImGui::PopStyleColor();
      draw_first_part_offer(ui);
    } else if (confirm_overwrite_) {
      ui::text_wrapped(i18n::tr("%s exists. Press %s again to replace it."),
                       confirm_overwrite_->filename().string().c_str(), i18n::tr("Save"));
    } else {
      ImGui::TextDisabled("%s", i18n::tr("Type a name or a path (relative to the folder above, or ~/...)"));
    }
    const std::string action = mode_ == DialogMode::SaveAs ? i18n::tr_label("Save") : i18n::tr_label("Open");
    if (ImGui::Button(action.c_str(), ImVec2(button_width(), 0.0f))) finish(ui);
    ImGui::SameLine();
    if (ImGui::Button(i18n::tr_label("Cancel").c_str(), ImVec2(button_width(), 0.0f)) ||
        ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) {
      ImGui::CloseCurrentPopup();
    }
  }

  // Open or save what the name field says; the dialog stays open (with the reason) when that
  // fails, so a typo is fixed in place.
  void finish(ui::UiContext& ui) {
    dialog_error_.clear();
    first_part_of_.reset();
    if (typed_.empty()) {
      dialog_error_ = i18n::tr("Type a file name first.");
      return;
    }
    const fs::path path = edits::resolve_typed_path(directory_, typed_, mode_ == DialogMode::SaveAs);
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
      directory_ = path;
      typed_.clear();
      relist();
      return;
    }
    if (mode_ == DialogMode::Open) {
      finish_open(ui, path);
    } else if (mode_ == DialogMode::OpenText) {
      finish_open_text(ui, path);
    } else {
      finish_save(ui, path);
    }
  }

  void finish_open(ui::UiContext& ui, const fs::path& path) {
    std::error_code ec;
    if (!fs::exists(path, ec)) {
      dialog_error_ = i18n::format(i18n::tr("There is no file %s"), path.string().c_str());
      return;
    }
    ImGui::CloseCurrentPopup();
    replace_with(ui, Replacement{Replacement::Kind::Load, fs::absolute(path, ec).string()});
  }

  // A UTF-8 text as the scenario's sentence (one undo step); past 4,096 tokens the Heatmaps
  // panel shows the overview (app/panels/overview_view.h). A text no view can show is refused
  // in the dialog, as `--text-file` refuses it, rather than replacing a sentence that worked;
  // one past the overview's 65,536 tokens with the offer to open its first 65,536.
  // `path` by value: the offer passes *first_part_of_, which this resets.
  void finish_open_text(ui::UiContext& ui, fs::path path, edits::TextPart part = edits::TextPart::Whole) {
    edits::OpenedText opened = edits::open_text(ui.document.scenario(), path, part);
    first_part_of_.reset();
    if (!opened.scenario) {
      dialog_error_ = opened.error;
      if (opened.too_long) first_part_of_ = path;
      return;
    }
    ImGui::CloseCurrentPopup();
    apply_opened_text(ui, path, std::move(opened));
  }

  void apply_opened_text(ui::UiContext& ui, const fs::path& path, edits::OpenedText opened) {
    ui.document.apply(std::move(*opened.scenario), opened.undo_label);
    std::error_code ec;
    ui.recent.add(document::RecentFile{fs::absolute(path, ec).string(), document::RecentKind::Text});
    // An open model reads it too, as it reads a --text-file given beside --model.
    const bool model_reads_it = ui.model.has_model();
    if (model_reads_it) ui.model.set_text(ui.document.scenario().sentence);
    ui.notices.post(ui::NoticeLevel::Info,
                    cut_text(opened.notice, 300) + (model_reads_it ? i18n::tr("; the model reads it too") : ""));
  }

  void draw_first_part_offer(ui::UiContext& ui) {
    if (mode_ != DialogMode::OpenText || !first_part_of_) return;
    const std::string label =
        i18n::format(i18n::tr("Open its first %s tokens"), format_grouped(overview::kMaxOverviewTokens).c_str());
    if (ImGui::Button(label.c_str())) finish_open_text(ui, *first_part_of_, edits::TextPart::FirstTokens);
  }

  void finish_save(ui::UiContext& ui, const fs::path& path) {
    std::error_code ec;
    if (fs::exists(path, ec) && confirm_overwrite_ != path && ui.document.path() != path) {
      confirm_overwrite_ = path;  // the next Save replaces it
      return;
    }
    if (title_ != ui.document.scenario().title) {
      Scenario retitled = ui.document.scenario();
      retitled.title = title_;
      ui.document.apply(std::move(retitled), i18n::tr("Title"));
    }
    ui.document.confirm_title();  // the user saw it beside this content and kept it
    if (ui::save_scenario_to(ui.document, ui.notices, path)) {
      ImGui::CloseCurrentPopup();
    } else {
      dialog_error_ = i18n::format(i18n::tr("Could not save to %s (see the message below)."), path.string().c_str());
    }
  }

  // ---- "replace unsaved work?" ----

  static std::string question(const std::optional<Replacement>& what) {
    if (!what || what->kind == Replacement::Kind::New) return i18n::tr("Start a new scenario instead?");
    const std::string prefix = "preset:";
    if (what->source.rfind(prefix, 0) == 0)
      return i18n::format(i18n::tr("Open the preset \u201C%s\u201D instead?"),
                          what->source.substr(prefix.size()).c_str());
    return i18n::format(i18n::tr("Open %s instead?"), ui::shown_text(what->source, 120, 1).text.c_str());
  }

  void draw_confirm(ui::UiContext& ui) {
    const std::string title = i18n::tr_label(kConfirmPopup, kConfirmId);
    if (open_confirm_) {
      ImGui::OpenPopup(title.c_str());
      open_confirm_ = false;
    }
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    ImGui::SetNextWindowPos(ImVec2(display.x * 0.5f, display.y * 0.5f), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    if (!ImGui::BeginPopupModal(title.c_str(), nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return;
    ImGui::TextUnformatted(i18n::tr("The current scenario has changes that are not saved to a file."));
    ImGui::TextUnformatted(question(pending_).c_str());
    const float w = ImGui::GetFontSize() * 7.0f;
    if (ImGui::Button(i18n::tr_label("Replace").c_str(), ImVec2(w, 0.0f))) {
      ImGui::CloseCurrentPopup();
      if (pending_) carry_out(ui, *pending_);
      pending_.reset();
    }
    ImGui::SameLine();
    if (ImGui::Button(i18n::tr_label("Keep editing").c_str(), ImVec2(w, 0.0f)) ||
        ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) {
      ImGui::CloseCurrentPopup();
      pending_.reset();
    }
    ImGui::EndPopup();
  }

  std::vector<std::string> presets_;
  DialogMode mode_ = DialogMode::Open;
  bool open_dialog_ = false;
  fs::path directory_;
  std::string typed_;
  std::string title_;         // Save As: the title to save with
  bool title_stale_ = false;  // it was written for the content before the user's edits
  edits::Listing listing_;
  std::optional<fs::path> confirm_overwrite_;
  std::string dialog_error_;
  std::optional<fs::path> first_part_of_;  // Open text: a file past the overview's tokens, offered in part
  bool open_confirm_ = false;
  std::optional<Replacement> pending_;
  std::unique_ptr<document::BackgroundLoad> load_;  // a file being read; cancelled when the menu goes
};

}  // namespace

std::unique_ptr<ui::Menu> make_file_menu() { return std::make_unique<FileMenu>(); }

}  // namespace attnviz::panels
