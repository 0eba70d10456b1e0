// Matrices panel: the embeddings X and the weights W_Q, W_K, W_V (and W_O), with each head's
// slice tinted in its own colour. Up to 16 × 16 an editable grid (drag a number sideways, or
// click it and type); larger matrices as a heatmap (click a cell to type its value).
// Tools: randomise (seed), scale, zero, identity, back to generated. A typed value that is not
// a finite number is refused in place with the reason.

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <string>

#include "app/i18n/translate.h"
#include "app/document/document.h"
#include "app/edits/matrix_edits.h"
#include "app/edits/sentence_edits.h"
#include "app/heatmap/axis_math.h"
#include "app/heatmap/heatmap_overlay.h"
#include "app/heatmap/heatmap_widget.h"
#include "app/panels/panels.h"
#include "app/ui/palette.h"
#include "app/ui/text_lines.h"
#include "app/ui/view_state.h"
#include "core/common/error.h"
#include "core/common/float_text.h"
#include "core/scenario/problem.h"

namespace attnviz::panels {
namespace {

using edits::MatrixId;

constexpr int kMaxGrid = 16;  // larger matrices are shown as heatmaps
constexpr std::array kMatrices = {MatrixId::X,  MatrixId::XSource, MatrixId::WQ,
                                  MatrixId::WK, MatrixId::WV,      MatrixId::WO};

struct Cell {
  MatrixId id = MatrixId::X;
  int row = -1;
  int col = -1;
  friend bool operator==(const Cell&, const Cell&) = default;
};

std::string cell_name(const Cell& c) {
  return std::string(edits::matrix_name(c.id)) + "[" + std::to_string(c.row) + "][" + std::to_string(c.col) + "]";
}

class MatricesPanel final : public ui::Panel {
 public:
  [[nodiscard]] const char* title() const override { return N_("Matrices"); }
  [[nodiscard]] ui::PanelArea area() const override { return ui::PanelArea::Inputs; }

  void draw(ui::UiContext& ui) override {
    resolve(ui);
    if (!problem_) {
      ImGui::PushStyleColor(ImGuiCol_Text, ui::palette::error_text());
      ui::text_wrapped(i18n::tr("The matrices cannot be built: %s"), resolve_error_.c_str());
      ImGui::PopStyleColor();
      return;
    }
    if (!ImGui::BeginTabBar("##matrices")) return;
    for (const MatrixId id : kMatrices) {
      const Matrix* m = resolved(id);
      if (m == nullptr) continue;
      if (ImGui::BeginTabItem(edits::matrix_name(id))) {
        draw_matrix(ui, id, *m);
        ImGui::EndTabItem();
      }
    }
    ImGui::EndTabBar();
  }

 private:
  // The matrices as the core resolves them (explicit or generated): the compute session's
  // Problem when it is of the current revision (the usual case: it recomputed at the start of
  // the frame), else resolved here once per revision (an edit earlier in this frame, or a
  // scenario the session could not compute).
  void resolve(const ui::UiContext& ui) {
    const std::uint64_t revision = ui.document.revision();
    if (ui.session.has_result() && ui.session.problem_revision() == revision) {
      problem_ = &ui.session.problem();
      resolve_error_.clear();
      return;
    }
    if (revision != resolved_revision_) {
      resolved_revision_ = revision;
      try {
        own_problem_ = build_problem(ui.document.scenario(), "<gui>");  // not translated: an origin
        resolve_error_.clear();
      } catch (const InputError& e) {
        own_problem_.reset();
        resolve_error_ = e.message_for("<gui>");  // not translated: an origin
      } catch (const std::exception& e) {
        own_problem_.reset();
        resolve_error_ = e.what();
      }
    }
    problem_ = own_problem_ ? &*own_problem_ : nullptr;
  }

  [[nodiscard]] const Matrix* resolved(MatrixId id) const {
    switch (id) {
      case MatrixId::X: return &problem_->x;
      case MatrixId::XSource: return problem_->cross_attention ? &problem_->xs : nullptr;
      case MatrixId::WQ: return &problem_->wq;
      case MatrixId::WK: return &problem_->wk;
      case MatrixId::WV: return &problem_->wv;
      case MatrixId::WO: return problem_->wo ? &*problem_->wo : nullptr;
    }
    return nullptr;
  }

