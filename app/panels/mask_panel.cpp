// Mask panel: quick presets (None / Causal / Sliding window / Longformer), causal, the window
// radius, the global tokens by index, a mask expression with live errors and named patterns
// that insert their expression, the documents doc() reads, the block-sparsity tiles' size, and
// the mask itself as a small heatmap whose hidden cells are hatched grey (never the colormap's
// low end).

#include <imgui.h>
#include <imgui_internal.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <string>

#include "app/document/document.h"
#include "app/i18n/translate.h"
#include "app/edits/mask_edits.h"
#include "app/heatmap/heatmap_widget.h"
#include "app/panels/panels.h"
#include "app/ui/palette.h"
#include "app/ui/text_lines.h"
#include "app/ui/theme.h"
#include "app/ui/view_state.h"
#include "app/window/widget_log.h"
#include "core/attention/mask.h"
#include "core/common/error.h"
#include "core/common/number_text.h"
#include "core/scenario/mask_expression_check.h"

namespace attnviz::panels {
namespace {

// The preview shows at most this many tokens on each side (a 4096² picture says no more
// than a 1024² one, and costs 16× the memory).
constexpr int kMaxPreviewTokens = 1024;
// Where visible cells sit on the Blues colormap: a clear mid blue, distinct from the hatching.
constexpr float kVisibleShade = 0.55f;
constexpr edits::MaskPreset kPresets[] = {edits::MaskPreset::None, edits::MaskPreset::Causal,
                                          edits::MaskPreset::SlidingWindow, edits::MaskPreset::Longformer};

class MaskPanel final : public ui::Panel {
 public:
  [[nodiscard]] const char* title() const override { return N_("Mask"); }
  [[nodiscard]] ui::PanelArea area() const override { return ui::PanelArea::Inputs; }

  void draw(ui::UiContext& ui) override {
    refresh(ui);
    draw_presets(ui);
    draw_causal_and_window(ui);
    draw_globals(ui);
    draw_expression(ui);
    // Below the expression, not above it: the summary changes as an expression starts or
    // stops applying, and the field must not move under the caret while the user types.
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetColorU32(ImGuiCol_TextDisabled));
    ui::text_lines(edits::window_summary(ui.document.scenario().mask));
    ImGui::PopStyleColor();
    draw_documents(ui);
    draw_blocks_option(ui);
    draw_preview(ui);
  }

 private:
  void refresh(const ui::UiContext& ui) {
    const std::uint64_t revision = ui.document.revision();
    if (revision == seen_revision_) return;
    seen_revision_ = revision;
    const Scenario& s = ui.document.scenario();
    text_ = ui.document.tokens();
    if (!typing_globals_) globals_text_ = edits::format_global_list(s.mask.global);
    if (!typing_documents_) documents_text_ = edits::format_global_list(s.mask.documents);
    // The field keeps what the user typed (valid or not) until the document's expression
    // changes from elsewhere: undo, a preset, a pattern, a file opened.
    if (s.mask.expression != synced_expression_) {
      synced_expression_ = s.mask.expression;
      if (!typing_expression_) {
        expression_text_ = s.mask.expression;
        expression_error_.reset();
      }
    }
    const int rows = std::min(static_cast<int>(tokens().size()), kMaxPreviewTokens);
    const int cols = std::min(static_cast<int>(source_tokens().size()), kMaxPreviewTokens);
    if (preview_.rows != rows || preview_.cols != cols) {
      // Every cell "visible" in a mid blue; the renderer hatches what the mask hides.
      preview_ = Matrix(rows, cols, kVisibleShade);
      ++preview_version_;
    }
    row_labels_.assign(tokens().begin(), tokens().begin() + rows);
    col_labels_.assign(source_tokens().begin(), source_tokens().begin() + cols);
  }

  void apply_mask(ui::UiContext& ui, const MaskSetting& mask, const std::string& label, const std::string& key = "") {
    Scenario next = ui.document.scenario();
    next.mask = mask;
    ui.document.apply(std::move(next), label, key);
  }

