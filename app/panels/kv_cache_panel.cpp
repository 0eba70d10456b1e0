// KV cache: the size of a model's KV cache with the formula's numbers filled in, the presets
// teachers quote (LLaMA-7B: 2 GiB; LLaMA-2-70B: 1.25 GiB, smaller thanks to GQA), the size
// against sequence length for MHA, GQA and MQA of the shape, and the scenario's own cache.
// The arithmetic is core/decode/kv_cache_size.h's (docs/decode.md "KV-cache size").

#include <imgui.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "app/i18n/translate.h"
#include "app/compute/compute_session.h"
#include "app/panels/kv_cache_chart.h"
#include "app/panels/panels.h"
#include "app/ui/flow.h"
#include "app/ui/palette.h"
#include "app/ui/text_lines.h"
#include "core/decode/kv_cache_size.h"

namespace attnviz::panels {
namespace {

using decode::CacheDtype;
using decode::KvCacheShape;

constexpr std::uint64_t kLargestInput = 1ULL << 40;  // keeps 2 · length on the chart's axis in range

// A positive whole number field; the value stays within [1, kLargestInput]. `label` (N_) is
// shown translated, its English the field's ID.
void count_field(const char* label, std::uint64_t& value, float width) {
  ImGui::SetNextItemWidth(width);
  const std::uint64_t step = 1;
  if (ImGui::InputScalar(i18n::tr_label(label).c_str(), ImGuiDataType_U64, &value, &step, nullptr, "%llu")) {
    value = std::clamp<std::uint64_t>(value, 1, kLargestInput);
  }
}

class KvCachePanel final : public ui::Panel {
 public:
  KvCachePanel() { use_preset(decode::kv_cache_presets().front()); }

  [[nodiscard]] const char* title() const override { return N_("KV cache"); }
  [[nodiscard]] ui::PanelArea area() const override { return ui::PanelArea::Side; }
  [[nodiscard]] bool open_by_default() const override { return false; }

  void draw(ui::UiContext& ui) override {
    draw_presets();
    draw_shape(ui.ui_scale);
    ImGui::Separator();
    try {
      draw_size();
      draw_chart(ui.ui_scale);
    } catch (const decode::KvCacheOverflow& error) {
      ImGui::PushStyleColor(ImGuiCol_Text, ui::palette::error_text());
      ui::text_lines(error.what());
      ImGui::PopStyleColor();
    }
    ImGui::Separator();
    draw_scenario_cache(ui);
  }

 private:
  void use_preset(const decode::KvCachePreset& preset) {
    shape_ = preset.shape;
    query_heads_ = preset.query_heads;
  }

  void draw_presets() {
    ImGui::TextUnformatted(i18n::tr("Presets:"));
    for (const decode::KvCachePreset& preset : decode::kv_cache_presets()) {
      const std::string label(preset.name);
      ui::same_line_if_fits(ImGui::CalcTextSize(label.c_str()).x + 2.0f * ImGui::GetStyle().FramePadding.x);
      if (ImGui::Button(label.c_str())) use_preset(preset);
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%.*s", static_cast<int>(preset.description.size()), preset.description.data());
    }
  }

  void draw_shape(float scale) {
    const float width = 110.0f * scale;
    count_field(N_("layers"), shape_.layers, width);
    count_field(N_("query heads"), query_heads_, width);
    count_field(N_("KV heads"), shape_.kv_heads, width);
    count_field(N_("head dim"), shape_.head_dim, width);
    count_field(N_("tokens (seq_len)"), shape_.seq_len, width);
    count_field(N_("batch"), shape_.batch, width);
    ImGui::SetNextItemWidth(width);
    // TRANSLATORS: the cache's number type (float32, float16, bfloat16, int8).
    if (ImGui::BeginCombo(i18n::tr_label("type").c_str(), std::string(decode::dtype_name(shape_.dtype)).c_str())) {
      for (const CacheDtype dtype : {CacheDtype::f32, CacheDtype::f16, CacheDtype::bf16, CacheDtype::int8}) {
        const std::string name(decode::dtype_name(dtype));
        if (ImGui::Selectable(name.c_str(), dtype == shape_.dtype)) shape_.dtype = dtype;
      }
      ImGui::EndCombo();
    }
  }

  // The size, then the formula with its numbers: the working that shows a factor-two slip.
  void draw_size() const {
    const std::string size = decode::bytes_and_gib(decode::kv_cache_bytes(shape_));
    ImGui::TextUnformatted(size.c_str());
    ui::text_lines(decode::kv_cache_formula_legend(shape_));
    ui::text_lines(decode::kv_cache_formula(shape_));
  }

  void draw_chart(float scale) const {
    const std::vector<std::uint64_t> lengths = chart_lengths(shape_.seq_len);
    const std::vector<decode::SizeCurve> curves = decode::size_curves(shape_, query_heads_, lengths);
    ui::text_wrapped(i18n::trn("Size against tokens, 0 to %llu (the line: %llu token):",
                               "Size against tokens, 0 to %llu (the line: %llu tokens):", shape_.seq_len),
                     static_cast<unsigned long long>(lengths.back()), static_cast<unsigned long long>(shape_.seq_len));
    const ImVec2 min = ImGui::GetCursorScreenPos();
    const float width = std::max(120.0f * scale, ImGui::GetContentRegionAvail().x);
    const ImVec2 max(min.x + width, min.y + 140.0f * scale);
    draw_size_chart(*ImGui::GetWindowDrawList(), curves, lengths, min, max);
    ImGui::Dummy(ImVec2(width, max.y - min.y));
    for (std::size_t i = 0; i < curves.size(); ++i) {
      KvCacheShape at_length = shape_;
      at_length.kv_heads = curves[i].kv_heads;
      ImGui::PushStyleColor(ImGuiCol_Text, curve_colour(i));
      ImGui::Text(i18n::trn("%s, %llu KV head: %s", "%s, %llu KV heads: %s", curves[i].kv_heads),
                  curves[i].label.c_str(), static_cast<unsigned long long>(curves[i].kv_heads),
                  decode::bytes_and_gib(decode::kv_cache_bytes(at_length)).c_str());
      ImGui::PopStyleColor();
    }
  }

  static void draw_scenario_cache(const ui::UiContext& ui) {
    ImGui::TextUnformatted(i18n::tr("This scenario's cache (one layer, float32):"));
    if (!ui.session.has_result()) {
      ImGui::TextDisabled("%s", i18n::tr("no result yet"));
      return;
    }
    const Problem& p = ui.session.problem();
    ui::text_lines(decode::scenario_cache(p.n(), p.num_kv_heads, p.d_k, p.d_v).formula);
  }

  KvCacheShape shape_;
  std::uint64_t query_heads_ = 1;
};

}  // namespace

std::unique_ptr<ui::Panel> make_kv_cache_panel() { return std::make_unique<KvCachePanel>(); }

}  // namespace attnviz::panels
