// The Training view's panel: the settings column (task, shape, steps, batch, learning rate, the
// folder), Start / Pause / Step / Reset, where the run is, its message, Open in Model view; the
// loss curve and the heads beside it (training_charts.cpp).

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <string>

#include "app/document/document.h"
#include "app/i18n/translate.h"
#include "app/panels/heatmaps_parts.h"
#include "app/panels/training_view.h"
#include "app/ui/classroom_state.h"
#include "app/ui/palette.h"
#include "app/ui/text_lines.h"
#include "app/ui/view_state.h"

namespace attnviz::panels {
namespace {

using compute::TrainingState;
using compute::TrainingTask;

void wrapped(const std::string& text) { ui::text_wrapped("%s", text.c_str()); }

const char* task_name(TrainingTask task) {
  return task == TrainingTask::Induction ? "induction" : "text";  // a folder name, not translated
}

// A whole-number setting: its label, a field, kept within [low, high].
template <typename T>
void number_field(const char* label, const char* id, T& value, T low, T high, float field_w) {
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(i18n::tr(label));
  ImGui::SameLine(ImGui::GetContentRegionAvail().x - field_w + ImGui::GetCursorPosX() -
                  ImGui::GetStyle().ItemSpacing.x);
  ImGui::SetNextItemWidth(field_w);
  int shown = static_cast<int>(value);
  if (ImGui::InputInt(id, &shown, 0, 0)) value = static_cast<T>(std::clamp<long>(shown, low, high));
}

class TrainingPanel final : public ui::Panel {
 public:
  explicit TrainingPanel(std::shared_ptr<TrainingViewState> state) : state_(std::move(state)) {}
  [[nodiscard]] const char* title() const override { return ui::kTrainingViewTitle; }
  [[nodiscard]] ui::PanelArea area() const override { return ui::PanelArea::Main; }
  void draw(ui::UiContext& ui) override;

 private:
  void draw_settings(ui::UiContext& ui, float width);
  void draw_controls(ui::UiContext& ui);
  void draw_status(ui::UiContext& ui, float width);
  // The settings as the run will get them; false (and a message) when they cannot run.
  bool prepare(ui::UiContext& ui);

