// The runs of a Mask: its rows as sorted runs of visible keys. Made by bisection for a mask
// with an expression (core/maskexpr/runs.h), made on the fly from the span and the global
// columns for the named fields; the block grid and the shaders' run table come from them.

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <string>
#include <stdexcept>

#include "core/attention/mask.h"
#include "core/attention/result.h"
#include "core/common/error.h"
#include "core/maskexpr/runs.h"
#include "core/scenario/mask_expression_check.h"

namespace attnviz {
namespace {

// Rows per task when the runs are made on several threads.
constexpr int kRowsPerTask = 64;
// The most runs a mask holds (8 bytes each, 128 MiB; twice that while they are gathered). The
// materialised path's largest checkerboard, 4096 × 2048, is far below; the overview's long
// texts can ask for far more ("(q - k) % 4 == 0" on 65,536 tokens: 537 million), and are
// refused instead of taking gigabytes.
constexpr std::int64_t kMaxRuns = std::int64_t{1} << 24;

std::string with_commas(std::int64_t value) {
  std::string digits = std::to_string(value);
  for (int at = static_cast<int>(digits.size()) - 3; at > 0; at -= 3) digits.insert(static_cast<std::size_t>(at), ",");
  return digits;
}

void append_run(std::vector<KeySpan>& out, int begin, int end) {
  if (end <= begin) return;
  if (!out.empty() && out.back().end >= begin) {
    out.back().end = std::max(out.back().end, end);
  } else {
    out.push_back({begin, end});
  }
}

}  // namespace

void Mask::field_runs(int i, std::vector<KeySpan>& out) const {
  const KeySpan row_span = span_of_fields(i);
  bool span_added = row_span.empty();
  for_each_extra_key(i, row_span, [&](int j) {
    if (!span_added && j > row_span.begin) {
      append_run(out, row_span.begin, row_span.end);
      span_added = true;
    }
    append_run(out, j, j + 1);
  });
  if (!span_added) append_run(out, row_span.begin, row_span.end);
}

void Mask::build_runs(const MaskSetting& setting) {
  if (cols_ > 0x10000) throw InputError("<mask>", "/mask/expression", "a mask expression needs at most 65536 keys");
  const maskexpr::Expression expression = parse_mask_expression(setting, "<mask>");
  const maskexpr::Environment environment = mask_environment(setting, rows_, cols_);
  auto runs = std::make_shared<Runs>();
  runs->sets = expression.uses_head() ? heads_ : 1;
  const int tasks_per_set = (rows_ + kRowsPerTask - 1) / kRowsPerTask;
  const int tasks = runs->sets * tasks_per_set;
  std::vector<std::vector<KeySpan>> task_runs(static_cast<std::size_t>(tasks));
  std::vector<std::uint32_t> counts(static_cast<std::size_t>(runs->sets) * static_cast<std::size_t>(rows_), 0);
  const maskexpr::RowScanner scanner(expression, environment);
  std::atomic<std::int64_t> total_runs{0};
  std::atomic<bool> too_many{false};
  // Large masks (the command line's 4096 tokens × 8 heads) on the OpenMP team; the window's
  // sentences on this thread, where waking the team costs more than the work.
#pragma omp parallel for schedule(dynamic, 1) if (static_cast <long long>(rows_) * runs->sets >= 2048)
  for (int task = 0; task < tasks; ++task) {
    const int set = task / tasks_per_set;
    const int first = (task % tasks_per_set) * kRowsPerTask;
    std::vector<KeySpan>& out = task_runs[static_cast<std::size_t>(task)];
    std::vector<KeySpan> fields;
    std::vector<KeySpan> previous;  // the row before's runs: where this row's edges likely are
    for (int i = first; i < std::min(rows_, first + kRowsPerTask) && !too_many.load(std::memory_order_relaxed); ++i) {
      fields.clear();
      field_runs(i, fields);
      const std::size_t before = out.size();
      // The fields' runs have gaps between them, so the expression's runs inside them stay
      // apart; `before` keeps the previous row's last run from absorbing this row's first.
      // A task's first row has no hint (`previous` is empty): scan_near then scans plainly.
      for (const KeySpan& allowed : fields)
        scanner.scan_near(i, set, allowed.begin, allowed.end, previous, out, before);
      previous.assign(out.begin() + static_cast<std::ptrdiff_t>(before), out.end());
      counts[static_cast<std::size_t>(set) * static_cast<std::size_t>(rows_) + static_cast<std::size_t>(i)] =
          static_cast<std::uint32_t>(out.size() - before);
      if (total_runs.fetch_add(static_cast<std::int64_t>(out.size() - before)) +
              static_cast<std::int64_t>(out.size() - before) >
          kMaxRuns) {
        too_many.store(true);
      }
    }
  }
  if (too_many.load()) {
    throw InputError(
        "<mask>", "/mask/expression",
        "\"" + setting.expression + "\" splits the rows into more than " + with_commas(kMaxRuns) +
            " runs of visible keys in all (" + with_commas(rows_) + " rows" +
            (runs->sets > 1 ? " for each of " + std::to_string(runs->sets) + " heads" : std::string()) +
            "), more than attnviz holds: use a pattern with fewer gaps (a larger stride or step) or a shorter text");
  }
  runs->first.resize(counts.size() + 1);
  std::uint32_t total = 0;
  for (std::size_t r = 0; r < counts.size(); ++r) {
    runs->first[r] = total;
    total += counts[r];
  }
  runs->first.back() = total;
  runs->runs.reserve(total);
  for (const auto& part : task_runs) runs->runs.insert(runs->runs.end(), part.begin(), part.end());
  runs_ = std::move(runs);
}

std::span<const KeySpan> Mask::stored_runs(int h, int i) const {
  const std::size_t set = runs_->sets > 1 ? static_cast<std::size_t>(std::clamp(h, 0, runs_->sets - 1)) : 0;
  const std::size_t row = set * static_cast<std::size_t>(rows_) + static_cast<std::size_t>(i);
  const std::uint32_t begin = runs_->first[row];
  return {runs_->runs.data() + begin, runs_->first[row + 1] - begin};
}

bool Mask::runs_visible(int h, int i, int j) const {
  const std::span<const KeySpan> row = stored_runs(h, i);
  const auto after =
      std::upper_bound(row.begin(), row.end(), j, [](int key, const KeySpan& run) { return key < run.end; });
  return after != row.end() && after->begin <= j;
}

std::span<const KeySpan> Mask::runs(int h, int i, std::vector<KeySpan>& scratch) const {
  if (runs_ != nullptr) return stored_runs(h, i);
  scratch.clear();
  field_runs(i, scratch);
  return scratch;
}

BlockGrid Mask::block_grid(int h, int size) const {
  if (size < 1) throw std::invalid_argument("Mask::block_grid: the block size must be at least 1");
  BlockGrid grid;
  grid.size = size;
  grid.tile_rows = (rows_ + size - 1) / size;
  grid.tile_cols = (cols_ + size - 1) / size;
  grid.tiles.resize(static_cast<std::size_t>(grid.tile_rows) * static_cast<std::size_t>(grid.tile_cols));
  std::vector<long long> seen(static_cast<std::size_t>(grid.tile_cols));
  std::vector<KeySpan> scratch;
  for (int tr = 0; tr < grid.tile_rows; ++tr) {
    std::fill(seen.begin(), seen.end(), 0);
    const int i0 = tr * size;
    const int i1 = std::min(rows_, i0 + size);
    for (int i = i0; i < i1; ++i) {
      for (const KeySpan& run : runs(h, i, scratch)) {
        for (int tc = run.begin / size; tc * size < run.end; ++tc) {
          seen[static_cast<std::size_t>(tc)] += std::min(run.end, (tc + 1) * size) - std::max(run.begin, tc * size);
        }
      }
    }
    for (int tc = 0; tc < grid.tile_cols; ++tc) {
      const long long cells = static_cast<long long>(i1 - i0) * (std::min(cols_, (tc + 1) * size) - tc * size);
      const long long visible = seen[static_cast<std::size_t>(tc)];
      const BlockVisibility kind = visible == 0 ? BlockVisibility::Hidden
                                                : (visible == cells ? BlockVisibility::Full : BlockVisibility::Partial);
      grid.tiles[static_cast<std::size_t>(tr) * static_cast<std::size_t>(grid.tile_cols) +
                 static_cast<std::size_t>(tc)] = kind;
      (kind == BlockVisibility::Hidden ? grid.empty : (kind == BlockVisibility::Full ? grid.full : grid.partial)) += 1;
    }
  }
  return grid;
}

void fill_result_masks(const Mask& mask, Result& result) {
  mask.matrix_into(result.mask, 0);
  result.masked_rows = fully_masked_rows(result.mask);
  for (std::size_t h = 0; h < result.heads.size(); ++h) {
    HeadResult& head = result.heads[h];
    if (mask.depends_on_head() && h > 0) {
      mask.matrix_into(head.mask, static_cast<int>(h));
      head.masked_rows = fully_masked_rows(head.mask);
    } else if (mask.depends_on_head()) {
      head.mask = result.mask;
      head.masked_rows = result.masked_rows;
    } else {
      head.mask = MaskMatrix{};
      head.masked_rows.clear();
    }
  }
}

void add_block_counts(const Mask& mask, int size, Result& result) {
  for (std::size_t h = 0; h < result.heads.size(); ++h) {
    const BlockGrid grid = mask.block_grid(static_cast<int>(h), size);
    HeadBlocks blocks;
    blocks.size = grid.size;
    blocks.tile_rows = grid.tile_rows;
    blocks.tile_cols = grid.tile_cols;
    blocks.empty = grid.empty;
    blocks.partial = grid.partial;
    blocks.full = grid.full;
    blocks.tiles.reserve(grid.tiles.size());
    for (const BlockVisibility kind : grid.tiles) blocks.tiles.push_back(static_cast<std::uint8_t>(kind));
    result.heads[h].blocks = std::move(blocks);
  }
}

int Mask::runs_offset() const { return runs_ == nullptr ? 0 : static_cast<int>(runs_->first.size()); }

int Mask::table_texel_count() const {
  if (runs_ == nullptr) return globals_texel_count(rows_, cols_);
  const std::size_t entries = runs_->first.size() + runs_->runs.size();
  return static_cast<int>((entries + 3) / 4);
}

void Mask::write_runs_table(std::span<std::uint32_t> texels) const {
  std::copy(runs_->first.begin(), runs_->first.end(), texels.begin());
  std::size_t at = runs_->first.size();
  for (const KeySpan& run : runs_->runs) {
    texels[at++] = static_cast<std::uint32_t>(run.begin) | (static_cast<std::uint32_t>(run.end - 1) << 16);
  }
}

}  // namespace attnviz
