// The Tiled view: the scenario's attention computed as FlashAttention-2 does it (core/tiled),
// one tile at a time. The score matrix of the selected head is cut into Br × Bc tiles (the
// tiles still to come washed out, the ones the mask hides entirely marked skipped, the
// current one in gold); beside it, the current query block's running m and l before and after
// the tile, the rescale factors, O before and after, and O / l against the dense result; under
// it, what the dense and the tiled computation hold in memory.
//
// The trace is run once per (result, head, Br, Bc) on the CPU; stepping only reads it.

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/classroom/draw_helpers.h"
#include "app/classroom/production_views.h"
#include "app/classroom/tiled_view_parts.h"
#include "app/classroom/view_steps.h"
#include "app/classroom/view_widgets.h"
#include "app/compute/compute_session.h"
#include "app/heatmap/heatmap_overlay.h"
#include "app/heatmap/heatmap_widget.h"
#include "app/i18n/translate.h"
#include "app/ui/classroom_state.h"
#include "app/ui/model_layer.h"
#include "app/ui/text_lines.h"
#include "app/ui/view_state.h"
#include "core/attention/mask.h"
#include "core/common/number_text.h"
#include "core/tiled/tiled_attention.h"

namespace attnviz::classroom {
namespace {

// The view keeps the trace of one head in memory: beyond this many numbers (tiny tiles over
// a long sentence) it asks for larger tiles instead.
constexpr std::int64_t kMaxTraceFloats = std::int64_t{1} << 23;

struct TraceKey {
  std::uint64_t generation = 0;
  int head = -1, block_q = -1, block_k = -1;
  friend bool operator==(const TraceKey&, const TraceKey&) = default;
};

struct ShownTile {
  int tile = -1;
  TraceKey key;
  tiled::TileStep step;
  std::uint64_t version = 0;
  heatmap::ValueRange o_range, context_range, difference_range;
  std::vector<std::string> row_tokens;
};

class TiledView final : public ui::Panel {
 public:
  explicit TiledView(ViewStates& views) : views_(views) {}
  [[nodiscard]] const char* title() const override { return ui::tab_title(ui::MainView::Tiled); }
  [[nodiscard]] ui::PanelArea area() const override { return ui::PanelArea::Main; }
  void draw(ui::UiContext& ui) override;

 private:
  void draw_toolbar(ui::UiContext& ui, const tiled::TileGrid& grid);
  bool refresh(const TraceKey& key, const tiled::TileGrid& grid);
  void show_tile(const tiled::TileGrid& grid, int tile);
  void draw_header(const tiled::TileGrid& grid) const;
  CellsRect draw_scores(ui::UiContext& ui, const tiled::TileGrid& grid, float width, float height);
  void draw_details(ui::UiContext& ui, const tiled::TileGrid& grid, float width);
  void draw_outputs(ui::UiContext& ui, float width);