  // Applies `change` to the explicit copy of matrix `id` (made from what is shown).
  template <typename Change>
  void edit_whole(ui::UiContext& ui, MatrixId id, const Matrix& shown, const std::string& label, Change change) {
    Scenario next = ui.document.scenario();
    change(edits::materialise(next, id, shown));
    ui.document.apply(std::move(next), label);
  }

  void draw_matrix(ui::UiContext& ui, MatrixId id, const Matrix& m) {
    draw_caption(ui, id, m);
    draw_tools(ui, id, m);
    if (m.rows <= kMaxGrid && m.cols <= kMaxGrid) {
      draw_grid(ui, id, m);
    } else {
      draw_heatmap(ui, id, m);
    }
    if (!refusal_.empty()) {
      ImGui::PushStyleColor(ImGuiCol_Text, ui::palette::error_text());
      ui::text_lines(refusal_);
      ImGui::PopStyleColor();
    }
  }

  void draw_caption(const ui::UiContext& ui, MatrixId id, const Matrix& m) const {
    const Scenario& s = ui.document.scenario();
    const bool is_explicit = edits::explicit_matrix(s, id) != nullptr;
    const char* shape = "";
    switch (id) {
      // TRANSLATORS: a matrix's shape; d_model, d_k, d_v, d_out are symbols, the words are not.
      case MatrixId::X: shape = i18n::tr("tokens \xC3\x97 d_model"); break;
      case MatrixId::XSource: shape = i18n::tr("source tokens \xC3\x97 d_model"); break;
      case MatrixId::WQ: shape = i18n::tr("d_model \xC3\x97 heads\u00B7d_k"); break;
      case MatrixId::WK: shape = i18n::tr("d_model \xC3\x97 kv heads\u00B7d_k"); break;
      case MatrixId::WV: shape = i18n::tr("d_model \xC3\x97 kv heads\u00B7d_v"); break;
      case MatrixId::WO: shape = i18n::tr("heads\u00B7d_v \xC3\x97 d_out"); break;
    }
    ui::text_wrapped("%s: %s = %d\xC3\x97%d \xC2\xB7 %s", edits::matrix_name(id), shape, m.rows, m.cols,
                     is_explicit ? i18n::tr("edited (saved in the scenario)") : i18n::tr("generated from the seed"));
  }

  // Continues the row of tools when a widget `width` wide still fits, else starts a new row.
  static void next_tool(float width) {
    const float right_edge = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    const float spacing = ImGui::GetStyle().ItemSpacing.x;
    if (edits::chip_fits_on_line(ImGui::GetItemRectMax().x, spacing, width, right_edge)) ImGui::SameLine();
  }
  static float button_width(const char* text) {
    return ImGui::CalcTextSize(text).x + ImGui::GetStyle().FramePadding.x * 2;
  }

