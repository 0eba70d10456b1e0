// Edit menu: Undo / Redo with the labels of the steps ("Undo Edit W_Q[1][0]"), Ctrl+Z,
// Ctrl+Shift+Z and Ctrl+Y. The scenario's edits and a shown model's (head switches, W_Q, W_K,
// W_V) are one timeline (app/ui/undo_timeline.h): the keys undo what was done last, whichever
// it was, and the menu shows both histories' next steps with the keys beside the one they
// move. While a text field is being typed in, those keys belong to the field (its own undo),
// not to the document or the model.

#include <imgui.h>

#include <optional>
#include <string>

#include "app/compute/model_session.h"
#include "app/document/document.h"
#include "app/i18n/translate.h"
#include "app/panels/panels.h"
#include "app/ui/keys.h"
#include "app/ui/notices.h"
#include "app/ui/undo_timeline.h"

namespace attnviz::panels {
namespace {

using ui::History;

class EditMenu final : public ui::Menu {
 public:
  [[nodiscard]] const char* label() const override { return N_("Edit"); }

  void draw_items(ui::UiContext& ui) override {
    document::Document& doc = ui.document;
    compute::ModelSession& model = ui.model;
    ui.undo.observe(doc, model);
    const std::optional<History> undoes = ui.undo.next_undo(doc, model);
    const std::optional<History> redoes = ui.undo.next_redo(doc, model);
    // The step's name changes the label, never the item's ID.
    const std::string undo =
        (doc.can_undo() ? i18n::format(i18n::tr("Undo %s"), doc.undo_label().c_str()) : std::string(i18n::tr("Undo"))) +
        "###undo";
    const std::string redo =
        (doc.can_redo() ? i18n::format(i18n::tr("Redo %s"), doc.redo_label().c_str()) : std::string(i18n::tr("Redo"))) +
        "###redo";
    if (ImGui::MenuItem(undo.c_str(), shortcut(undoes, History::Scenario, "Ctrl+Z"), false, doc.can_undo()))
      step(ui, true, History::Scenario);
    if (ImGui::MenuItem(redo.c_str(), shortcut(redoes, History::Scenario, "Ctrl+Shift+Z"), false, doc.can_redo()))
      step(ui, false, History::Scenario);
    // The model's edits: shown apart, one timeline with the scenario's all the same.
    if (model.has_model()) {
      ImGui::Separator();
      const std::string model_undo =
          (model.can_undo() ? i18n::format(i18n::tr("Undo model: %s"), model.undo_label().c_str())
                            : std::string(i18n::tr("Undo model"))) +
          "###undo-model";
      const std::string model_redo =
          (model.can_redo() ? i18n::format(i18n::tr("Redo model: %s"), model.redo_label().c_str())
                            : std::string(i18n::tr("Redo model"))) +
          "###redo-model";
      if (ImGui::MenuItem(model_undo.c_str(), shortcut(undoes, History::Model, "Ctrl+Z"), false, model.can_undo()))
        step(ui, true, History::Model);
      if (ImGui::MenuItem(model_redo.c_str(), shortcut(redoes, History::Model, "Ctrl+Shift+Z"), false,
                          model.can_redo()))
        step(ui, false, History::Model);
    }
  }

  void update(ui::UiContext& ui) override {
    ui.undo.observe(ui.document, ui.model);
    const ImGuiIO& io = ImGui::GetIO();
    if (!io.KeyCtrl || io.KeyAlt) return;
    if (ImGui::IsKeyPressed(ui::keys::kZ, true) && ui::keys::ctrl_key_free(ui::keys::kZ)) {
      step(ui, !io.KeyShift, std::nullopt);
    } else if (!io.KeyShift && ImGui::IsKeyPressed(ui::keys::kY, true) && ui::keys::ctrl_key_free(ui::keys::kY)) {
      step(ui, false, std::nullopt);
    }
  }

 private:
  // The key beside the item it would move now.
  static const char* shortcut(std::optional<History> next, History item, const char* keys) {
    return next == item ? keys : nullptr;
  }
  // Undoes (or redoes) the timeline's next step, or `only` that history's, and says so.
  static void step(ui::UiContext& ui, bool undo, std::optional<History> only) {
    const std::optional<ui::UndoTimeline::Done> done =
        undo ? ui.undo.undo(ui.document, ui.model, only) : ui.undo.redo(ui.document, ui.model, only);
    if (!done) return;
    const bool model = done->history == History::Model;
    const char* said = undo ? (model ? i18n::tr("Undone (model): %s") : i18n::tr("Undone: %s"))
                            : (model ? i18n::tr("Redone (model): %s") : i18n::tr("Redone: %s"));
    ui.notices.post(ui::NoticeLevel::Info, i18n::format(said, done->label.c_str()), "undo-redo");
  }
};

}  // namespace

std::unique_ptr<ui::Menu> make_edit_menu() { return std::make_unique<EditMenu>(); }

}  // namespace attnviz::panels
