// What the Training view does every frame, whichever tab is shown: takes the run's progress
// (and keeps frames coming while it trains), key 8, opens a folder Open in Model view saved, and
// asks, when the window is closed mid-run, whether to keep the last checkpoint.

#include <imgui.h>

#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "app/compute/model_session.h"
#include "app/i18n/translate.h"
#include "app/panels/panels.h"
#include "app/panels/training_view.h"
#include "app/ui/classroom_state.h"
#include "app/ui/keys.h"
#include "app/ui/palette.h"
#include "app/ui/text_lines.h"
#include "app/ui/view_state.h"

namespace attnviz::panels {
namespace {

constexpr const char* kCloseQuestion = N_("Keep the training?");

class TrainingDialog final : public ui::Dialog {
 public:
  explicit TrainingDialog(std::shared_ptr<TrainingViewState> state) : state_(std::move(state)) {}

  void update(ui::UiContext& ui) override {
    TrainingViewState& s = *state_;
    compute::TrainingSession& session = s.session;
    session.poll();
    if (session.state() == compute::TrainingState::Running) ui.classroom.wants_frames = true;
    if (!ui::keys::modal_open() && ui::keys::plain_keys_free() && !ImGui::GetIO().KeyCtrl && !ImGui::GetIO().KeyAlt &&
        ImGui::IsKeyPressed(ui::keys::key('8'), false))
      ui.view.select_main_tab = ui::kTrainingViewTitle;
    open_saved(ui);
    ui.view.close_held = session.unsaved() && !s.close_answered;
    ask_on_close(ui);
  }

 private:
  // Open in Model view: once the save asked for has finished, the folder opens as any model
  // folder does, on the run's probe.
  void open_saved(ui::UiContext& ui) {
    TrainingViewState& s = *state_;
    compute::TrainingSession& session = s.session;
    if (!s.open_when_saved) {
      saves_seen_ = session.saves_finished();
      return;
    }
    if (session.saves_finished() == saves_seen_) {
      ui.classroom.wants_frames = true;
      return;
    }
    s.open_when_saved = false;
    saves_seen_ = session.saves_finished();
    if (!session.error().empty()) return;  // the view says why
    ui.model.open(session.saved().string(), session.probe_text());
    ui.view.select_main_tab = ui::kModelViewTitle;
  }

  void ask_on_close(ui::UiContext& ui) {
    TrainingViewState& s = *state_;
    compute::TrainingSession& session = s.session;
    const std::string title = i18n::tr_label(kCloseQuestion, "training-close");
    if (std::exchange(ui.view.close_asked, false)) {
      if (!ui.view.close_held) {
        ui.view.quit_requested = true;
        return;
      }
      ImGui::OpenPopup(title.c_str());
    }
    ImGui::SetNextWindowPos(ImGui::GetMainViewport()->GetCenter(), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    ImGui::SetNextWindowSize(ImVec2(30.0f * ImGui::GetFontSize(), 0.0f));
    if (!ImGui::BeginPopupModal(title.c_str(), nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return;
    ui::text_wrapped("%s", i18n::format(i18n::tr("The training is at step %ld and not saved since. Keep its last "
                                                 "checkpoint in %s?"),
                                        session.steps_done(), session.folder().string().c_str())
                               .c_str());
    if (!session.error().empty()) {
      ImGui::PushStyleColor(ImGuiCol_Text, ui::palette::error_text());
      ui::text_wrapped("%s", session.error().c_str());
      ImGui::PopStyleColor();
    }
    if (ImGui::Button(i18n::tr_label("Keep and close", "training-keep").c_str())) {
      session.pause();
      session.wait();
      if (!session.snapshots().empty()) {
        session.save(session.snapshots().size() - 1);
        session.wait();
      }
      if (session.error().empty()) close(ui);
    }
    ImGui::SameLine();
    if (ImGui::Button(i18n::tr_label("Close without keeping", "training-discard").c_str())) close(ui);
    ImGui::SameLine();
    if (ImGui::Button(i18n::tr_label("Cancel", "training-cancel-close").c_str()) ||
        ImGui::IsKeyPressed(ui::keys::kEscape, false))
      ImGui::CloseCurrentPopup();
    ImGui::EndPopup();
  }

  void close(ui::UiContext& ui) {
    state_->close_answered = true;
    ui.view.close_held = false;
    ui.view.quit_requested = true;
    ImGui::CloseCurrentPopup();
  }

  std::shared_ptr<TrainingViewState> state_;
  std::uint64_t saves_seen_ = 0;
};

}  // namespace

std::unique_ptr<ui::Dialog> make_training_dialog(std::shared_ptr<TrainingViewState> state) {
  return std::make_unique<TrainingDialog>(std::move(state));
}

void add_training_view(ui::Layout& layout) {
  auto state = std::make_shared<TrainingViewState>();
  layout.add_panel(make_training_panel(state));
  layout.add_dialog(make_training_dialog(state));
}

}  // namespace attnviz::panels
