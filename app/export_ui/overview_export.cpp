// The overview's Export button and popup (export_ui.h: OverviewExport): the overview shown, in
// the format chosen, written and reported by run_overview_export (export_runner.h) into the
// folder the Export dialog proposes, which it then remembers as that dialog does.

#include <imgui.h>

#include <algorithm>
#include <memory>
#include <string>

#include "app/document/document.h"
#include "app/export_ui/export_runner.h"
#include "app/export_ui/export_popup.h"
#include "app/export_ui/export_ui.h"
#include "app/i18n/translate.h"
#include "app/ui/text_lines.h"
#include "app/ui/view_state.h"
#include "core/common/number_text.h"

namespace attnviz::export_ui {
namespace {

// The popup's title, translated (as heads_export.cpp's: a window is named by its whole title).
std::string popup_title() { return i18n::tr("Export the overview") + std::string("##overview_export"); }
constexpr exporting::ExportFormat kFormats[] = {exporting::ExportFormat::Png, exporting::ExportFormat::Svg,
                                                exporting::ExportFormat::Npy};

// Pixels across of a finer image than the panel's (which holds 128 to 1,024).
constexpr int kFinerPixels[] = {512, 1024};

}  // namespace

void OverviewExport::draw(ui::UiContext& ui, const overview::Overview& shown, const Problem& problem,
                          const compute::OverviewAsk& shown_ask) {
  if (ImGui::Button(i18n::tr_label("Export\xE2\x80\xA6", "Export\xE2\x80\xA6##overview").c_str())) {
    save_to_.propose(export_folder_memory(ui));
    error_.clear();
    ImGui::OpenPopup(popup_title().c_str());
  }
  if (!begin_export_popup(popup_title().c_str())) {
    // Closed: a finer image's problem and worker are not kept for the next export, once the
    // worker is idle (a cancelled one may still be finishing a problem: the frame must not wait).
    finer_ask_.reset();
    if (finer_ && finer_->idle()) finer_.reset();
    return;
  }
  ui::text_wrapped("%s", i18n::tr("The overview shown: its head, window, pooling and quantity, each pixel block a "
                                  "whole number of image pixels (PNG, SVG), or its values as float32 with NaN where "
                                  "the mask hides a whole block (NPY)."));
  draw_format_choice("overview_export", kFormats, &format_);
  draw_pixels_choice(shown);
  const bool entered = draw_save_to(save_to_, "##overview_out", "overview_weights_max_head0.png", error_);
  follow_finer(ui);
  const bool computing = finer_ask_.has_value();
  const PopupButtons pressed = draw_popup_buttons("overview_export", !computing);
  if (pressed.export_pressed || (entered && !computing)) start(ui, shown, problem, shown_ask);
  if (pressed.cancel_pressed) {
    if (finer_) finer_->cancel();
    finer_ask_.reset();
    ImGui::CloseCurrentPopup();
  }
  ImGui::EndPopup();
}

// As shown, or (for a pooled image) 512 or 1,024 pixels across where that is finer.
void OverviewExport::draw_pixels_choice(const overview::Overview& shown) {
  const overview::PixelGrid& g = shown.grid;
  const int across = std::max(g.rows, g.cols);
  if (pixels_ <= across) pixels_ = 0;  // a choice left from a coarser image
  if (g.exact()) {
    ImGui::TextDisabled(i18n::tr("Pixels: one per cell, %s \xC3\x97 %s"), format_grouped(g.rows).c_str(),
                        format_grouped(g.cols).c_str());
    return;
  }
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(i18n::tr("Pixels"));
  ImGui::SameLine();
  const std::string as_shown = i18n::format(i18n::tr("as shown, %s \xC3\x97 %s"), format_grouped(g.rows).c_str(),
                                            format_grouped(g.cols).c_str()) +
                               "##overview_export_pixels";
  ImGui::RadioButton(as_shown.c_str(), &pixels_, 0);
  for (const int finer : kFinerPixels) {
    if (finer <= across) continue;
    ImGui::SameLine();
    ImGui::RadioButton((format_grouped(finer) + "##overview_export_pixels").c_str(), &pixels_, finer);
  }
  if (pixels_ != 0) {
    const overview::PixelGrid finer = overview::PixelGrid::fit(g.window, pixels_, pixels_);
    ImGui::TextDisabled(i18n::tr("Computed for the export: each pixel %s \xC3\x97 %s cells instead of %s \xC3\x97 %s"),
                        format_grouped(finer.block_rows).c_str(), format_grouped(finer.block_cols).c_str(),
                        format_grouped(g.block_rows).c_str(), format_grouped(g.block_cols).c_str());
  }
}

void OverviewExport::start(ui::UiContext& ui, const overview::Overview& shown, const Problem& problem,
                           const compute::OverviewAsk& shown_ask) {
  if (save_to_.out.empty()) {
    error_ = i18n::tr(kEmptySaveTo);  // before a finer image is computed for nothing
    return;
  }
  if (pixels_ == 0) {
    finish(ui, shown, problem);
    return;
  }
  compute::OverviewAsk ask = shown_ask;
  ask.pixel_rows = ask.pixel_cols = pixels_;
  if (!finer_) finer_ = std::make_unique<compute::OverviewSession>();
  finer_->request_again();  // after a cancel or a failure, the same image is computed anew
  finer_->request(ui.document.scenario(), ui.document.revision(), ask);
  finer_ask_ = ask;
  error_.clear();
}

void OverviewExport::follow_finer(ui::UiContext& ui) {
  if (!finer_ask_) return;
  if (finer_->running()) {
    ImGui::ProgressBar(static_cast<float>(finer_->progress()), ImVec2(-1.0f, 0.0f),
                       i18n::tr("computing the finer image\xE2\x80\xA6"));
    return;
  }
  const compute::OverviewAsk asked = *finer_ask_;
  finer_ask_.reset();
  const std::shared_ptr<const overview::Overview> image = finer_->shown();
  const std::shared_ptr<const Problem> problem = finer_->shown_problem();
  if (image && problem && finer_->shown_ask() == asked) {
    finish(ui, *image, *problem);
    return;
  }
  const std::string error = finer_->error();
  error_ = error.empty() ? std::string(i18n::tr("The finer image could not be computed."))
                         : i18n::format(i18n::tr("The finer image could not be computed: %s"), error.c_str());
}

void OverviewExport::finish(ui::UiContext& ui, const overview::Overview& shown, const Problem& problem) {
  export_from_popup(save_to_, export_folder_memory(ui), error_, [&](const std::filesystem::path& out) {
    return run_overview_export(shown, ui.document.scenario(), problem, kFormats[format_], out, ui.notices);
  });
}

}  // namespace attnviz::export_ui