  ViewStates& views_;  // the tile sizes and the tile shown (the desktop's)
  // The scenario's attention, or a pretrained model's chosen layer (its real Q, K, V).
  ui::ShownAttention attention_;
  std::unique_ptr<tiled::TiledRunner> runner_ = tiled::make_cpu_tiled();
  TraceKey key_;
  std::optional<tiled::TiledTrace> trace_;
  std::string error_;
  double context_difference_ = 0.0;
  std::uint64_t scores_version_ = 0;
  heatmap::ValueRange scores_range_;
  ShownTile shown_;
};

heatmap::ValueRange symmetric_of(std::initializer_list<const Matrix*> matrices) {
  float largest = 0.0f;
  for (const Matrix* m : matrices)
    for (const float v : m->data) largest = std::max(largest, std::fabs(v));
  if (largest <= 0.0f) largest = 1.0f;
  return {-largest, largest};
}

bool TiledView::refresh(const TraceKey& key, const tiled::TileGrid& grid) {
  if (key == key_) return trace_.has_value();
  key_ = key;
  trace_.reset();
  error_.clear();
  shown_ = ShownTile{};
  const Problem& problem = attention_.problem();
  const std::int64_t floats = tiled::trace_floats(problem.n(), problem.m(), grid.block_q, grid.block_k, problem.d_v);
  if (floats > kMaxTraceFloats) {
    error_ = i18n::format(i18n::tr("Tiles of %s \xc3\x97 %s over %s \xc3\x97 %s scores make %s tiles, too many to step "
                                   "through here: choose larger tiles (Br, Bc above)."),
                          format_grouped(grid.block_q).c_str(), format_grouped(grid.block_k).c_str(),
                          format_grouped(problem.n()).c_str(), format_grouped(problem.m()).c_str(),
                          format_grouped(grid.tile_count()).c_str());
    return false;
  }
  try {
    tiled::TiledResult result = runner_->run(problem, {grid.block_q, grid.block_k, key.head});
    trace_ = std::move(result.trace);
    const Result& dense = attention_.result();
    context_difference_ = tiled::context_difference(*trace_, dense.heads[static_cast<std::size_t>(key.head)].context);
  } catch (const std::exception& e) {
    error_ = i18n::format(i18n::tr("The tiled computation failed: %s"), e.what());
    trace_.reset();
    return false;
  }
  const Result& dense = attention_.result();
  scores_range_ =
      heatmap::symmetric_range(dense.heads[static_cast<std::size_t>(key.head)].scores, problem.scale, &dense.mask);
  scores_version_ = fresh_upload_version();
  return true;
}

void TiledView::show_tile(const tiled::TileGrid& grid, int tile) {
  if (shown_.tile == tile && shown_.key == key_) return;
  const Result& dense = attention_.result();
  shown_.tile = tile;
  shown_.key = key_;
  shown_.step = tiled::tile_step(*trace_, grid, tile, dense.heads[static_cast<std::size_t>(key_.head)].context);
  shown_.version = fresh_upload_version();
  shown_.o_range = symmetric_of({&shown_.step.o_before, &shown_.step.o_after});
  shown_.context_range = symmetric_of({&shown_.step.running, &shown_.step.dense});
  // The difference on the context's own scale: rounding noise at the end stays white, not
  // coloured as if it mattered.
  shown_.difference_range = symmetric_of({&shown_.step.difference, &shown_.step.running, &shown_.step.dense});
  const std::vector<std::string>& tokens = attention_.problem().tokens;
  shown_.row_tokens.assign(tokens.begin() + shown_.step.row_begin, tokens.begin() + shown_.step.row_end);
}

void TiledView::draw(ui::UiContext& ui) {
  ui::ClassroomState& state = ui.classroom;
  state.shown = ui::MainView::Tiled;
  state.shown_frame = ImGui::GetFrameCount();
  state.shown_step = views_.tiled.tile;
  if (!attention_.update(ui)) {
    nothing_to_show(ui, i18n::tr("Nothing to show yet."));
    return;
  }
  const Problem& problem = attention_.problem();
  const int head = std::clamp(ui.view.selected_head, 0, problem.num_heads - 1);
  const tiled::TileGrid grid = tile_grid(views_.tiled, problem);
  Playback& playback = views_.tiled.playback;
  views_.tiled.tile = moved_step(views_.tiled.tile, 0, grid.tile_count());
  if (advance_playback(playback, views_.tiled.tile, grid.tile_count(), ImGui::GetTime()) || playback.playing)
    state.wants_frames = true;
  draw_toolbar(ui, grid);
  if (!refresh({attention_.version(), head, grid.block_q, grid.block_k}, grid)) {
    ImGui::PushTextWrapPos(0.0f);
    ui::text_lines(error_.c_str());
    ImGui::PopTextWrapPos();
    return;
  }
  show_tile(grid, views_.tiled.tile);

  ImGui::BeginChild("##tiled-page", ImGui::GetContentRegionAvail(), false);
  const float s = ui.ui_scale;
  const float page_w = ImGui::GetContentRegionAvail().x;
  const float page_h = ImGui::GetContentRegionAvail().y;
  draw_header(grid);
  const float gap = 24.0f * s;
  const float details_min = ImGui::GetFontSize() * 22.0f;
  // The scores get what the details column leaves (at most 55 % of the page), the height
  // under the header less a line for the block numbers.
  const float top = ImGui::GetCursorPosY();
  const float grid_room_w = std::max(page_w * 0.4f, std::min(page_w - details_min - gap, page_w * 0.55f));
  const float grid_room_h =
      std::max(page_h - top - ImGui::GetTextLineHeightWithSpacing() * 1.5f, ImGui::GetFontSize() * 12.0f);
  const ImVec2 start = ImGui::GetCursorPos();
  const CellsRect cells = draw_scores(ui, grid, grid_room_w, grid_room_h);
  const float grid_w =
      cells.x1 - (ImGui::GetWindowPos().x - ImGui::GetScrollX() + start.x) + ImGui::GetFontSize() * 2.5f;
  const bool beside = page_w - grid_w - gap >= details_min;
  ImGui::Spacing();
  draw_algorithm(beside ? grid_w : page_w);
  const float grid_bottom = ImGui::GetCursorPosY();
  if (beside) {
    ImGui::SetCursorPos(ImVec2(start.x + grid_w + gap, start.y));
    ImGui::BeginGroup();
    draw_details(ui, grid, page_w - grid_w - gap);
    ImGui::EndGroup();
    ImGui::SetCursorPosY(std::max(grid_bottom, ImGui::GetCursorPosY()) + ImGui::GetStyle().ItemSpacing.y);
  } else {
    ImGui::Spacing();
    draw_details(ui, grid, page_w);
  }
  ImGui::Separator();
  draw_memory_line(problem.n(), problem.m(), problem.d_v, grid, page_w);
  ImGui::EndChild();
}

// Br and Bc as number fields with − / + (any size from 1; a change starts at the first tile).
bool block_field(const char* label, const char* id, int& value, int shown, const char* tooltip) {
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(label);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tooltip);
  ImGui::SameLine();
  int edited = shown;
  ImGui::SetNextItemWidth(int_input_width(kMaxBlock));
  if (!ImGui::InputInt(id, &edited, 1, 4)) return false;
  edited = std::clamp(edited, 1, kMaxBlock);
  if (edited == shown) return false;
  value = edited;
  return true;
}

void TiledView::draw_toolbar(ui::UiContext& ui, const tiled::TileGrid& grid) {
  TiledViewState& state = views_.tiled;
  const Problem& problem = attention_.problem();
  step_toolbar(state.playback, state.tile, grid.tile_count(), i18n::tr("Tile %s of %s"));
  const float group_gap = 20.0f * ui.ui_scale;
  const float right = ImGui::GetCursorPosX() + ImGui::GetContentRegionAvail().x;
  const float symbol_w = ImGui::CalcTextSize("Br").x;  // not translated: a symbol
  const float fields_w = 2.0f * (symbol_w + int_input_width(kMaxBlock)) + 4.0f * ImGui::GetStyle().ItemSpacing.x;
  ImGui::SameLine(0.0f, group_gap);
  if (ImGui::GetCursorPosX() + fields_w > right) ImGui::NewLine();
  bool changed = block_field("Br", "##block-q", state.block_q, grid.block_q,  // not translated: the symbol Br
                             i18n::tr("Tile height: query rows per block (--block-q)"));
  ImGui::SameLine();
  changed |= block_field("Bc", "##block-k", state.block_k, grid.block_k,  // not translated: the symbol Bc
                         i18n::tr("Tile width: keys per block (--block-k)"));
  if (changed) {
    state.tile = 0;
    state.playback.playing = false;
  }
  if (attention_.model()) {  // a pretrained model's layer: the selector every view shares
    ImGui::SameLine(0.0f, group_gap);
    if (ImGui::GetCursorPosX() + ImGui::GetFontSize() * 16.0f > right) ImGui::NewLine();
    ui::draw_layer_selector(ui, "tiled");
  }
  head_pills(problem.num_heads, ui.view.selected_head, group_gap, right, 2000);
  ImGui::Separator();
}

void TiledView::draw_header(const tiled::TileGrid& grid) const {
  const std::string tiles = i18n::format(
      i18n::tr("Tiled attention (FlashAttention-2): %s \xc3\x97 %s tiles of Br \xc3\x97 Bc = %s \xc3\x97 %s"),
      format_grouped(grid.query_blocks()).c_str(), format_grouped(grid.key_blocks()).c_str(),
      format_grouped(grid.block_q).c_str(), format_grouped(grid.block_k).c_str());
  heading_text(attention_.model()
                   ? tiles + i18n::format(i18n::tr(", layer %s"), format_grouped(attention_.layer()).c_str())
                   : tiles);
}

CellsRect TiledView::draw_scores(ui::UiContext& ui, const tiled::TileGrid& grid, float width, float height) {
  const Problem& problem = attention_.problem();
  const Result& dense = attention_.result();
  const Matrix& scores = dense.heads[static_cast<std::size_t>(key_.head)].scores;
  const float s = ui.ui_scale;
  const float font = ImGui::GetFontSize();
  const float row_label_w = heatmap::HeatmapWidget::row_label_width(problem.tokens, 110.0f * s);
  const float caption_h = ImGui::GetTextLineHeightWithSpacing();
  // Cells as large as the room allows (square, at most 64 px a side at 1×): the column labels
  // take what they need for that size.
  const float block_labels = font * 1.2f;
  float cell = std::min((width - row_label_w - font * 2.5f) / static_cast<float>(grid.cols),
                        (height - caption_h - block_labels - font * 3.0f) / static_cast<float>(grid.rows));
  // The whole matrix on screen beside the details matters more than numbers in its cells:
  // they show when the cells have room for them (up to 24 × 24).
  const bool numbers = grid.rows <= heatmap::kMaxNumberedCells && grid.cols <= heatmap::kMaxNumberedCells;
  cell = std::max(3.0f, std::min(std::floor(cell), 64.0f * s));
  const float label_h = heatmap::HeatmapWidget::col_label_height(problem.source_tokens, cell, 100.0f * s);

  // The raw scores, shown scaled (value_scale) with the hidden cells hatched by the mask.
  ImGui::BeginGroup();
  const std::string caption =
      i18n::format(i18n::tr("S' = scale \xc2\xb7 Q\xc2\xb7K\xe1\xb5\x80, masked   (%s \xc3\x97 %s)"),
                   format_grouped(grid.rows).c_str(), format_grouped(grid.cols).c_str());
  ImGui::TextUnformatted(caption.c_str());
  heatmap::HeatmapSpec spec;
  spec.source.host = &scores;
  spec.source.version = scores_version_;
  spec.values = numbers ? &scores : nullptr;
  spec.numbers = numbers;
  spec.value_scale = problem.scale;
  spec.range_min = scores_range_.min;
  spec.range_max = scores_range_.max;
  spec.colormap = ui.view.scores_colormap;
  spec.mask = &problem.mask;
  spec.row_labels = &problem.tokens;
  spec.col_labels = &problem.source_tokens;
  spec.row_label_width = row_label_w;
  spec.col_label_height = label_h;
  spec.cells_width = cell * static_cast<float>(grid.cols);
  spec.cells_height = cell * static_cast<float>(grid.rows);
  spec.highlight_token = ui.view.hovered_token;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const heatmap::HeatmapHover hover = ui.heatmaps.draw("##tiled-scores", spec);
  CellsRect cells{origin.x + row_label_w, origin.y + label_h, origin.x + row_label_w + spec.cells_width,
                  origin.y + label_h + spec.cells_height};
  draw_tile_overlay(grid, *trace_, views_.tiled.tile, cells, s);
  ImGui::Dummy(ImVec2(0.0f, block_labels));
  ImGui::EndGroup();
  if (hover.hovered && hover.row >= 0 && hover.col >= 0) {
    const int qb = hover.row / grid.block_q;
    const int kb = hover.col / grid.block_k;
    const int tile = grid.tile_index(qb, kb);
    const bool skipped = trace_->tiles[static_cast<std::size_t>(tile)].skipped;
    const std::string where =
        i18n::format(skipped ? i18n::tr("tile %d (query block %d, key block %d): skipped, the mask hides all of it")
                             : i18n::tr("tile %d (query block %d, key block %d)"),
                     tile + 1, qb, kb);
    ImGui::SetTooltip("S'[%d, %d] = %.4g\n%s\n%s", hover.row, hover.col,
                      static_cast<double>(scores.at(hover.row, hover.col) * problem.scale), where.c_str(),
                      i18n::tr("click: go to this tile"));
    if (hover.clicked) {
      views_.tiled.tile = tile;
      views_.tiled.playback.playing = false;
    }
  }
  return cells;
}

const char* tile_status(const tiled::TileStep& step) {
  if (step.skipped)
    return i18n::tr(
        "skipped: the mask hides every cell of this tile, so nothing is computed (m, l and O stay as they were)");
  if (step.visibility == BlockVisibility::Partial)
    return i18n::tr("computed, masked inside: the hidden cells count as \xe2\x88\x92\xe2\x88\x9e");
  return i18n::tr("computed: every cell of this tile is visible");
}

// "row 3" or "rows 0–3" (keys likewise): one translated phrase for each, the numbers as arguments.
std::string rows_text(int begin, int end, bool keys) {
  if (end - begin == 1)
    return i18n::format(keys ? i18n::tr("key %s") : i18n::tr("row %s"), format_grouped(begin).c_str());
  return i18n::format(keys ? i18n::tr("keys %s\xe2\x80\x93%s") : i18n::tr("rows %s\xe2\x80\x93%s"),
                      format_grouped(begin).c_str(), format_grouped(end - 1).c_str());
}

void TiledView::draw_details(ui::UiContext& ui, const tiled::TileGrid& grid, float width) {
  const tiled::TileStep& step = shown_.step;
  const float wrap = ImGui::GetCursorPosX() + width;
  heading_text(i18n::format(i18n::tr("Tile %s of %s: query block %s \xc3\x97 key block %s"),
                            format_grouped(step.index + 1).c_str(), format_grouped(grid.tile_count()).c_str(),
                            format_grouped(step.qb).c_str(), format_grouped(step.kb).c_str()));
  ImGui::PushTextWrapPos(wrap);
  ui::text_lines(i18n::format(i18n::tr("%s against %s (%s \xc3\x97 %s)"),
                              rows_text(step.row_begin, step.row_end, false).c_str(),
                              rows_text(step.col_begin, step.col_end, true).c_str(),
                              format_grouped(step.row_end - step.row_begin).c_str(),
                              format_grouped(step.col_end - step.col_begin).c_str())
                     .c_str());
  ImGui::PushStyleColor(ImGuiCol_Text, step.skipped ? ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled)
                                                    : ImGui::GetStyleColorVec4(ImGuiCol_CheckMark));
  ImGui::TextUnformatted(tile_status(step));
  ImGui::PopStyleColor();
  ImGui::PopTextWrapPos();
  ImGui::Spacing();
  draw_row_states(step, attention_.problem().tokens, row_state_ranges(*trace_, grid, step.qb), width, ui.ui_scale);
  ImGui::Spacing();
  draw_outputs(ui, width);
}