  void draw_tools(ui::UiContext& ui, MatrixId id, const Matrix& m) {
    const std::string name = edits::matrix_name(id);
    const float field_w = ImGui::GetFontSize() * 3.2f;
    ImGui::BeginGroup();
    if (ImGui::Button(i18n::tr_label("Randomise").c_str())) {
      const std::uint64_t seed = random_seed_;
      edit_whole(
          ui, id, m,
          i18n::format(i18n::tr("Randomise %s (seed %llu)"), name.c_str(), static_cast<unsigned long long>(seed)),
          [&](Matrix& x) { x = edits::random_matrix(id, seed, x.rows, x.cols); });
      ++random_seed_;
    }
    ImGui::SameLine(0.0f, 2.0f);
    ImGui::SetNextItemWidth(field_w);
    ImGui::InputScalar("##random_seed", ImGuiDataType_U64, &random_seed_);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", i18n::tr("Seed of the next Randomise (counts up after each)"));
    ImGui::EndGroup();

    next_tool(button_width(i18n::tr("Scale \xC3\x97")) + 2.0f + field_w);
    ImGui::BeginGroup();
    if (ImGui::Button(i18n::tr_label("Scale \xC3\x97").c_str())) {
      const float factor = scale_factor_;
      edit_whole(ui, id, m, i18n::format(i18n::tr("Scale %s \xC3\x97 %s"), name.c_str(), format_float(factor).c_str()),
                 [&](Matrix& x) { edits::scale_matrix(x, factor); });
    }
    ImGui::SameLine(0.0f, 2.0f);
    ImGui::SetNextItemWidth(field_w);
    ImGui::InputFloat("##scale_factor", &scale_factor_, 0.0f, 0.0f, "%g");
    if (!std::isfinite(scale_factor_)) scale_factor_ = 1.0f;
    ImGui::EndGroup();

    next_tool(button_width(i18n::tr("Zero")));
    if (ImGui::Button(i18n::tr_label("Zero").c_str())) {
      edit_whole(ui, id, m, i18n::format(i18n::tr("Zero %s"), name.c_str()), [](Matrix& x) { edits::zero_matrix(x); });
    }
    next_tool(button_width(i18n::tr("Identity")));
    if (ImGui::Button(i18n::tr_label("Identity").c_str())) {
      edit_whole(ui, id, m, i18n::format(i18n::tr("Identity %s"), name.c_str()),
                 [](Matrix& x) { edits::identity_matrix(x); });
    }
    if (edits::explicit_matrix(ui.document.scenario(), id) != nullptr) {
      next_tool(button_width(i18n::tr("From seed")));
      if (ImGui::Button(i18n::tr_label("From seed").c_str())) {
        Scenario next = ui.document.scenario();
        forget(next, id);
        ui.document.apply(std::move(next), i18n::format(i18n::tr("%s from the seed"), name.c_str()));
      }
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip(i18n::tr("Drop the edits: generate %s from the seed again"), name.c_str());
    }
  }

  static void forget(Scenario& s, MatrixId id) {
    switch (id) {
      case MatrixId::X: s.embeddings.reset(); break;
      case MatrixId::XSource:
        if (s.source) s.source->embeddings.reset();
        break;
      case MatrixId::WQ: s.wq.reset(); break;
      case MatrixId::WK: s.wk.reset(); break;
      case MatrixId::WV: s.wv.reset(); break;
      case MatrixId::WO:
        if (s.wo) s.generate_wo = true;  // keep the output projection, generated
        s.wo.reset();
        break;
    }
  }

  // Labels of the rows (tokens for X) and the per-head slice of each column (or row, W_O).
  [[nodiscard]] std::string row_label(MatrixId id, int r) const {
    if (id == MatrixId::X && r < static_cast<int>(problem_->tokens.size()))
      return problem_->tokens[static_cast<std::size_t>(r)];
    if (id == MatrixId::XSource && r < static_cast<int>(problem_->source_tokens.size())) {
      return problem_->source_tokens[static_cast<std::size_t>(r)];
    }
    if (id == MatrixId::WO) return slice_label(id, r);
    return std::to_string(r);
  }
  [[nodiscard]] std::string slice_label(MatrixId id, int index) const {
    const edits::HeadSlice slice = edits::head_slice_of(id, index, problem_->d_k, problem_->d_v);
    const char* prefix =
        (id == MatrixId::WK || id == MatrixId::WV) && problem_->num_kv_heads != problem_->num_heads ? "kv" : "h";
    return prefix + std::to_string(slice.head) + "\xC2\xB7" + std::to_string(slice.offset);
  }
  [[nodiscard]] int head_of(MatrixId id, int index) const {
    if (edits::head_slice_size(id, problem_->d_k, problem_->d_v) == 0) return -1;
    return edits::head_slice_of(id, index, problem_->d_k, problem_->d_v).head;
  }

