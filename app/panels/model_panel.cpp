// Model panel: d_model, heads, kv heads (only divisors of heads; GQA / MQA named), d_k, d_v,
// the scale (1/√d_k, none, or a temperature), positions (none, sinusoidal, RoPE with its θ,
// ALiBi), dropout on the weights (p, seed), the seed with Regenerate, and W_O. Every change
// of a dimension reshapes the explicit matrices at once (edits/model_edits.h), so the scenario
// is never left with a matrix of the wrong shape.

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

#include "app/document/document.h"
#include "app/edits/model_edits.h"
#include "app/edits/position_edits.h"
#include "app/i18n/translate.h"
#include "app/panels/panels.h"
#include "app/ui/flow.h"
#include "app/ui/palette.h"
#include "app/ui/text_lines.h"

namespace attnviz::panels {
namespace {

// Slider ranges: what fits a lesson. Ctrl+click a slider to type any value up to the core's
// limits (clamped there).
constexpr int kSliderMaxDModel = 256;
constexpr int kSliderMaxHeads = 16;
constexpr int kSliderMaxHeadDim = 128;

// Every label of the panel's left column (msgids).
constexpr const char* kColumnLabels[] = {"d_model",   N_("heads"),     N_("kv heads"), "d_k",     "d_v",
                                         N_("scale"), N_("positions"), N_("dropout"),  N_("seed")};

class ModelPanel final : public ui::Panel {
 public:
  [[nodiscard]] const char* title() const override { return N_("Model"); }
  [[nodiscard]] ui::PanelArea area() const override { return ui::PanelArea::Inputs; }

  void draw(ui::UiContext& ui) override {
    label_width_ = label_column_width();
    draw_dimensions(ui);
    ImGui::Separator();
    draw_scale(ui);
    ImGui::Separator();
    draw_positions(ui);
    draw_dropout(ui);
    ImGui::Separator();
    draw_seed(ui);
    draw_output_projection(ui);
  }

 private:
  // A labelled integer slider; `apply` makes the new scenario. One undo step per drag. `label`
  // and `help` are msgids (N_), shown translated; `key` names the slider in every language.
  template <typename Apply>
  void int_slider(ui::UiContext& ui, const char* label, const char* key, int value, int max_slider, int max_value,
                  Apply apply, const char* help) {
    label_column(label, help);
    ImGui::SetNextItemWidth(-1.0f);
    int edited = value;
    if (ImGui::SliderInt((std::string("##") + key).c_str(), &edited, 1, std::max(max_slider, value))) {
      edited = std::clamp(edited, 1, max_value);
      if (edited != value) {
        const Scenario& s = ui.document.scenario();
        ui.document.apply(apply(s, edited), std::string(i18n::tr(label)) + " = " + std::to_string(edited), key);
      }
    }
    if (ImGui::IsItemDeactivated()) ui.document.end_merge();
  }

  // Wide enough for the longest label in the window's language (a translation may run 40 %
  // longer than English), never under six characters, never past half the panel.
  [[nodiscard]] static float label_column_width() {
    float widest = 0.0f;
    for (const char* label : kColumnLabels) widest = std::max(widest, ImGui::CalcTextSize(i18n::tr(label)).x);
    const float least = ImGui::GetFontSize() * 6.0f;
    const float most = std::max(least, ImGui::GetContentRegionAvail().x * 0.5f);
    return std::clamp(widest + ImGui::GetStyle().ItemSpacing.x * 2.0f, least, most);
  }