  // The preset buttons, four in a row when they fit, else two by two.
  void draw_presets(ui::UiContext& ui) {
    const MaskSetting& mask = ui.document.scenario().mask;
    const std::optional<edits::MaskPreset> current = edits::matching_preset(mask);
    const ImGuiStyle& style = ImGui::GetStyle();
    const float avail = ImGui::GetContentRegionAvail().x;
    float widest = 0.0f;
    for (const edits::MaskPreset preset : kPresets) {
      widest =
          std::max(widest, ImGui::CalcTextSize(i18n::tr(edits::mask_preset_name(preset))).x + style.FramePadding.x * 2);
    }
    const int per_row = widest * 4 + style.ItemSpacing.x * 3 <= avail ? 4 : 2;
    const float width = (avail - style.ItemSpacing.x * static_cast<float>(per_row - 1)) / static_cast<float>(per_row);
    int index = 0;
    for (const edits::MaskPreset preset : kPresets) {
      if (index++ % per_row != 0) ImGui::SameLine();
      const bool active = current == preset;
      if (active) {
        ImGui::PushStyleColor(ImGuiCol_Button, ui::accent_colour());  // the selected pill of every panel
        ImGui::PushStyleColor(ImGuiCol_Text, 0xffffffffu);
      }
      // "Causal" is also the checkbox below: the ##preset suffix keeps their IDs apart (one ID
      // for both made the checkbox unclickable).
      const char* name = edits::mask_preset_name(preset);
      const std::string label = i18n::tr_label(name, (std::string(name) + "##preset").c_str());
      if (ImGui::Button(label.c_str(), ImVec2(width, 0.0f))) {
        apply_mask(ui, edits::apply_mask_preset(mask, preset),
                   i18n::format(i18n::tr("Mask preset: %s"), i18n::tr(name)));
      }
      if (active) ImGui::PopStyleColor(2);
    }
  }

  void draw_causal_and_window(ui::UiContext& ui) {
    const MaskSetting& mask = ui.document.scenario().mask;
    bool causal = mask.causal;
    if (ImGui::Checkbox(i18n::tr_label("Causal").c_str(), &causal)) {
      MaskSetting next = mask;
      next.causal = causal;
      apply_mask(ui, next, causal ? i18n::tr("Causal mask on") : i18n::tr("Causal mask off"));
    }
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("%s", i18n::tr("A token sees only itself and the tokens before it (decoders)"));
    ImGui::SameLine();
    bool windowed = mask.window.has_value();
    if (ImGui::Checkbox(i18n::tr_label("Window").c_str(), &windowed)) {
      const std::optional<int> radius = windowed ? std::optional<int>(edits::kDefaultSlidingRadius) : std::nullopt;
      apply_mask(ui, edits::set_window(mask, radius), windowed ? i18n::tr("Window on") : i18n::tr("Window off"));
    }
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip("%s", i18n::tr("Sliding window: a token sees only tokens within the radius\n"
                                       "(with Causal: itself and r before; without: r on each side, Longformer)"));
    }
    if (!mask.window) return;
    ImGui::SameLine();
    int radius = *mask.window;
    const int max_radius = std::max({static_cast<int>(tokens().size()) - 1, radius, 1});
    ImGui::SetNextItemWidth(-1.0f);
    if (ImGui::SliderInt("##radius", &radius, 0, max_radius, i18n::tr("radius %d"))) {
      apply_mask(ui, edits::set_window(mask, std::max(radius, 0)), i18n::format(i18n::tr("Window radius %d"), radius),
                 "window-radius");
    }
    if (ImGui::IsItemDeactivated()) ui.document.end_merge();
  }

