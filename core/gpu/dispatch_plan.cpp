#include "core/gpu/dispatch_plan.h"

#include <algorithm>
#include <functional>
#include <string>
#include <utility>

#include "core/common/error.h"
#include "core/vk/context.h"

namespace attnviz::gpu {
namespace {

constexpr VkFormat kTexels = VK_FORMAT_R32G32B32A32_SFLOAT;
constexpr VkFormat kFloats = VK_FORMAT_R32_SFLOAT;
constexpr VkFormat kGlobals = VK_FORMAT_R32G32B32A32_UINT;

std::int64_t unit_bytes(VkFormat format) { return format == kFloats ? 4 : 16; }

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

// A chunk of the dispatch grid: heads [z0, z1), rows [y0, y1), column quads [x0, x1).
struct Chunk {
  int z0, z1, y0, y1, x0, x1;
};

struct Operand {
  Slot slot;
  VkFormat format;
  std::function<std::pair<std::int64_t, std::int64_t>(const Chunk&)> floats;  // [first, end) of the slot
};

struct Grid {
  int z, y, x;              // extents: heads, rows, column quads
  int tile_y, tile_x;       // rows and quads per workgroup
  std::array<int, 3> axis;  // the workgroup axis (0 = x, 1 = y, 2 = z) of the z, y, x extents
};

class Planner {
 public:
  Planner(const AttentionLayout& layout, const PlanLimits& limits) : layout_(layout), limits_(limits) {}

  // Splits the grid into chunks whose operands fit one view each.
  std::vector<Chunk> split(const Grid& grid, const std::vector<Operand>& operands, const char* stage) const {
    std::array<int, 3> size = {grid.z, grid.y, grid.x};
    const std::array<int, 3> tile = {1, grid.tile_y, grid.tile_x};
    for (int d = 0; d < 3; ++d) {
      const std::int64_t most =
          static_cast<std::int64_t>(
              limits_.max_groups[static_cast<std::size_t>(grid.axis[static_cast<std::size_t>(d)])]) *
          tile[static_cast<std::size_t>(d)];
      size[static_cast<std::size_t>(d)] =
          static_cast<int>(std::min<std::int64_t>(size[static_cast<std::size_t>(d)], most));
    }
    for (const Operand& operand : operands) {
      while (view_bytes(operand, size) > limits_.max_view_bytes) {
        if (!shrink(operand, size, tile)) {
          throw BackendUnavailable(std::string("the problem is too large for this Vulkan device: the ") + stage +
                                   " pass needs " + std::to_string(view_bytes(operand, size)) + " bytes of " +
                                   slot_name(operand.slot) + " in one binding, the device allows " +
                                   std::to_string(limits_.max_view_bytes));
        }
      }
    }
    std::vector<Chunk> chunks;
    for (int z0 = 0; z0 < grid.z; z0 += size[0]) {
      for (int y0 = 0; y0 < grid.y; y0 += size[1]) {
        for (int x0 = 0; x0 < grid.x; x0 += size[2]) {
          chunks.push_back({z0, std::min(grid.z, z0 + size[0]), y0, std::min(grid.y, y0 + size[1]), x0,
                            std::min(grid.x, x0 + size[2])});
        }
      }
    }
    return chunks;
  }

  PlannedView view(const Operand& operand, const Chunk& chunk) const {
    const auto [first, end] = operand.floats(chunk);
    const std::int64_t unit = unit_bytes(operand.format);
    const std::int64_t offset = first * 4 / limits_.view_alignment * limits_.view_alignment;
    const std::int64_t stop =
        std::min(ceil_div(end * 4, unit) * unit, layout_.slot_bytes[static_cast<std::size_t>(operand.slot)]);
    return {operand.slot, operand.format, offset, stop - offset};
  }

  // Where the slot's first element is, counted in texels (or floats) of the view.
  static std::int32_t base(const PlannedView& view) {
    return static_cast<std::int32_t>(-view.offset / unit_bytes(view.format));
  }

  // An operand bound as `view`, its pitch and head stride given in floats.
  static OperandPush operand(const PlannedView& view, std::int64_t pitch, std::int64_t stride) {
    const std::int64_t floats = unit_bytes(view.format) / 4;
    return {base(view), static_cast<std::int32_t>(pitch / floats), static_cast<std::int32_t>(stride / floats)};
  }
  static OperandPush operand(const PlannedView& view, const Placement& p) {
    return operand(view, p.pitch, p.batch_stride);
  }

  static ChunkPush chunk(const Chunk& c) { return {c.z0, c.y0, c.x0, c.y1, c.x1}; }