  void label_column(const char* label, const char* help) const {
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(i18n::tr(label));
    if (help != nullptr && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", i18n::tr(help));
    ImGui::SameLine(label_width_);
  }

  void draw_dimensions(ui::UiContext& ui) {
    const Scenario& s = ui.document.scenario();
    const int max_dim = edits::max_dimension();
    int_slider(
        ui, "d_model", "d_model", s.d_model, kSliderMaxDModel, max_dim,
        [](const Scenario& sc, int v) { return edits::set_d_model(sc, v, edits::default_fresh(sc)); },
        N_("Width of each token's embedding (columns of X, rows of W_Q, W_K, W_V)"));
    int_slider(
        ui, N_("heads"), "heads", s.num_heads, kSliderMaxHeads, edits::max_heads(),
        [](const Scenario& sc, int v) { return edits::set_num_heads(sc, v, edits::default_fresh(sc)); },
        N_("Query heads H: each has its own slice of W_Q"));
    draw_kv_heads(ui);
    int_slider(
        ui, "d_k", "d_k", s.d_k, kSliderMaxHeadDim, max_dim,
        [](const Scenario& sc, int v) { return edits::set_d_k(sc, v, edits::default_fresh(sc)); },
        N_("Width of each head's queries and keys (columns per head in W_Q and W_K)"));
    int_slider(
        ui, "d_v", "d_v", s.d_v, kSliderMaxHeadDim, max_dim,
        [](const Scenario& sc, int v) { return edits::set_d_v(sc, v, edits::default_fresh(sc)); },
        N_("Width of each head's values and context vectors (columns per head in W_V)"));
    ImGui::TextDisabled("W_Q %d\xC3\x97%d \xC2\xB7 W_K %d\xC3\x97%d \xC2\xB7 W_V %d\xC3\x97%d", s.d_model,
                        s.num_heads * s.d_k, s.d_model, s.num_kv_heads * s.d_k, s.d_model, s.num_kv_heads * s.d_v);
  }

  void draw_kv_heads(ui::UiContext& ui) {
    const Scenario& s = ui.document.scenario();
    label_column(N_("kv heads"), N_("Key/value heads G: query head h uses K/V head h / (H / G). Only divisors of H."));
    ImGui::SetNextItemWidth(-1.0f);
    const std::string current = std::to_string(s.num_kv_heads);
    if (ImGui::BeginCombo("##kv_heads", current.c_str())) {
      for (const int kv : edits::divisors(s.num_heads)) {
        const std::string item = std::to_string(kv) + "  " + edits::attention_kind(s.num_heads, kv);
        if (ImGui::Selectable(item.c_str(), kv == s.num_kv_heads) && kv != s.num_kv_heads) {
          ui.document.apply(edits::set_num_kv_heads(s, kv, edits::default_fresh(s)),
                            std::string(i18n::tr("kv heads")) + " = " + std::to_string(kv));
        }
      }
      ImGui::EndCombo();
    }
    ImGui::SetCursorPosX(label_width_);
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetColorU32(ImGuiCol_TextDisabled));
    ui::text_lines(edits::attention_kind(s.num_heads, s.num_kv_heads));
    ImGui::PopStyleColor();
  }

  void draw_scale(ui::UiContext& ui) {
    const Scenario& s = ui.document.scenario();
    label_column(N_("scale"),
                 N_("The factor the raw scores Q\xC2\xB7K\xE1\xB5\x80 are multiplied by before the softmax"));
    using Kind = ScaleSetting::Kind;
    // `text` is shown (translated), `id` names the button in every language.
    const auto choose = [&](const char* text, const char* id, Kind kind) {
      if (ImGui::RadioButton((std::string(text) + "###" + id).c_str(), s.scale.kind == kind) && s.scale.kind != kind) {
        Scenario next = s;
        next.scale.kind = kind;
        if (kind == Kind::Value) next.scale.value = s.scale.resolve(s.d_k);  // start where it is
        ui.document.apply(std::move(next), i18n::format(i18n::tr("Scale: %s"), text));
      }
    };
    // In a narrow panel (a 1280-pixel projector) "temperature" goes under the others, not cut.
    const auto beside = [&](const char* text) {
      ui::same_line_if_fits(ui::check_width(text));
      if (ImGui::GetCursorPosX() < label_width_) ImGui::SetCursorPosX(label_width_);
    };
    const char* inv_sqrt_dk =
        "1/\xE2\x88\x9A"
        "d_k";
    choose(inv_sqrt_dk, inv_sqrt_dk, Kind::InvSqrtDk);
    const char* none = i18n::trc("scale", "none");
    beside(none);
    choose(none, "none", Kind::None);
    const char* temperature = i18n::tr("temperature");
    beside(temperature);
    choose(temperature, "temperature", Kind::Value);
    if (s.scale.kind == Kind::Value) draw_temperature(ui);
    ImGui::SetCursorPosX(label_width_);
    ImGui::TextDisabled(i18n::tr("scores \xC3\x97 %.4g"), static_cast<double>(s.scale.resolve(s.d_k)));
  }

