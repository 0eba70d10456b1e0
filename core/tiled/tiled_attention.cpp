// The CPU tiled runner: the projections (one Eigen product each, as the Eigen backend does),
// then every head's tiles (tiled_cpu.cpp), then the heads side by side (· W_O when given).

#include "core/tiled/tiled_attention.h"

#include <chrono>
#include <cmath>
#include <stdexcept>
#include <string>

#include "core/scenario/positions.h"
#include "core/tiled/tile_grid.h"
#include "core/tiled/tiled_cpu.h"

namespace attnviz::tiled {
namespace {

using ConstMap = Eigen::Map<const RowMajor>;

ConstMap view(const Matrix& m) { return ConstMap(m.data.data(), m.rows, m.cols); }

ColumnBlock columns(const Matrix& all, int first, int count) {
  return ColumnBlock(all.data.data() + first, all.rows, count, Eigen::OuterStride<>(all.cols));
}

class CpuTiled final : public TiledRunner {
 public:
  [[nodiscard]] std::string name() const override { return "cpu"; }
  // A 64 × 64 tile of scores (16 KiB) and its K and V stay in the caches.
  [[nodiscard]] int preferred_block(int /*d_k*/, int /*d_v*/) const override { return 64; }

  TiledResult run(const Problem& p, const TiledOptions& options) override {
    check_options(p, options);
    const auto start = std::chrono::steady_clock::now();
    const Projections projections = project(p);  // RoPE'd, with RoPE
    const Matrix& q = projections.q;             // N × H·d_k
    const Matrix& k = projections.k;             // M × G·d_k
    const Matrix& v = projections.v;             // M × G·d_v
    const Mask mask(p.mask, p.n(), p.m(), p.num_heads);
    const std::vector<float> slopes = head_slopes(p);
    const DropoutRule dropout = dropout_rule(p.dropout);
    const TileGrid grid(p.n(), p.m(), options.block_q, options.block_k);

    TiledResult result;
    result.backend = "cpu";
    result.device = "CPU (Eigen tiles)";
    result.heads.resize(static_cast<std::size_t>(p.num_heads));
    if (options.trace_head) {
      const int h = *options.trace_head;
      result.trace = TiledTrace{h, p.kv_head_of(h), options.block_q, options.block_k, p.scale, {}, {}, {}, {}};
    }
    for (int h = 0; h < p.num_heads; ++h) {
      prepare_head(grid, p.d_v, result.heads[static_cast<std::size_t>(h)],
                   options.trace_head == h ? &*result.trace : nullptr);
    }
    // Every (head, query block) on the OpenMP team, as the dense Eigen path does; Eigen's
    // products inside run on the calling thread. Small problems stay on this thread: waking
    // the team costs more than the work, and on a busy machine its spinning costs tens of ms.
    const int tasks = p.num_heads * grid.query_blocks();
    const double flops = 2.0 * p.num_heads * p.n() * static_cast<double>(p.m()) * (p.d_k + p.d_v);
    const bool worth_threads = flops >= 4e6 && tasks > 1;
#pragma omp parallel for schedule(dynamic, 1) if (worth_threads)
    for (int task = 0; task < tasks; ++task) {
      const int h = task / grid.query_blocks();
      const int g = p.kv_head_of(h);
      const HeadOperands head{columns(q, h * p.d_k, p.d_k), columns(k, g * p.d_k, p.d_k), columns(v, g * p.d_v, p.d_v),
                              h};
      const HeadRules rules{h, p.scale, slopes[static_cast<std::size_t>(h)], dropout};
      tiled_query_block(head, mask, rules, grid, task % grid.query_blocks(), result.heads[static_cast<std::size_t>(h)],
                        options.trace_head == h ? &*result.trace : nullptr);
    }
    if (result.trace) {
      const TiledHead& head = result.heads[static_cast<std::size_t>(*options.trace_head)];
      result.trace->context = head.context;
      result.trace->m = head.m;
      result.trace->l = head.l;
    }
    result.output = concatenate_heads(p, result.heads);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    result.timing.total_ms = ms;
    result.timing.stages_ms.emplace_back("tiled", ms);
    return result;
  }
};

}  // namespace

void check_options(const Problem& problem, const TiledOptions& options) {
  if (options.block_q < 1) throw std::invalid_argument("the query block size Br must be at least 1");
  if (options.block_k < 1) throw std::invalid_argument("the key block size Bc must be at least 1");
  if (options.trace_head && (*options.trace_head < 0 || *options.trace_head >= problem.num_heads)) {
    throw std::invalid_argument("head " + std::to_string(*options.trace_head) + " does not exist: the problem has " +
                                std::to_string(problem.num_heads) + " heads");
  }
}

std::int64_t trace_floats(int rows, int cols, int block_q, int block_k, int d_v) {
  const TileGrid grid(rows, cols, block_q, block_k);
  // Per tile: 5 numbers and d_v values of O per row of its block; the last block may be shorter.
  return static_cast<std::int64_t>(grid.key_blocks()) * rows * (5 + d_v) + static_cast<std::int64_t>(rows) * (2 + d_v);
}

std::unique_ptr<TiledRunner> make_cpu_tiled() { return std::make_unique<CpuTiled>(); }

Projections project(const Problem& p) {
  Projections out{Matrix(p.n(), p.wq.cols), Matrix(p.m(), p.wk.cols), Matrix(p.m(), p.wv.cols)};
  Eigen::Map<RowMajor>(out.q.data.data(), out.q.rows, out.q.cols).noalias() = view(p.x) * view(p.wq);
  Eigen::Map<RowMajor>(out.k.data.data(), out.k.rows, out.k.cols).noalias() = view(p.xs) * view(p.wk);
  Eigen::Map<RowMajor>(out.v.data.data(), out.v.rows, out.v.cols).noalias() = view(p.xs) * view(p.wv);
  if (p.positional == PositionalKind::Rope) {
    const Matrix table = problem_rope_table(p);
    for (int r = 0; r < p.n(); ++r) {
      for (int h = 0; h < p.num_heads; ++h) rope_rotate(out.q.row(r) + h * p.d_k, table.row(r), p.d_k);
    }
    for (int r = 0; r < p.m(); ++r) {
      for (int g = 0; g < p.num_kv_heads; ++g) rope_rotate(out.k.row(r) + g * p.d_k, table.row(r), p.d_k);
    }
  }
  return out;
}

Result as_result(const Problem& p, const TiledResult& tiled) {
  Result result;
  result.backend = tiled.backend;
  result.device = tiled.device;
  result.tokens = p.tokens;
  result.source_tokens = p.source_tokens;
  const Mask mask(p.mask, p.n(), p.m(), p.num_heads);
  for (const TiledHead& head : tiled.heads) {
    HeadResult& out = result.heads.emplace_back();
    out.context = head.context;
  }
  fill_result_masks(mask, result);
  result.output = tiled.output;
  result.timing = tiled.timing;
  return result;
}

Matrix concatenate_heads(const Problem& p, const std::vector<TiledHead>& heads) {
  RowMajor concat(p.n(), p.num_heads * p.d_v);
  for (int h = 0; h < p.num_heads; ++h)
    concat.middleCols(h * p.d_v, p.d_v) = view(heads[static_cast<std::size_t>(h)].context);
  Matrix out(p.n(), p.output_cols());
  Eigen::Map<RowMajor> out_map(out.data.data(), out.rows, out.cols);
  if (p.wo)
    out_map.noalias() = concat * view(*p.wo);
  else
    out_map = concat;
  return out;
}

}  // namespace attnviz::tiled