  static std::array<std::uint32_t, 3> groups(const Grid& grid, const Chunk& c) {
    std::array<std::uint32_t, 3> g = {1, 1, 1};
    g[static_cast<std::size_t>(grid.axis[0])] = static_cast<std::uint32_t>(c.z1 - c.z0);
    g[static_cast<std::size_t>(grid.axis[1])] = static_cast<std::uint32_t>(ceil_div(c.y1 - c.y0, grid.tile_y));
    g[static_cast<std::size_t>(grid.axis[2])] = static_cast<std::uint32_t>(ceil_div(c.x1 - c.x0, grid.tile_x));
    return g;
  }

 private:
  std::int64_t view_bytes(const Operand& operand, const std::array<int, 3>& size) const {
    const auto [first, end] = operand.floats({0, size[0], 0, size[1], 0, size[2]});
    return (end - first) * 4 + limits_.view_alignment;  // room for the aligned-down start
  }

  // Halves the first dimension that makes this operand's view smaller: to a multiple of the
  // tile while chunks hold several tiles, below one tile only when nothing else helps.
  bool shrink(const Operand& operand, std::array<int, 3>& size, const std::array<int, 3>& tile) const {
    const std::int64_t before = view_bytes(operand, size);
    for (std::size_t d = 0; d < 3; ++d) {
      if (size[d] <= 1) continue;
      std::array<int, 3> smaller = size;
      const int half = static_cast<int>(ceil_div(size[d], 2));
      smaller[d] = half > tile[d] ? static_cast<int>(ceil_div(half, tile[d]) * tile[d]) : half;
      if (smaller[d] < size[d] && view_bytes(operand, smaller) < before) {
        size = smaller;
        return true;
      }
    }
    return false;
  }