  void draw_globals(ui::UiContext& ui) {
    const MaskSetting& mask = ui.document.scenario().mask;
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(i18n::tr("Global tokens"));
    ImGui::SameLine();
    ImGui::SetNextItemWidth(-1.0f);
    ImGui::InputTextWithHint("##globals", i18n::tr("e.g. 0, 5"), &globals_text_);
    typing_globals_ = ImGui::IsItemActive();
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip("%s", i18n::tr("Longformer global tokens see every token and are seen by every token.\n"
                                       "They need a window: one is added when there is none."));
    }
    if (ImGui::IsItemDeactivatedAfterEdit()) {
      const edits::ParsedGlobals parsed =
          edits::parse_global_list(globals_text_, static_cast<int>(std::max(tokens().size(), source_tokens().size())));
      if (!parsed.indices) {
        globals_error_ = parsed.error;
      } else {
        globals_error_.clear();
        MaskSetting next = mask;
        next.global = *parsed.indices;
        if (!next.global.empty() && !next.window && !has_expression(next))
          next.window = edits::kDefaultLongformerRadius;
        apply_mask(ui, next,
                   next.global.empty()
                       ? std::string(i18n::tr("Global tokens: none"))
                       : i18n::format(i18n::tr("Global tokens %s"), edits::format_global_list(next.global).c_str()));
        globals_text_ = edits::format_global_list(next.global);
      }
    }
    if (!globals_error_.empty()) {
      ImGui::PushStyleColor(ImGuiCol_Text, ui::palette::error_text());
      ui::text_wrapped(i18n::tr("Not changed: %s"), globals_error_.c_str());
      ImGui::PopStyleColor();
    }
  }

  // The expression field. Every keystroke that leaves a valid mask applies it (one undo step
  // while typing); an invalid one changes nothing: the last valid mask stays computed and
  // shown, and the error is written under the field with a caret at its column.
  void draw_expression(ui::UiContext& ui) {
    const MaskSetting& mask = ui.document.scenario().mask;
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(i18n::tr("Expression"));
    ImGui::SameLine();
    draw_pattern_menu(ui);
    ImGui::SetNextItemWidth(-1.0f);
    const bool edited =
        ImGui::InputTextWithHint("##expression", i18n::tr("e.g. k <= q && (k < 4 || q - k <= 8)"), &expression_text_);
    typing_expression_ = ImGui::IsItemActive();
    const ImVec2 field_min = ImGui::GetItemRectMin();
    const ImGuiID field_id = ImGui::GetItemID();
    if (ImGui::IsItemHovered() && !typing_expression_) {
      ImGui::SetTooltip("%s",
                        i18n::tr("A condition over q (query), k (key), h (head), n, m (counts): + - * / % (floor\n"
                                 "division, as Python), < <= > >= == !=, && || !, abs min max, doc(i), global(i).\n"
                                 "ANDed with Causal and Window above. Empty: no expression."));
    }
    if (ImGui::IsItemDeactivated()) ui.document.end_merge();
    if (edited) {
      MaskSetting next = edits::set_expression(mask, expression_text_);
      expression_error_ = check(next);
      if (!expression_error_) apply_mask(ui, next, i18n::tr("Mask expression"), "mask-expression");
    }
    window::widget_log::annotate(field_id, "error", expression_error_.has_value());  // tests read it
    // While the user types, the lines under the field keep the height of the tallest error
    // so far: errors come and go with each keystroke, and a column scrolled to its end would
    // otherwise be pulled back each time one went, moving the field under the caret.
    const float errors_top = ImGui::GetCursorPosY();
    if (expression_error_) draw_expression_error(field_min);
    if (!typing_expression_) {
      error_lines_height_ = 0.0f;
      return;
    }
    error_lines_height_ = std::max(error_lines_height_, ImGui::GetCursorPosY() - errors_top);
    if (ImGui::GetCursorPosY() < errors_top + error_lines_height_)
      ImGui::SetCursorPosY(errors_top + error_lines_height_);
  }

  // The error under the expression field, with a caret under the character to blame.
  void draw_expression_error(ImVec2 field_min) {
    const std::string& text = expression_text_;
    const std::size_t offset = byte_offset(text, expression_error_->column);
    // The field's text starts after its padding.
    const float x =
        field_min.x + ImGui::GetStyle().FramePadding.x + ImGui::CalcTextSize(text.c_str(), text.c_str() + offset).x;
    ImGui::PushStyleColor(ImGuiCol_Text, ui::palette::error_text());
    ImGui::SetCursorScreenPos(ImVec2(x - ImGui::CalcTextSize("^").x * 0.5f, ImGui::GetCursorScreenPos().y));
    ImGui::TextUnformatted("^");
    ui::text_wrapped(i18n::tr("Not applied: %s"), expression_error_->message.c_str());
    ImGui::PopStyleColor();
    ImGui::TextDisabled("%s", i18n::tr("(the mask shown is the last valid one)"));
  }

  void draw_pattern_menu(ui::UiContext& ui) {
    ImGui::SetNextItemWidth(-1.0f);
    if (!ImGui::BeginCombo("##pattern", i18n::tr("insert a pattern"))) return;
    for (const edits::NamedPattern& pattern : edits::named_patterns(static_cast<int>(tokens().size()))) {
      // Its ID the expression, the same in every language (the name is translated).
      if (ImGui::Selectable((pattern.name + "###" + pattern.expression).c_str())) {
        const MaskSetting next = edits::apply_pattern(ui.document.scenario().mask, pattern, tokens());
        expression_text_ = next.expression;
        expression_error_ = check(next);
        if (!expression_error_) apply_mask(ui, next, i18n::format(i18n::tr("Mask pattern: %s"), pattern.name.c_str()));
      }
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s\n%s", pattern.expression.c_str(), pattern.description.c_str());
    }
    ImGui::EndCombo();
  }

  // The documents doc(i) reads: each one's first token.
  void draw_documents(ui::UiContext& ui) {
    const MaskSetting& mask = ui.document.scenario().mask;
    if (!has_expression(mask) && mask.documents.empty() && expression_text_.find("doc") == std::string::npos) return;
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(i18n::tr("Documents start at"));
    ImGui::SameLine();
    ImGui::SetNextItemWidth(-1.0f);
    ImGui::InputTextWithHint("##documents", i18n::tr("e.g. 0, 7"), &documents_text_);
    typing_documents_ = ImGui::IsItemActive();
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("%s", i18n::tr("doc(i) is the document token i belongs to: give each document's first token."));
    if (!ImGui::IsItemDeactivatedAfterEdit()) {
      if (!documents_error_.empty())
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(ui::palette::error_text()), i18n::tr("Not changed: %s"),
                           documents_error_.c_str());
      return;
    }
    const edits::ParsedGlobals parsed =
        edits::parse_global_list(documents_text_, static_cast<int>(std::max(tokens().size(), source_tokens().size())));
    if (!parsed.indices) {
      documents_error_ = parsed.error;
      return;
    }
    MaskSetting next = mask;
    next.documents = *parsed.indices;
    const std::optional<ExpressionProblem> problem = check(next);
    documents_error_ = problem ? problem->message : "";
    if (!problem)
      apply_mask(ui, next, i18n::format(i18n::tr("Documents %s"), edits::format_global_list(next.documents).c_str()));
    documents_text_ = edits::format_global_list(next.documents);
  }

  // The block-sparsity tiles on every heatmap with a mask (the frame loop hands ui.view.block_size
  // to the heatmaps).
  void draw_blocks_option(ui::UiContext& ui) {
    bool tiles = ui.view.block_size > 0;
    if (ImGui::Checkbox(i18n::tr_label("Tiles").c_str(), &tiles))
      ui.view.block_size = tiles ? std::max(last_block_size_, 1) : 0;
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip("%s", i18n::tr("Block sparsity: every B \xC3\x97 B tile of the mask is empty (shaded: a kernel "
                                       "skips it),\npartial (amber) or full (green), on every heatmap"));
    }
    if (ui.view.block_size > 0) {
      ImGui::SameLine();
      int size = ui.view.block_size;
      ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6.0f);
      // "B": the tile's side, as the tooltip names it (not translated)
      const char* block_label = "B##block";  // not translated
      if (ImGui::InputInt(block_label, &size, 1, 16)) ui.view.block_size = std::clamp(size, 1, 4096);
      last_block_size_ = ui.view.block_size;
      ImGui::SameLine();
      for (const int preset : {16, 32, 64, 128}) {
        ImGui::SameLine();
        if (ImGui::SmallButton(std::to_string(preset).c_str())) ui.view.block_size = last_block_size_ = preset;
      }
    }
  }

  struct ExpressionProblem {
    int column = 1;
    std::string message;
  };

  // What build_problem would say about the mask (the expression's column, documents out of
  // range), or nothing when it is valid.
  [[nodiscard]] std::optional<ExpressionProblem> check(const MaskSetting& mask) const {
    try {
      const char* origin = "<gui>";  // not translated: an origin
      check_mask_expression(mask, origin);
      check_document_starts(mask, static_cast<int>(tokens().size()), static_cast<int>(source_tokens().size()), origin);
    } catch (const InputError& error) {
      ExpressionProblem problem;
      problem.message = error.pointer() + ": " + error.problem();
      // "column C: ..." from the expression's parser.
      const bool at_column = error.problem().rfind("column ", 0) == 0;  // not translated: the parser's words
      if (error.pointer() == "/mask/expression" && at_column) {
        problem.column = std::max(1, std::atoi(error.problem().c_str() + 7));
        problem.message = error.problem();
      }
      return problem;
    }
    return std::nullopt;
  }

  // The byte offset of 1-based column `column` (counted in code points) in `text`.
  static std::size_t byte_offset(const std::string& text, int column) {
    std::size_t offset = 0;
    for (int c = 1; c < column && offset < text.size(); ++c) {
      ++offset;
      while (offset < text.size() && (static_cast<unsigned char>(text[offset]) & 0xC0) == 0x80) ++offset;
    }
    return std::min(offset, text.size());
  }

  void draw_preview(ui::UiContext& ui) {
    if (preview_.empty()) return;
    const Scenario& s = ui.document.scenario();
    heatmap::HeatmapSpec spec;
    spec.source.host = &preview_;
    spec.source.version = preview_version_;
    spec.range_min = 0.0f;
    spec.range_max = 1.0f;
    spec.colormap = heatmap::Colormap::Blues;
    spec.mask = &s.mask;
    spec.mask_head = ui.view.selected_head;
    spec.mask_heads = s.num_heads;
    spec.numbers = false;
    spec.row_labels = &row_labels_;
    spec.col_labels = &col_labels_;
    const float avail = ImGui::GetContentRegionAvail().x;
    const float max_label = ImGui::GetFontSize() * 4.0f;
    spec.row_label_width = heatmap::HeatmapWidget::row_label_width(row_labels_, max_label);
    const float side = std::clamp(avail - spec.row_label_width, 80.0f, ImGui::GetFontSize() * 14.0f);
    spec.cells_width = side;
    spec.cells_height = side * static_cast<float>(preview_.rows) / static_cast<float>(preview_.cols);
    spec.cells_height = std::clamp(spec.cells_height, 40.0f, side * 1.5f);
    spec.col_label_height = heatmap::HeatmapWidget::col_label_height(
        col_labels_, spec.cells_width / static_cast<float>(preview_.cols), max_label);
    spec.highlight_token = ui.view.hovered_token;
    const heatmap::HeatmapHover hover = ui.heatmaps.draw("##mask", spec);
    if (hover.row >= 0 && hover.col < 0) ui.view.hovered_token_next = hover.row;
    if (hover.col >= 0 && hover.row < 0) ui.view.hovered_token_next = hover.col;
    if (hover.hovered) {
      ui.view.hovered_token_next = hover.row;
      ImGui::SetTooltip(
          i18n::tr("query %s \xE2\x80\x9C%s\xE2\x80\x9D \xE2\x86\x92 key %s \xE2\x80\x9C%s\xE2\x80\x9D: %s"),
          format_grouped(hover.row).c_str(), row_labels_[static_cast<std::size_t>(hover.row)].c_str(),
          format_grouped(hover.col).c_str(), col_labels_[static_cast<std::size_t>(hover.col)].c_str(),
          preview_mask(s).visible(ui.view.selected_head, hover.row, hover.col) ? i18n::tr("visible")
                                                                               : i18n::tr("masked"));
    }
    // Wrapped: the panel is narrow on a 1280-pixel projector.
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetColorU32(ImGuiCol_TextDisabled));
    ui::text_wrapped("%s", i18n::tr("rows: queries, columns: keys; hatched = masked"));
    if (static_cast<int>(tokens().size()) > kMaxPreviewTokens) {
      ui::text_lines(i18n::format(
          i18n::trn("showing the first %s of %s token", "showing the first %s of %s tokens", tokens().size()),
          format_grouped(kMaxPreviewTokens).c_str(), format_grouped(static_cast<long long>(tokens().size())).c_str()));
    }
    ImGui::PopStyleColor();
  }

  // The mask the preview shows, made once per revision (an expression's runs cost a bisection).
  const Mask& preview_mask(const Scenario& s) {
    if (preview_mask_revision_ != seen_revision_ || preview_mask_.rows() != preview_.rows ||
        preview_mask_.cols() != preview_.cols) {
      preview_mask_ = Mask(s.mask, preview_.rows, preview_.cols, s.num_heads);
      preview_mask_revision_ = seen_revision_;
    }
    return preview_mask_;
  }

  std::uint64_t seen_revision_ = 0;
  Mask preview_mask_;
  std::uint64_t preview_mask_revision_ = ~std::uint64_t{0};
  std::string expression_text_;
  std::string synced_expression_;
  std::optional<ExpressionProblem> expression_error_;
  bool typing_expression_ = false;
  float error_lines_height_ = 0.0f;  // the tallest error under the field while it is typed in
  std::string documents_text_;
  std::string documents_error_;
  bool typing_documents_ = false;
  int last_block_size_ = 16;
  std::shared_ptr<const ScenarioTokens> text_ = std::make_shared<const ScenarioTokens>();
  [[nodiscard]] const std::vector<std::string>& tokens() const { return text_->queries.tokens; }
  [[nodiscard]] const std::vector<std::string>& source_tokens() const {
    return text_->source ? text_->source->tokens : text_->queries.tokens;
  }
  std::vector<std::string> row_labels_;
  std::vector<std::string> col_labels_;
  Matrix preview_;
  std::uint64_t preview_version_ = 0;
  std::string globals_text_;
  std::string globals_error_;
  bool typing_globals_ = false;
};

}  // namespace

std::unique_ptr<ui::Panel> make_mask_panel() { return std::make_unique<MaskPanel>(); }

}  // namespace attnviz::panels
