// Edit menu: Undo / Redo with the labels of the steps ("Undo Edit W_Q[1][0]"), Ctrl+Z,
// Ctrl+Shift+Z and Ctrl+Y. While a pretrained model is shown the keys undo and redo its edits
// (head switches, W_Q, W_K, W_V) first, and the scenario's once the model has none left in that
// direction. While a text field is being typed in, those keys belong to the field (its own
// undo), not to the document or the model.

#include <imgui.h>

#include <string>

#include "app/compute/model_session.h"
#include "app/document/document.h"
#include "app/i18n/translate.h"
#include "app/panels/panels.h"
#include "app/ui/keys.h"
#include "app/ui/notices.h"

namespace attnviz::panels {
namespace {

class EditMenu final : public ui::Menu {
 public:
  [[nodiscard]] const char* label() const override { return N_("Edit"); }

  void draw_items(ui::UiContext& ui) override {
    document::Document& doc = ui.document;
    // The step's name changes the label, never the item's ID.
    const std::string undo =
        (doc.can_undo() ? i18n::format(i18n::tr("Undo %s"), doc.undo_label().c_str()) : std::string(i18n::tr("Undo"))) +
        "###undo";
    const std::string redo =
        (doc.can_redo() ? i18n::format(i18n::tr("Redo %s"), doc.redo_label().c_str()) : std::string(i18n::tr("Redo"))) +
        "###redo";
    // The shortcut beside the item it would undo or redo now.
    compute::ModelSession& model = ui.model;
    const bool model_undoes = model_first(ui, true);
    const bool model_redoes = model_first(ui, false);
    if (ImGui::MenuItem(undo.c_str(), model_undoes ? nullptr : "Ctrl+Z", false, doc.can_undo())) undo_document(ui);
    if (ImGui::MenuItem(redo.c_str(), model_redoes ? nullptr : "Ctrl+Shift+Z", false, doc.can_redo()))
      redo_document(ui);
    // The model's head switches have an undo of their own (the model is not the scenario).
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
      if (ImGui::MenuItem(model_undo.c_str(), model_undoes ? "Ctrl+Z" : nullptr, false, model.can_undo()))
        undo_model(ui);
      if (ImGui::MenuItem(model_redo.c_str(), model_redoes ? "Ctrl+Shift+Z" : nullptr, false, model.can_redo()))
        redo_model(ui);
    }
  }

  void update(ui::UiContext& ui) override {
    const ImGuiIO& io = ImGui::GetIO();
    if (!io.KeyCtrl || io.KeyAlt) return;
    if (ImGui::IsKeyPressed(ui::keys::kZ, true) && ui::keys::ctrl_key_free(ui::keys::kZ)) {
      if (io.KeyShift)
        redo_step(ui);
      else
        undo_step(ui);
    } else if (!io.KeyShift && ImGui::IsKeyPressed(ui::keys::kY, true) && ui::keys::ctrl_key_free(ui::keys::kY)) {
      redo_step(ui);
    }
  }

 private:
  // Whether the keys undo (or redo) the model's edit rather than the scenario's: a model is
  // shown and has a step in that direction.
  static bool model_first(const ui::UiContext& ui, bool undo) {
    return ui.model.has_model() && (undo ? ui.model.can_undo() : ui.model.can_redo());
  }
  static void undo_step(ui::UiContext& ui) {
    if (model_first(ui, true))
      undo_model(ui);
    else
      undo_document(ui);
  }
  static void redo_step(ui::UiContext& ui) {
    if (model_first(ui, false))
      redo_model(ui);
    else
      redo_document(ui);
  }
  static void undo_model(ui::UiContext& ui) {
    const std::string label = ui.model.undo_label();
    ui.model.undo();
    ui.notices.post(ui::NoticeLevel::Info, i18n::format(i18n::tr("Undone (model): %s"), label.c_str()), "undo-redo");
  }
  static void redo_model(ui::UiContext& ui) {
    const std::string label = ui.model.redo_label();
    ui.model.redo();
    ui.notices.post(ui::NoticeLevel::Info, i18n::format(i18n::tr("Redone (model): %s"), label.c_str()), "undo-redo");
  }
  static void undo_document(ui::UiContext& ui) {
    const std::string label = ui.document.undo_label();
    if (ui.document.undo())
      ui.notices.post(ui::NoticeLevel::Info, i18n::format(i18n::tr("Undone: %s"), label.c_str()), "undo-redo");
  }
  static void redo_document(ui::UiContext& ui) {
    const std::string label = ui.document.redo_label();
    if (ui.document.redo())
      ui.notices.post(ui::NoticeLevel::Info, i18n::format(i18n::tr("Redone: %s"), label.c_str()), "undo-redo");
  }
};

}  // namespace

std::unique_ptr<ui::Menu> make_edit_menu() { return std::make_unique<EditMenu>(); }

}  // namespace attnviz::panels