  const AttentionLayout& layout_;
  const PlanLimits& limits_;
};

Operand rows_of(const Placement& p, VkFormat format = kTexels) {
  return {p.slot, format, [p](const Chunk& c) { return std::pair(p.first(c.z0, c.y0), p.end(c.z1, c.y1)); }};
}

Operand globals_of(const AttentionLayout& l) {
  const std::int64_t floats = static_cast<std::int64_t>(l.globals_entries) * 4;
  return {Slot::Globals, kGlobals, [floats](const Chunk&) { return std::pair(std::int64_t{0}, floats); }};
}

// One batched product out[b] = a[b] · b_matrix[b] per chunk (projections and W_O).
void plan_matmul(const Planner& planner, const TileConfig& tiles, Stage stage, const Placement& a, const Placement& b,
                 const Placement& out, int batches, int inner, std::vector<PlannedDispatch>& dispatches) {
  const Grid grid{
      batches,  out.rows, static_cast<int>(out.cols / 4), tiles.matmul_tile_rows(), tiles.matmul_tile_quads(),
      {2, 1, 0}};
  const Operand a_op{a.slot, kTexels, [a](const Chunk& c) { return std::pair(a.first(0, c.y0), a.end(1, c.y1)); }};
  const Operand b_op{b.slot, kTexels,
                     [b, inner](const Chunk& c) { return std::pair(b.first(c.z0, 0), b.end(c.z1, inner)); }};
  const Operand out_op = rows_of(out);
  for (const Chunk& c : planner.split(grid, {a_op, b_op, out_op}, stage_name(stage))) {
    PlannedDispatch d{stage,
                      Kernel::Matmul,
                      {planner.view(a_op, c), planner.view(b_op, c), planner.view(out_op, c)},
                      {},
                      Planner::groups(grid, c)};
    MatmulPush push{};
    push.inner = inner;
    push.a = Planner::operand(d.views[0], a.pitch, 0);  // the same A for every batch
    push.b = Planner::operand(d.views[1], b);
    push.c = Planner::operand(d.views[2], out);
    push.chunk = Planner::chunk(c);
    d.push = push;
    dispatches.push_back(std::move(d));
  }
}

void plan_scores(const Planner& planner, const AttentionLayout& l, const TileConfig& tiles,
                 std::vector<PlannedDispatch>& dispatches) {
  const AttentionShape& s = l.shape;
  const int group = s.heads / s.kv_heads;
  const Grid grid{s.heads, s.n, l.m4 / 4, tiles.tile_rows(), tiles.scores_tile_quads(), {2, 1, 0}};
  const Placement q = l.q, k = l.k;
  const int m = s.m;
  const Operand q_op{q.slot, kTexels,
                     [q](const Chunk& c) { return std::pair(q.first(c.z0, c.y0), q.end(c.z1, c.y1)); }};
  const Operand k_op{k.slot, kTexels, [k, group, m](const Chunk& c) {
                       return std::pair(k.first(c.z0 / group, 4 * c.x0),
                                        k.end((c.z1 - 1) / group + 1, std::min(m, 4 * c.x1)));
                     }};
  const Operand s_op = rows_of(l.scores);
  const Operand g_op = globals_of(l);
  for (const Chunk& c : planner.split(grid, {q_op, k_op, s_op}, "scores")) {
    PlannedDispatch d{Stage::Scores,
                      Kernel::Scores,
                      {planner.view(q_op, c), planner.view(k_op, c), planner.view(g_op, c), planner.view(s_op, c)},
                      {},
                      Planner::groups(grid, c)};
    ScoresPush push{};
    push.depth = l.d_k4 / 4;
    push.q = Planner::operand(d.views[0], q);
    push.k = Planner::operand(d.views[1], k);
    push.s = Planner::operand(d.views[3], l.scores);
    push.group = group;
    push.chunk = Planner::chunk(c);
    d.push = push;
    dispatches.push_back(std::move(d));
  }
}

// RoPE in place on `rows` (Q or K: `batches` heads of `count` rows), pairs along x.
void plan_rope(const Planner& planner, const AttentionLayout& l, const Placement& rows, int batches, int count,
               std::vector<PlannedDispatch>& dispatches) {
  const int half = l.shape.d_k / 2;
  const Grid grid{batches, count, half, kRopeWorkgroup, kRopeWorkgroup, {2, 1, 0}};
  const Operand x_op = rows_of(rows, kFloats);
  const Placement table = l.rope;
  const Operand t_op{table.slot, kFloats,
                     [table](const Chunk& c) { return std::pair(table.first(0, c.y0), table.end(1, c.y1)); }};
  for (const Chunk& c : planner.split(grid, {x_op, t_op}, "positions")) {
    PlannedDispatch d{
        Stage::Positions, Kernel::Rope, {planner.view(t_op, c), planner.view(x_op, c)}, {}, Planner::groups(grid, c)};
    RopePush push{};
    push.x = Planner::operand(d.views[1], rows);
    push.table = Planner::operand(d.views[0], table);
    push.chunk = Planner::chunk(c);
    push.half_dk = half;
    d.push = push;
    dispatches.push_back(std::move(d));
  }
}

Operand slopes_of(const AttentionLayout& l) {
  const std::int64_t floats = l.slot_bytes[static_cast<std::size_t>(Slot::Slopes)] / 4;
  return {Slot::Slopes, kFloats, [floats](const Chunk&) { return std::pair(std::int64_t{0}, floats); }};
}

void plan_softmax(const Planner& planner, const AttentionLayout& l, const TileConfig& tiles,
                  std::vector<PlannedDispatch>& dispatches) {
  const AttentionShape& s = l.shape;
  const Grid grid{s.heads, s.n, 1, static_cast<int>(tiles.softmax_rows_per_workgroup), 1, {1, 0, 2}};
  const Operand s_op = rows_of(l.scores);
  // With dropout the softmax's weights are kept apart; dropout writes the final ones.
  const Placement& written = s.dropout ? l.weights_before : l.weights;
  const Operand w_op = rows_of(written);
  const Operand g_op = globals_of(l);
  const Operand slopes = slopes_of(l);
  for (const Chunk& c : planner.split(grid, {s_op, w_op}, "softmax")) {
    PlannedDispatch d{Stage::Softmax,
                      Kernel::Softmax,
                      {planner.view(s_op, c), planner.view(g_op, c), planner.view(w_op, c), planner.view(slopes, c)},
                      {},
                      Planner::groups(grid, c)};
    SoftmaxPush push{};
    push.s = Planner::operand(d.views[0], l.scores);
    push.w = Planner::operand(d.views[2], written);
    push.chunk = Planner::chunk(c);
    d.push = push;
    dispatches.push_back(std::move(d));
  }
}

void plan_dropout(const Planner& planner, const AttentionLayout& l, std::vector<PlannedDispatch>& dispatches) {
  const AttentionShape& s = l.shape;
  const Grid grid{s.heads, s.n, l.m4 / 4, kDropoutWorkgroup, kDropoutWorkgroup, {2, 1, 0}};
  const Operand before = rows_of(l.weights_before);
  const Operand after = rows_of(l.weights);
  const Operand kept = rows_of(l.kept);
  for (const Chunk& c : planner.split(grid, {before, after, kept}, "dropout")) {
    PlannedDispatch d{Stage::Dropout,
                      Kernel::Dropout,
                      {planner.view(before, c), planner.view(after, c), planner.view(kept, c)},
                      {},
                      Planner::groups(grid, c)};
    DropoutPush push{};
    push.before = Planner::operand(d.views[0], l.weights_before);
    push.after = Planner::operand(d.views[1], l.weights);
    push.kept = Planner::operand(d.views[2], l.kept);
    push.chunk = Planner::chunk(c);
    push.cols = s.m;
    d.push = push;
    dispatches.push_back(std::move(d));
  }
}

void plan_context(const Planner& planner, const AttentionLayout& l, const TileConfig& tiles,
                  std::vector<PlannedDispatch>& dispatches) {
  const AttentionShape& s = l.shape;
  const int group = s.heads / s.kv_heads;
  const Grid grid{s.heads, s.n, l.d_v4 / 4, tiles.tile_rows(), tiles.tile_quads(), {2, 1, 0}};
  const Placement v = l.v, concat = l.concat;
  const int m = s.m;
  const Operand w_op = rows_of(l.weights);
  const Operand v_op{v.slot, kTexels, [v, group, m](const Chunk& c) {
                       return std::pair(v.first(c.z0 / group, 0), v.end((c.z1 - 1) / group + 1, m));
                     }};
  const Operand out_op{concat.slot, kFloats,
                       [concat](const Chunk& c) { return std::pair(concat.first(0, c.y0), concat.end(1, c.y1)); }};
  const Operand g_op = globals_of(l);
  for (const Chunk& c : planner.split(grid, {w_op, v_op, out_op}, "context")) {
    PlannedDispatch d{Stage::Context,
                      Kernel::Context,
                      {planner.view(w_op, c), planner.view(v_op, c), planner.view(g_op, c), planner.view(out_op, c)},
                      {},
                      Planner::groups(grid, c)};
    ContextPush push{};
    push.dv = s.d_v;
    push.w = Planner::operand(d.views[0], l.weights);
    push.v = Planner::operand(d.views[1], v);
    push.concat = Planner::operand(d.views[3], concat.pitch, s.d_v);  // head h: columns h·d_v ..
    push.group = group;
    push.chunk = Planner::chunk(c);
    d.push = push;
    dispatches.push_back(std::move(d));
  }
}

}  // namespace

PlanLimits PlanLimits::of(const vk::DeviceLimits& limits) {
  PlanLimits plan;
  plan.max_view_bytes = static_cast<std::int64_t>(std::min<VkDeviceSize>(
      static_cast<VkDeviceSize>(limits.max_texel_buffer_elements) * 4, limits.max_storage_buffer_range));
  plan.view_alignment = static_cast<std::int64_t>(std::max<VkDeviceSize>(16, limits.min_texel_buffer_offset_alignment));
  for (std::size_t axis = 0; axis < 3; ++axis) plan.max_groups[axis] = limits.max_workgroup_count[axis];
  return plan;
}

const char* stage_name(Stage stage) {
  static constexpr const char* names[] = {"projections", "positions", "scores", "softmax",
                                          "dropout",     "context",   "output"};
  return names[static_cast<int>(stage)];
}

std::vector<PlannedDispatch> plan_attention(const AttentionLayout& l, const TileConfig& tiles,
                                            const PlanLimits& limits) {
  const Planner planner(l, limits);
  const AttentionShape& s = l.shape;
  std::vector<PlannedDispatch> dispatches;
  plan_matmul(planner, tiles, Stage::Projections, l.x, l.wq, l.q, s.heads, s.d_model, dispatches);
  plan_matmul(planner, tiles, Stage::Projections, l.xs, l.wk, l.k, s.kv_heads, s.d_model, dispatches);
  plan_matmul(planner, tiles, Stage::Projections, l.xs, l.wv, l.v, s.kv_heads, s.d_model, dispatches);
  if (s.rope) {
    plan_rope(planner, l, l.q, s.heads, s.n, dispatches);
    plan_rope(planner, l, l.k, s.kv_heads, s.m, dispatches);
  }
  plan_scores(planner, l, tiles, dispatches);
  plan_softmax(planner, l, tiles, dispatches);
  if (s.dropout) plan_dropout(planner, l, dispatches);
  plan_context(planner, l, tiles, dispatches);
  if (s.has_wo) plan_matmul(planner, tiles, Stage::Output, l.concat, l.wo, l.output, 1, s.heads * s.d_v, dispatches);
  return dispatches;
}

}  // namespace attnviz::gpu