void TiledView::draw_outputs(ui::UiContext& ui, float width) {
  const tiled::TileStep& step = shown_.step;
  const float s = ui.ui_scale;
  const float gap = 16.0f * s;
  const int d_v = step.o_after.cols;
  const float row_label_w = heatmap::HeatmapWidget::row_label_width(shown_.row_tokens, 90.0f * s);
  const bool numbers = d_v <= heatmap::kMaxNumberedCells && step.o_after.rows <= heatmap::kMaxNumberedCells;
  const float number_w = heatmap::number_cell("-0.00");
  // Cells wide enough for their numbers ("-0.02" too); the heatmaps flow left to right,
  // O before and after on one line, O / l, the dense rows and their difference on the next,
  // each wrapping under the other when the column is too narrow.
  const float fit = (width - 3.0f * row_label_w - 2.0f * gap) / (3.0f * static_cast<float>(d_v));
  const float cell_w = std::floor(std::max(numbers ? number_w : 6.0f, std::min(fit, number_w * 1.2f)));
  const float cell_h = std::floor(ImGui::GetFontSize() * 1.3f);
  const auto matrix = [&](const char* id, const std::string& caption, const Matrix& values, heatmap::ValueRange range) {
    SmallMatrix m;
    m.id = id;
    m.caption = caption;
    m.values = &values;
    m.version = shown_.version;
    m.range = range;
    m.colormap = ui.view.scores_colormap;
    m.row_labels = &shown_.row_tokens;
    m.row_label_w = row_label_w;
    m.cell_w = cell_w;
    m.cell_h = cell_h;
    m.numbers = numbers;
    return m;
  };
  const float right = ImGui::GetCursorPosX() + width;
  const auto flow = [&](const std::vector<SmallMatrix>& line) {
    for (std::size_t i = 0; i < line.size(); ++i) {
      if (i > 0) same_line_if_fits(small_matrix_width(line[i]) + gap, right - gap);
      (void)draw_small_matrix(ui, line[i]);
    }
  };
  const std::string shape = "  (" + format_grouped(step.o_after.rows) + " \xc3\x97 " + format_grouped(d_v) + ")";
  flow({matrix("##tiled-o-before", i18n::tr("O before") + shape, step.o_before, shown_.o_range),
        matrix("##tiled-o-after", i18n::tr("O after (not yet / l)"), step.o_after, shown_.o_range)});
  ImGui::Spacing();
  const std::string seen =
      i18n::format(i18n::tr("O / l: keys 0\xe2\x80\x93%s"), format_grouped(step.col_end - 1).c_str());
  flow({matrix("##tiled-running", seen, step.running, shown_.context_range),
        matrix("##tiled-dense", i18n::tr("dense softmax(S')\xc2\xb7V"), step.dense, shown_.context_range),
        matrix("##tiled-difference", i18n::tr("difference"), step.difference, shown_.difference_range)});
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width);
  char text[96];
  std::snprintf(text, sizeof text, "%.2e", step.max_abs_difference);
  if (step.last_of_block) {
    ImGui::TextUnformatted(
        i18n::format(
            i18n::tr(
                "Last tile of the block: O / l is the context. max |O/l \xe2\x88\x92 dense| = %s (float32 rounding)."),
            text)
            .c_str());
  } else {
    ImGui::TextUnformatted(i18n::format(i18n::tr("max |O/l \xe2\x88\x92 dense| = %s: the block has seen keys "
                                                 "0\xe2\x80\x93%d of %d; it is the context after its last tile."),
                                        text, step.col_end - 1, attention_.problem().m())
                               .c_str());
  }
  std::snprintf(text, sizeof text, "%.2e", context_difference_);
  ImGui::TextDisabled(
      "%s", i18n::format(
                i18n::tr("The whole head, every tile done: max |tiled \xe2\x88\x92 dense| = %s (within 1e-5)."), text)
                .c_str());
  ImGui::PopTextWrapPos();
}

}  // namespace

std::unique_ptr<ui::Panel> make_tiled_view(ViewStates& views) { return std::make_unique<TiledView>(views); }

}  // namespace attnviz::classroom