  void draw_grid(ui::UiContext& ui, MatrixId id, const Matrix& m) {
    const bool split_columns = edits::heads_split_columns(id);
    // Narrow frames so that a 16-column grid needs little scrolling in the inputs column.
    ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, ImVec2(3.0f * ui.ui_scale, ImGui::GetStyle().FramePadding.y));
    ImGui::PushStyleVar(ImGuiStyleVar_CellPadding, ImVec2(2.0f * ui.ui_scale, ImGui::GetStyle().CellPadding.y));
    const float cell_w = ImGui::CalcTextSize("-0.00").x + ImGui::GetStyle().FramePadding.x * 2;
    const bool token_rows = id == MatrixId::X || id == MatrixId::XSource;
    const float label_w = token_rows ? ImGui::GetFontSize() * 5.0f
                                     : ImGui::CalcTextSize(id == MatrixId::WO ? "h00\xC2\xB7"
                                                                                "00"
                                                                              : "000")
                                               .x +
                                           6.0f;
    const ImGuiTableFlags flags = ImGuiTableFlags_ScrollX | ImGuiTableFlags_SizingFixedFit |
                                  ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_NoPadOuterX;
    const ImGuiStyle& style = ImGui::GetStyle();
    const float row_h = ImGui::GetFrameHeight() + style.CellPadding.y * 2.0f;
    const float header_h = ImGui::GetTextLineHeight() + style.CellPadding.y * 2.0f;
    const float height = header_h + row_h * static_cast<float>(m.rows) + style.ScrollbarSize + 2.0f;
    if (!ImGui::BeginTable("##grid", m.cols + 1, flags, ImVec2(0.0f, height))) {
      ImGui::PopStyleVar(2);
      return;
    }
    ImGui::TableSetupScrollFreeze(1, 1);
    ImGui::TableSetupColumn("##rows", ImGuiTableColumnFlags_WidthFixed, label_w);
    for (int c = 0; c < m.cols; ++c) ImGui::TableSetupColumn(nullptr, ImGuiTableColumnFlags_WidthFixed, cell_w);

    // Header: the head slice of each column, tinted per head.
    ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
    ImGui::TableSetColumnIndex(0);
    ImGui::TextDisabled("%s", token_rows ? i18n::tr("token") : "");
    for (int c = 0; c < m.cols; ++c) {
      ImGui::TableSetColumnIndex(c + 1);
      const int head = split_columns ? head_of(id, c) : -1;
      if (head >= 0) ImGui::TableSetBgColor(ImGuiTableBgTarget_CellBg, ui::palette::head_tint(head));
      ImGui::TextUnformatted(head >= 0 ? slice_label(id, c).c_str() : std::to_string(c).c_str());
      if (head >= 0 && ImGui::IsItemHovered()) tooltip_slice(id, c);
    }

    for (int r = 0; r < m.rows; ++r) {
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      const int row_head = split_columns ? -1 : head_of(id, r);
      if (row_head >= 0) ImGui::TableSetBgColor(ImGuiTableBgTarget_CellBg, ui::palette::head_tint(row_head));
      if (token_rows && ui.view.hovered_token == r) {
        ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg0, 0x401f8cffu);  // the hovered token, faint orange
      }
      const std::string label = heatmap::ellipsize(ImGui::GetFont(), ImGui::GetFontSize(), row_label(id, r), label_w);
      ImGui::AlignTextToFramePadding();
      ImGui::TextUnformatted(label.c_str());
      if (ImGui::IsItemHovered()) {
        if (token_rows) ui.view.hovered_token_next = r;
        if (row_head >= 0)
          tooltip_slice(id, r);
        else if (token_rows)
          ImGui::SetTooltip(i18n::tr("token %d \xE2\x80\x9C%s\xE2\x80\x9D"), r, row_label(id, r).c_str());
      }
      for (int c = 0; c < m.cols; ++c) {
        ImGui::TableSetColumnIndex(c + 1);
        const int head = split_columns ? head_of(id, c) : row_head;
        if (head >= 0) ImGui::TableSetBgColor(ImGuiTableBgTarget_CellBg, ui::palette::head_tint(head));
        draw_cell(ui, Cell{id, r, c}, m);
      }
    }
    ImGui::EndTable();
    ImGui::PopStyleVar(2);
  }

  void tooltip_slice(MatrixId id, int index) const {
    const edits::HeadSlice slice = edits::head_slice_of(id, index, problem_->d_k, problem_->d_v);
    const int size = edits::head_slice_size(id, problem_->d_k, problem_->d_v);
    const bool kv = id == MatrixId::WK || id == MatrixId::WV;
    const bool rows = id == MatrixId::WO;
    if (kv && problem_->num_kv_heads != problem_->num_heads) {
      const int group = problem_->num_heads / problem_->num_kv_heads;
      ImGui::SetTooltip(rows ? i18n::tr("K/V head %d (used by query heads %d..%d), row %d of %d")
                             : i18n::tr("K/V head %d (used by query heads %d..%d), column %d of %d"),
                        slice.head, slice.head * group, slice.head * group + group - 1, slice.offset, size);
    } else {
      ImGui::SetTooltip(rows ? i18n::tr("head %d, row %d of %d") : i18n::tr("head %d, column %d of %d"), slice.head,
                        slice.offset, size);
    }
  }

