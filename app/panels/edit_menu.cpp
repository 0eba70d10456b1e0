// Edit menu: Undo / Redo with the labels of the steps ("Undo Edit W_Q[1][0]"), Ctrl+Z,
// Ctrl+Shift+Z and Ctrl+Y. While a text field is being typed in, those keys belong to the
// field (its own undo), not to the document.

#include <imgui.h>

#include <string>

#include "app/compute/model_session.h"
#include "app/document/document.h"
#include "app/panels/panels.h"
#include "app/ui/keys.h"
#include "app/ui/notices.h"

namespace attnviz::panels {
namespace {

class EditMenu final : public ui::Menu {
 public:
  [[nodiscard]] const char* label() const override { return "Edit"; }

  void draw_items(ui::UiContext& ui) override {
    document::Document& doc = ui.document;
    const std::string undo = doc.can_undo() ? "Undo " + doc.undo_label() : std::string("Undo");
    const std::string redo = doc.can_redo() ? "Redo " + doc.redo_label() : std::string("Redo");
    if (ImGui::MenuItem(undo.c_str(), "Ctrl+Z", false, doc.can_undo())) undo_step(ui);
    if (ImGui::MenuItem(redo.c_str(), "Ctrl+Shift+Z", false, doc.can_redo())) redo_step(ui);
    // The model's head switches have an undo of their own (the model is not the scenario).
    compute::ModelSession& model = ui.model;
    if (model.has_model()) {
      ImGui::Separator();
      const std::string model_undo = model.can_undo() ? "Undo model: " + model.undo_label() : std::string("Undo model");
      const std::string model_redo = model.can_redo() ? "Redo model: " + model.redo_label() : std::string("Redo model");
      if (ImGui::MenuItem(model_undo.c_str(), nullptr, false, model.can_undo())) model.undo();
      if (ImGui::MenuItem(model_redo.c_str(), nullptr, false, model.can_redo())) model.redo();
    }
  }

  void update(ui::UiContext& ui) override {
    const ImGuiIO& io = ImGui::GetIO();
    if (!io.KeyCtrl || io.KeyAlt) return;
    if (ImGui::IsKeyPressed(ui::keys::kZ, true) && ui::keys::ctrl_key_free(ui::keys::kZ)) {
      if (io.KeyShift) redo_step(ui);
      else undo_step(ui);
    } else if (!io.KeyShift && ImGui::IsKeyPressed(ui::keys::kY, true) && ui::keys::ctrl_key_free(ui::keys::kY)) {
      redo_step(ui);
    }
  }

 private:
  static void undo_step(ui::UiContext& ui) {
    const std::string label = ui.document.undo_label();
    if (ui.document.undo()) ui.notices.post(ui::NoticeLevel::Info, "Undone: " + label, "undo-redo");
  }
  static void redo_step(ui::UiContext& ui) {
    const std::string label = ui.document.redo_label();
    if (ui.document.redo()) ui.notices.post(ui::NoticeLevel::Info, "Redone: " + label, "undo-redo");
  }
};

}  // namespace

std::unique_ptr<ui::Menu> make_edit_menu() { return std::make_unique<EditMenu>(); }

}  // namespace attnviz::panels