  std::shared_ptr<TrainingViewState> state_;
  std::string problem_;  // why Start cannot run these settings ("" when it can)
};

void TrainingPanel::draw(ui::UiContext& ui) {
  TrainingViewState& s = *state_;
  if (s.folder.empty()) s.folder = compute::default_training_folder(task_name(s.settings.task)).string();
  const ImVec2 area = ImGui::GetContentRegionAvail();
  const float font = ImGui::GetFontSize();
  const float settings_w = std::min(area.x * 0.34f, 22.0f * font);
  const float gap = font;
  if (ImGui::BeginChild("##training-settings", ImVec2(settings_w, area.y), false)) draw_settings(ui, settings_w);
  ImGui::EndChild();
  ImGui::SameLine(0.0f, gap);
  const float right_w = area.x - settings_w - gap;
  if (ImGui::BeginChild("##training-charts", ImVec2(right_w, area.y), false)) {
    const int shown = shown_snapshot_index(s);
    const long marker = shown >= 0 ? s.session.snapshots()[static_cast<std::size_t>(shown)]->step : -1;
    heading(i18n::tr("Loss"),
            s.session.repeat_losses().empty()
                ? i18n::tr("cross-entropy of each step's batch")
                : i18n::tr("blue: each step's batch \xC2\xB7 orange: its repeated tokens only"),
            right_w);
    const float curve_h = std::clamp(area.y * 0.28f, 6.0f * font, 14.0f * font);
    draw_loss_curve(s.session, marker, right_w, curve_h);
    ImGui::Spacing();
    draw_training_heads(ui, s, right_w, ImGui::GetContentRegionAvail().y);
  }
  ImGui::EndChild();
}

void TrainingPanel::draw_settings(ui::UiContext& ui, float width) {
  TrainingViewState& s = *state_;
  compute::TrainingSettings& set = s.settings;
  const float font = ImGui::GetFontSize();
  const float field_w = 5.5f * font;
  heading(i18n::tr("Task"), "", width);
  ImGui::BeginDisabled(s.session.has_run());
  int task = static_cast<int>(set.task);
  ImGui::RadioButton(i18n::tr_label("Induction: random tokens, repeated", "training-task-induction").c_str(), &task,
                     static_cast<int>(TrainingTask::Induction));
  ImGui::RadioButton(i18n::tr_label("This text (the sentence)", "training-task-sentence").c_str(), &task,
                     static_cast<int>(TrainingTask::Sentence));
  ImGui::RadioButton(i18n::tr_label("A text file", "training-task-file").c_str(), &task,
                     static_cast<int>(TrainingTask::TextFile));
  if (task != static_cast<int>(set.task)) {
    set.task = static_cast<TrainingTask>(task);
    s.folder = compute::default_training_folder(task_name(set.task)).string();
  }
  if (set.task == TrainingTask::TextFile) {
    ImGui::SetNextItemWidth(-1.0f);
    ImGui::InputTextWithHint("##training-text-file", i18n::tr("path of a UTF-8 text file"), &s.text_file);
  }
  ImGui::Spacing();
  heading(i18n::tr("Model and training"), "", width);
  number_field(N_("Layers"), "##training-layers", set.layers, 1, 12, field_w);
  number_field(N_("Heads"), "##training-heads", set.heads, 1, 16, field_w);
  number_field(N_("d_model"), "##training-d-model", set.d_model, 8, 512, field_w);
  number_field(N_("Context (tokens)"), "##training-context", set.context, 8, 256, field_w);
  number_field(N_("Steps"), "##training-steps", set.steps, 1L, 100000L, field_w);
  number_field(N_("Batch"), "##training-batch", set.batch, 1, 256, field_w);
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(i18n::tr("Learning rate"));
  ImGui::SameLine(ImGui::GetContentRegionAvail().x - field_w + ImGui::GetCursorPosX() -
                  ImGui::GetStyle().ItemSpacing.x);
  ImGui::SetNextItemWidth(field_w);
  if (ImGui::InputFloat("##training-lr", &set.learning_rate, 0.0f, 0.0f, "%.4g"))
    set.learning_rate = std::clamp(set.learning_rate, 1e-6f, 1.0f);
  ImGui::TextUnformatted(i18n::tr("Saved in"));
  ImGui::SetNextItemWidth(-1.0f);
  ImGui::InputText("##training-folder", &s.folder);
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("%s", s.folder.c_str());
  ImGui::EndDisabled();
  ImGui::Spacing();
  draw_controls(ui);
  ImGui::Spacing();
  draw_status(ui, width);
}

bool TrainingPanel::prepare(ui::UiContext& ui) {
  TrainingViewState& s = *state_;
  compute::TrainingSettings& set = s.settings;
  problem_.clear();
  if (set.d_model % set.heads != 0) {
    problem_ = i18n::format(i18n::tr("d_model (%d) must be a multiple of the heads (%d)."), set.d_model, set.heads);
  } else if (set.task == TrainingTask::TextFile && s.text_file.empty()) {
    problem_ = i18n::tr("Give the path of a text file to train on.");
  }
  if (!problem_.empty()) return false;
  set.text = ui.document.scenario().sentence;
  set.text_file = s.text_file;
  set.out = s.folder;
  s.shown_snapshot = -1;
  return true;
}

void TrainingPanel::draw_controls(ui::UiContext& ui) {
  TrainingViewState& s = *state_;
  compute::TrainingSession& session = s.session;
  const bool running = session.state() == TrainingState::Running;
  const bool finished = session.state() == TrainingState::Finished;
  ImGui::BeginDisabled(running || finished);
  const char* start = session.has_run() ? N_("Continue") : N_("Start");
  if (ImGui::Button(i18n::tr_label(start, "training-start").c_str()) && prepare(ui)) session.start(s.settings);
  ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::BeginDisabled(!running);
  if (ImGui::Button(i18n::tr_label("Pause", "training-pause").c_str())) session.pause();
  ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::BeginDisabled(running || finished);
  if (ImGui::Button(i18n::tr_label("Step", "training-step").c_str()) && prepare(ui)) session.step(s.settings);
  ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::BeginDisabled(!session.has_run() && session.state() != TrainingState::Failed);
  if (ImGui::Button(i18n::tr_label("Reset", "training-reset").c_str())) {
    session.reset();
    s.shown_snapshot = -1;
    problem_.clear();
    s.folder = compute::default_training_folder(task_name(s.settings.task)).string();
  }
  ImGui::EndDisabled();
  // Open in Model view: the shown snapshot written, then opened as any model folder is.
  const int shown = shown_snapshot_index(s);
  ImGui::BeginDisabled(running || shown < 0);
  if (ImGui::Button(i18n::tr_label("Open in Model view", "training-open").c_str())) {
    session.save(static_cast<std::size_t>(shown));
    s.open_when_saved = true;
  }
  ImGui::EndDisabled();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip("%s", i18n::tr("Saves the snapshot shown (pause first) and opens it in the Model view"));
}

void TrainingPanel::draw_status(ui::UiContext& /*ui*/, float /*width*/) {
  TrainingViewState& s = *state_;
  const compute::TrainingSession& session = s.session;
  const ImU32 error_colour = ui::palette::error_text();
  if (!problem_.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, error_colour);
    wrapped(problem_);
    ImGui::PopStyleColor();
  }
  if (!session.error().empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, error_colour);
    wrapped(session.error());
    ImGui::PopStyleColor();
  }
  if (!session.has_run()) {
    if (session.state() != TrainingState::Failed)
      wrapped(
          i18n::tr("Start trains a new GPT-2 on this machine; its heads show on the right as it learns. "
                   "Induction: watch for a stripe below the diagonal in layer 1."));
    return;
  }
  ImGui::TextUnformatted(i18n::format(i18n::tr("Step %ld of %ld"), session.steps_done(), session.steps()).c_str());
  if (!session.losses().empty()) {
    std::string line = i18n::format(i18n::tr("loss %.3f"), static_cast<double>(session.losses().back()));
    if (!session.repeat_losses().empty())
      line += i18n::format(i18n::tr(", repeat loss %.3f"), static_cast<double>(session.repeat_losses().back()));
    ImGui::TextUnformatted(line.c_str());
    if (session.state() == TrainingState::Running)
      ImGui::TextDisabled("%s", i18n::format(i18n::tr("%.0f tokens/s"), session.tokens_per_second()).c_str());
  }
  const char* state = session.state() == TrainingState::Running    ? N_("Training\xE2\x80\xA6")
                      : session.state() == TrainingState::Finished ? N_("Finished.")
                      : session.state() == TrainingState::Failed   ? N_("Stopped.")
                                                                   : N_("Paused.");
  ImGui::TextDisabled("%s", i18n::tr(state));
  if (!session.saved().empty()) {
    wrapped(i18n::format(i18n::tr("Saved: %s"), session.saved().string().c_str()));
  }
}

}  // namespace

std::unique_ptr<ui::Panel> make_training_panel(std::shared_ptr<TrainingViewState> state) {
  return std::make_unique<TrainingPanel>(std::move(state));
}

}  // namespace attnviz::panels