  // One number: drag to change it, click it (without dragging) to type it. A click rather than
  // a double-click, so typing works at any frame rate (software rendering is slow).
  void draw_cell(ui::UiContext& ui, const Cell& cell, const Matrix& m) {
    ImGui::PushID(cell.row * 4096 + cell.col);
    ImGui::SetNextItemWidth(-FLT_MIN);
    if (editing_ && editing_->cell == cell) {
      draw_typing(ui, m);
      ImGui::PopID();
      return;
    }
    float value = m.at(cell.row, cell.col);
    const float speed = std::max(0.005f, std::fabs(value) * 0.01f);
    if (ImGui::DragFloat("##v", &value, speed, 0.0f, 0.0f, "%.2f", ImGuiSliderFlags_NoInput)) {
      set_value(ui, cell, m, value, "drag:" + cell_name(cell));
    }
    if (ImGui::IsItemDeactivated()) {
      ui.document.end_merge();
      const ImGuiIO& io = ImGui::GetIO();
      const bool dragged = io.MouseDragMaxDistanceSqr[0] >= io.MouseDragThreshold * io.MouseDragThreshold;
      if (!dragged && ImGui::IsItemHovered()) start_typing(cell, m.at(cell.row, cell.col));
    }
    if (ImGui::IsItemHovered() && !ImGui::IsItemActive()) {
      ImGui::SetTooltip(i18n::tr("%s = %s\nDrag sideways to change it, click to type a value"), cell_name(cell).c_str(),
                        format_float(value).c_str());
    }
    ImGui::PopID();
  }

  void start_typing(const Cell& cell, float value) {
    editing_ = Typing{cell, format_float(value), true};
    refusal_.clear();
  }