  void draw_temperature(ui::UiContext& ui) {
    const Scenario& s = ui.document.scenario();
    float temperature = static_cast<float>(edits::temperature_from_scale(s.scale.value));
    ImGui::SetCursorPosX(label_width_);
    ImGui::SetNextItemWidth(-1.0f);
    if (ImGui::SliderFloat("##temperature", &temperature, 0.05f, 20.0f, i18n::tr("T = %.3g  (scale 1/T)"),
                           ImGuiSliderFlags_Logarithmic) &&
        std::isfinite(temperature) && temperature > 0.0f) {
      Scenario next = s;
      next.scale.value = edits::scale_from_temperature(static_cast<double>(temperature));
      ui.document.apply(std::move(next), i18n::tr("Temperature"), "temperature");
    }
    if (ImGui::IsItemDeactivated()) ui.document.end_merge();
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip(i18n::tr("Low T sharpens the weights towards the largest score; high T flattens them.\n"
                                 "T = \xE2\x88\x9A"
                                 "d_k = %.3g gives the standard scale."),
                        std::sqrt(static_cast<double>(s.d_k)));
    }
  }

  void draw_positions(ui::UiContext& ui) {
    const Scenario& s = ui.document.scenario();
    label_column(N_("positions"), N_("Where a token's position enters attention (docs/design.md \"Positions\")"));
    ImGui::SetNextItemWidth(-1.0f);
    if (ImGui::BeginCombo("##positional", edits::positional_label(s.positional).c_str())) {
      for (const PositionalKind kind :
           {PositionalKind::None, PositionalKind::Sinusoidal, PositionalKind::Rope, PositionalKind::Alibi}) {
        if (ImGui::Selectable(edits::positional_label(kind).c_str(), kind == s.positional) && kind != s.positional) {
          ui.document.apply(edits::set_positional(s, kind),
                            i18n::format(i18n::tr("Positions: %s"), edits::positional_label(kind).c_str()));
        }
      }
      ImGui::EndCombo();
    }
    if (s.positional == PositionalKind::Rope) draw_rope(ui);
  }

  void draw_rope(ui::UiContext& ui) {
    const Scenario& s = ui.document.scenario();
    if (s.d_k % 2 != 0) {  // the core refuses it (naming d_k): say why here, and offer the fix
      ImGui::SetCursorPosX(label_width_);
      ImGui::PushStyleColor(ImGuiCol_Text, ui::palette::error_text());
      ui::text_wrapped(i18n::tr("RoPE turns q and k in pairs: d_k = %d is odd."), s.d_k);
      ImGui::PopStyleColor();
      ImGui::SetCursorPosX(label_width_);
      const std::string fix = i18n::format(i18n::tr("Make d_k %d"), edits::even_d_k(s.d_k));
      if (ImGui::Button(fix.c_str())) {
        ui.document.apply(edits::set_d_k(s, edits::even_d_k(s.d_k), edits::default_fresh(s)),
                          "d_k = " + std::to_string(edits::even_d_k(s.d_k)));
      }
      return;
    }
    ImGui::SetCursorPosX(label_width_);
    ImGui::SetNextItemWidth(-1.0f);
    float theta = static_cast<float>(s.rope_theta);
    if (ImGui::SliderFloat("##rope_theta", &theta, 10.0f, 1.0e6f, "\xCE\xB8 = %.0f", ImGuiSliderFlags_Logarithmic) &&
        std::isfinite(theta)) {
      ui.document.apply(edits::set_rope_theta(s, static_cast<double>(theta)), i18n::tr("RoPE \xCE\xB8"), "rope_theta");
    }
    if (ImGui::IsItemDeactivated()) ui.document.end_merge();
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip(
          "%s", i18n::tr("RoPE's base \xCE\xB8: pair i turns by pos \xC2\xB7 \xCE\xB8^(\xE2\x88\x92"
                         "2i/d_k) radians.\n"
                         "10000 in the paper and Llama 2; Llama 3 uses 500000. Larger \xCE\xB8: slower turning."));
    }
  }