  // The text field of the cell being typed. Enter or clicking away takes a finite number;
  // anything else is refused with the reason and the field stays open; Escape cancels.
  void draw_typing(ui::UiContext& ui, const Matrix& m) {
    if (editing_->focus) {
      ImGui::SetKeyboardFocusHere();
      editing_->focus = false;
    }
    const bool refused = !refusal_.empty();
    if (refused) {
      ImGui::PushStyleColor(ImGuiCol_Border, ui::palette::error_text());
      ImGui::PushStyleVar(ImGuiStyleVar_FrameBorderSize, 2.0f);
    }
    ImGui::InputText("##type", &editing_->text, ImGuiInputTextFlags_AutoSelectAll);
    if (refused) {
      ImGui::PopStyleVar();
      ImGui::PopStyleColor();
    }
    if (!ImGui::IsItemDeactivated()) return;
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) {
      editing_.reset();
      refusal_.clear();
      return;
    }
    const bool by_enter = ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter)) ||
                          ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_KeyPadEnter));
    commit_typing(ui, m, by_enter);
  }

  void commit_typing(ui::UiContext& ui, const Matrix& m, bool keep_focus) {
    const Cell cell = editing_->cell;
    const edits::ParsedValue parsed = edits::parse_cell_value(editing_->text);
    if (!parsed.value) {
      refusal_ = i18n::format(i18n::tr("%s not changed: %s"), cell_name(cell).c_str(), parsed.error.c_str());
      editing_->focus = keep_focus;  // the field stays open to be corrected
      return;
    }
    editing_.reset();
    set_value(ui, cell, m, *parsed.value, "");
  }

  void set_value(ui::UiContext& ui, const Cell& cell, const Matrix& m, float value, const std::string& merge_key) {
    Scenario next = ui.document.scenario();
    const std::string error = edits::set_cell(next, cell.id, m, cell.row, cell.col, value);
    if (!error.empty()) {
      refusal_ = error;
      return;
    }
    refusal_.clear();
    ui.document.apply(std::move(next), i18n::format(i18n::tr("Edit %s"), cell_name(cell).c_str()), merge_key);
  }

  // Larger matrices: a heatmap (diverging, centred on 0) with the head slices marked; click a
  // cell to type its value below.
  void draw_heatmap(ui::UiContext& ui, MatrixId id, const Matrix& m) {
    const std::size_t slot = static_cast<std::size_t>(id);
    float extent = 0.0f;
    for (const float v : m.data) extent = std::max(extent, std::fabs(v));
    if (!(extent > 0.0f)) extent = 1.0f;

    const bool token_rows = id == MatrixId::X || id == MatrixId::XSource;
    row_labels_.clear();
    if (token_rows) {
      for (int r = 0; r < m.rows; ++r) row_labels_.push_back(row_label(id, r));
    }
    heatmap::HeatmapSpec spec;
    spec.source.host = &m;
    spec.source.version = ui.document.revision();
    spec.values = &m;
    spec.range_min = -extent;
    spec.range_max = extent;
    spec.colormap = heatmap::Colormap::RedBlue;
    spec.row_labels = token_rows ? &row_labels_ : nullptr;
    spec.row_label_width =
        token_rows ? heatmap::HeatmapWidget::row_label_width(row_labels_, ImGui::GetFontSize() * 5.0f) : 0.0f;
    const float avail = ImGui::GetContentRegionAvail().x;
    spec.cells_width = std::max(avail - spec.row_label_width, 60.0f);
    // Square cells when that is tall enough; token rows get room for readable labels.
    const float readable = token_rows ? static_cast<float>(std::min(m.rows, 16)) * ImGui::GetTextLineHeight() : 0.0f;
    spec.cells_height =
        std::clamp(std::max(spec.cells_width * static_cast<float>(m.rows) / static_cast<float>(m.cols), readable),
                   60.0f, ImGui::GetFontSize() * 20.0f);
    spec.zoom = &zoom_[slot];
    // Numbers only when every cell can hold one (else a few short ones like "0" look stray).
    const heatmap::CellWindow shown = heatmap::clamp_window(zoom_[slot], m.rows, m.cols);
    spec.numbers = spec.cells_width / shown.cols >= ImGui::CalcTextSize("-0.00").x;
    spec.highlight_token = token_rows ? ui.view.hovered_token : -1;
    spec.pinned_row = selected_ && selected_->id == id ? selected_->row : -1;

    const bool has_heads = edits::head_slice_size(id, problem_->d_k, problem_->d_v) > 0;
    const float band_h = has_heads ? ImGui::GetTextLineHeight() + 2.0f : 0.0f;
    const ImVec2 band_origin = ImGui::GetCursorScreenPos();
    if (has_heads) ImGui::Dummy(ImVec2(avail, band_h));  // the head band above the cells
    const heatmap::HeatmapHover hover = ui.heatmaps.draw("##matrix", spec);
    draw_head_band(id, m, spec, band_origin, band_h);

    if (hover.hovered) {
      const Cell cell{id, hover.row, hover.col};
      if (token_rows) ui.view.hovered_token_next = hover.row;
      const int sliced = edits::heads_split_columns(id) ? hover.col : hover.row;
      const std::string slice = head_of(id, sliced) >= 0 ? "  (" + slice_label(id, sliced) + ")" : "";
      ImGui::SetTooltip(i18n::tr("%s = %s%s\nClick to type a new value"), cell_name(cell).c_str(),
                        format_float(m.at(hover.row, hover.col)).c_str(), slice.c_str());
    }
    if (hover.clicked && hover.row >= 0 && hover.col >= 0) {
      selected_ = Cell{id, hover.row, hover.col};
      start_typing(*selected_, m.at(hover.row, hover.col));
    }
    ui.heatmaps.colorbar(heatmap::Colormap::RedBlue, -extent, extent, std::min(avail, 260.0f), i18n::tr("value"));
    draw_selected_cell(ui, id, m);
  }

  // Head slices over a heatmap: a coloured band with "h0", "h1", ... over each head's columns
  // (rows for W_O, drawn at the left edge), following zoom and pan.
  void draw_head_band(MatrixId id, const Matrix& m, const heatmap::HeatmapSpec& spec, ImVec2 band_origin,
                      float band_h) const {
    const int size = edits::head_slice_size(id, problem_->d_k, problem_->d_v);
    if (size <= 0) return;
    const bool columns = edits::heads_split_columns(id);
    const heatmap::CellWindow w = heatmap::clamp_window(*spec.zoom, m.rows, m.cols);
    const float x0 = band_origin.x + spec.row_label_width;
    const float y0 = band_origin.y + band_h + spec.col_label_height;
    const float cell_w = spec.cells_width / w.cols;
    const float cell_h = spec.cells_height / w.rows;
    ImDrawList* list = ImGui::GetWindowDrawList();
    const int count = (columns ? m.cols : m.rows) / size;
    for (int h = 0; h < count; ++h) {
      const float start = static_cast<float>(h * size) - (columns ? w.first_col : w.first_row);
      const float end = start + static_cast<float>(size);
      const float visible = columns ? w.cols : w.rows;
      if (end <= 0.0f || start >= visible) continue;
      const float a = std::max(start, 0.0f);
      const float b = std::min(end, visible);
      if (columns) {
        const ImVec2 p0(x0 + a * cell_w, band_origin.y);
        const ImVec2 p1(x0 + b * cell_w, band_origin.y + band_h - 1.0f);
        list->AddRectFilled(p0, p1, ui::palette::head_tint(h));
        list->AddLine(ImVec2(p0.x, p1.y), ImVec2(p1.x, p1.y), ui::palette::head_strong(h), 2.0f);
        const std::string text = std::string(id == MatrixId::WQ || num_kv_same() ? "h" : "kv") + std::to_string(h);
        if (ImGui::CalcTextSize(text.c_str()).x < p1.x - p0.x - 2.0f) {
          list->AddText(ImVec2(p0.x + 2.0f, p0.y), ImGui::GetColorU32(ImGuiCol_Text), text.c_str());
        }
        if (h > 0 && start > 0.0f) {
          list->AddLine(ImVec2(p0.x, y0), ImVec2(p0.x, y0 + spec.cells_height), ui::palette::head_strong(h), 1.5f);
        }
      } else {
        const float yy0 = y0 + a * cell_h;
        const float yy1 = y0 + b * cell_h;
        list->AddRectFilled(ImVec2(x0 - 5.0f, yy0), ImVec2(x0 - 1.0f, yy1), ui::palette::head_strong(h));
        if (h > 0 && start > 0.0f) {
          list->AddLine(ImVec2(x0, yy0), ImVec2(x0 + spec.cells_width, yy0), ui::palette::head_strong(h), 1.5f);
        }
      }
    }
  }

  [[nodiscard]] bool num_kv_same() const { return problem_->num_kv_heads == problem_->num_heads; }

  void draw_selected_cell(ui::UiContext& ui, MatrixId id, const Matrix& m) {
    if (!selected_ || selected_->id != id || selected_->row >= m.rows || selected_->col >= m.cols) return;
    ImGui::AlignTextToFramePadding();
    ImGui::Text("%s =", cell_name(*selected_).c_str());
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7.0f);
    if (editing_ && editing_->cell == *selected_) {
      draw_typing(ui, m);
    } else {
      ImGui::TextUnformatted(format_float(m.at(selected_->row, selected_->col)).c_str());
      ImGui::SameLine();
      if (ImGui::SmallButton(i18n::tr_label("Edit").c_str()))
        start_typing(*selected_, m.at(selected_->row, selected_->col));
    }
  }

  struct Typing {
    Cell cell;
    std::string text;
    bool focus = false;
  };

  const Problem* problem_ = nullptr;    // what resolve() chose for this frame
  std::optional<Problem> own_problem_;  // resolved here when the session's is stale
  std::string resolve_error_;
  std::uint64_t resolved_revision_ = 0;
  std::optional<Typing> editing_;
  std::optional<Cell> selected_;  // heatmap mode: the clicked cell
  std::string refusal_;           // why the last typed value was refused
  std::uint64_t random_seed_ = 1;
  float scale_factor_ = 2.0f;
  // Zoom and pan per matrix; rows = 0: the whole matrix.
  std::array<heatmap::CellWindow, kMatrices.size()> zoom_ = [] {
    std::array<heatmap::CellWindow, kMatrices.size()> all{};
    all.fill(heatmap::CellWindow{0.0f, 0.0f, 0.0f, 0.0f});
    return all;
  }();
  std::vector<std::string> row_labels_;
};

}  // namespace

std::unique_ptr<ui::Panel> make_matrices_panel() { return std::make_unique<MatricesPanel>(); }

}  // namespace attnviz::panels