  void draw_dropout(ui::UiContext& ui) {
    const Scenario& s = ui.document.scenario();
    label_column(N_("dropout"), N_("Dropout on the weights after the softmax (training only): each weight dropped with "
                                   "probability p, the kept ones \xC3\x97 1/(1 \xE2\x88\x92 p)"));
    bool on = s.dropout.has_value();
    if (ImGui::Checkbox("##dropout_on", &on)) {
      ui.document.apply(edits::set_dropout(s, on ? std::optional<DropoutSetting>(DropoutSetting{}) : std::nullopt),
                        on ? i18n::tr("Dropout on") : i18n::tr("Dropout off"));
    }
    if (!on) {
      ImGui::SameLine();
      ImGui::TextDisabled("%s", i18n::tr("off"));
      return;
    }
    ImGui::SameLine();
    ImGui::SetNextItemWidth(-1.0f);
    float p = static_cast<float>(s.dropout->p);
    if (ImGui::SliderFloat("##dropout_p", &p, 0.0f, static_cast<float>(edits::kMaxDropoutP), "p = %.2f") &&
        std::isfinite(p)) {
      ui.document.apply(edits::set_dropout_p(s, static_cast<double>(p)), i18n::tr("Dropout p"), "dropout_p");
    }
    if (ImGui::IsItemDeactivated()) ui.document.end_merge();
    ImGui::SetCursorPosX(label_width_);
    ImGui::AlignTextToFramePadding();
    ImGui::TextDisabled("%s", i18n::tr("seed"));
    ImGui::SameLine();
    ImGui::SetNextItemWidth(-1.0f);
    std::uint64_t seed = s.dropout->seed;
    if (ImGui::InputScalar("##dropout_seed", ImGuiDataType_U64, &seed, nullptr, nullptr, "%llu",
                           ImGuiInputTextFlags_EnterReturnsTrue) &&
        seed != s.dropout->seed) {
      ui.document.apply(edits::set_dropout_seed(s, seed),
                        i18n::format(i18n::tr("Dropout seed %llu"), static_cast<unsigned long long>(seed)));
    }
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("%s", i18n::tr("Which weights are dropped: a hash of (seed, head, query, key)"));
  }

  void draw_seed(ui::UiContext& ui) {
    const Scenario& s = ui.document.scenario();
    label_column(N_("seed"), N_("Generated embeddings and weights depend only on the seed (and the token text)"));
    std::uint64_t seed = s.seed;
    const std::string regenerate = i18n::tr_label("Regenerate");
    const float button_w =
        ImGui::CalcTextSize(regenerate.c_str(), nullptr, true).x + ImGui::GetStyle().FramePadding.x * 2;
    ImGui::SetNextItemWidth(-(button_w + ImGui::GetStyle().ItemSpacing.x));
    if (ImGui::InputScalar("##seed", ImGuiDataType_U64, &seed, nullptr, nullptr, "%llu",
                           ImGuiInputTextFlags_EnterReturnsTrue) &&
        seed != s.seed) {
      Scenario next = s;
      next.seed = seed;
      ui.document.apply(std::move(next), i18n::format(i18n::tr("Seed %llu"), static_cast<unsigned long long>(seed)));
    }
    ImGui::SameLine();
    if (ImGui::Button(regenerate.c_str())) {
      ui.document.apply(edits::regenerate(s, s.seed + 1),
                        i18n::format(i18n::tr("Regenerate (seed %llu)"), static_cast<unsigned long long>(s.seed + 1)));
    }
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip("%s",
                        i18n::tr("Next seed, and every matrix generated again from it (edited values are replaced)"));
    }
  }

  void draw_output_projection(ui::UiContext& ui) {
    const Scenario& s = ui.document.scenario();
    bool enabled = s.wo.has_value() || s.generate_wo;
    if (ImGui::Checkbox(i18n::tr_label("Output projection W_O").c_str(), &enabled)) {
      ui.document.apply(edits::set_output_projection(s, enabled),
                        enabled ? i18n::tr("Add W_O") : i18n::tr("Remove W_O"));
    }
    if (enabled) {
      const int d_out = s.wo ? s.wo->cols : s.d_model;
      ImGui::SameLine();
      ImGui::TextDisabled("%d\xC3\x97%d", s.num_heads * s.d_v, d_out);
      if (ImGui::IsItemHovered()) {
        ImGui::SetTooltip(
            i18n::tr("output = [C_0 | \xE2\x80\xA6 | C_%d] \xC2\xB7 W_O: the heads' context vectors side by side, "
                     "projected to d_out = %d"),
            s.num_heads - 1, d_out);
      }
    }
  }

  float label_width_ = 90.0f;
};

}  // namespace

std::unique_ptr<ui::Panel> make_model_panel() { return std::make_unique<ModelPanel>(); }

}  // namespace attnviz::panels
