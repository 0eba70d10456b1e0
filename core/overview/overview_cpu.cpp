// The CPU overview runner: head by head (heads sharing keys one after the other), the head's
// projections Q_h = X[window rows] · W_Q[:, h] and K_g = Xs · W_K[:, g] (only the window's keys
// when pass 1 is not needed; turned by RoPE at their positions), pass 1 for the rows' m and l when the weights are pooled and no
// earlier run left them, pass 2 into the pixels, and the image finished on the host. Extra
// memory: one head's Q and K (N × d_k each), m and l of the window's rows per head, a score tile
// per thread, the images.

#include <Eigen/Core>
#include <chrono>
#include <memory>

#include "core/overview/cpu_passes.h"
#include "core/overview/overview.h"
#include "core/overview/pooling.h"
#include "core/scenario/positions.h"

namespace attnviz::overview {
namespace {

using cpu::RowMajor;
using ConstMap = Eigen::Map<const RowMajor>;
using Clock = std::chrono::steady_clock;

ConstMap view(const Matrix& m) { return ConstMap(m.data.data(), m.rows, m.cols); }

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// x[rows] · w[:, first .. first + count). A small product is taken coefficient by coefficient:
// Eigen's GEMM would wake its own threads for it (far costlier than the work on a busy machine).
RowMajor project(const Matrix& x, int row_begin, int row_end, const Matrix& w, int first, int count) {
  const auto rows = view(x).middleRows(row_begin, row_end - row_begin);
  const auto columns = view(w).middleCols(first, count);
  if (static_cast<double>(rows.rows()) * static_cast<double>(rows.cols()) * count < 4e6)
    return rows.lazyProduct(columns);
  return rows * columns;
}

// RoPE (positions.h): row r of `rows` is the token at table row first + r.
void rotate(RowMajor& rows, const Matrix& table, int first) {
  for (Eigen::Index r = 0; r < rows.rows(); ++r) {
    rope_rotate(&rows(r, 0),
                table.data.data() + static_cast<std::size_t>(first + r) * static_cast<std::size_t>(table.cols),
                static_cast<int>(rows.cols()));
  }
}

// Cells of score tiles both passes will visit, for the progress bar.
std::int64_t planned_cells(const Problem& p, const CheckedRequest& checked, const OverviewRequest& request) {
  const CellWindow& w = checked.grid.window;
  std::int64_t cells = 0;
  for (const int h : checked.heads) {
    cells += w.cells();
    const bool known = request.known_stats && request.known_stats->covers(h, w.row_begin, w.row_end);
    if (request.quantity == Quantity::Weights && !known) cells += static_cast<std::int64_t>(w.rows()) * p.m();
  }
  return cells;
}

class CpuOverview final : public OverviewRunner {
 public:
  [[nodiscard]] std::string name() const override { return "cpu"; }

  Overview run(const Problem& p, const OverviewRequest& request, Progress* progress) override {
    const CheckedRequest checked = check_request(p, request);
    const PixelGrid& grid = checked.grid;
    const CellWindow& w = grid.window;
    const Mask mask(p.mask, p.n(), p.m(), p.num_heads);
    cpu::PassContext context;
    context.progress = progress;
    if (progress != nullptr) progress->start(planned_cells(p, checked, request));

    Overview out;
    out.backend = "cpu";
    out.device = "CPU (Eigen tiles)";
    out.grid = grid;
    out.quantity = request.quantity;
    out.pooling = request.pooling;
    const bool weights = request.quantity == Quantity::Weights;
    auto stats = std::make_shared<RowStats>();
    stats->row_begin = w.row_begin;
    stats->row_end = w.row_end;
    stats->m.resize(static_cast<std::size_t>(p.num_heads));
    stats->l.resize(static_cast<std::size_t>(p.num_heads));
    double projections_ms = 0.0;
    double stats_ms = 0.0;
    double pooling_ms = 0.0;
    const auto start = Clock::now();

    std::vector<double> reduced;
    ImageFinisher finisher(grid, mask, request.quantity, request.pooling);
    const Matrix rope = problem_rope_table(p);  // max(N, M) × d_k: 16 MiB at 65,536 tokens and d_k 64
    const std::vector<float> slopes = head_slopes(p);
    for (const int h : checked.heads) {
      const int g = p.kv_head_of(h);
      const bool known = request.known_stats && request.known_stats->covers(h, w.row_begin, w.row_end);
      const bool needs_stats = weights && !known;
      auto t = Clock::now();
      RowMajor q = project(p.x, w.row_begin, w.row_end, p.wq, h * p.d_k, p.d_k);
      const int key_begin = needs_stats ? 0 : w.col_begin;
      RowMajor k = project(p.xs, key_begin, needs_stats ? p.m() : w.col_end, p.wk, g * p.d_k, p.d_k);
      if (p.positional == PositionalKind::Rope) {
        rotate(q, rope, w.row_begin);
        rotate(k, rope, key_begin);
      }
      projections_ms += ms_since(t);
      const cpu::HeadOperands head{q, w.row_begin, k, key_begin, p.scale, h, slopes[static_cast<std::size_t>(h)]};

      std::vector<float> offsets;
      if (weights) {
        t = Clock::now();
        std::vector<float>& m = stats->m[static_cast<std::size_t>(h)];
        std::vector<float>& l = stats->l[static_cast<std::size_t>(h)];
        if (known) {
          const RowStats& given = *request.known_stats;
          const auto first = static_cast<std::ptrdiff_t>(w.row_begin - given.row_begin);
          const auto& gm = given.m[static_cast<std::size_t>(h)];
          const auto& gl = given.l[static_cast<std::size_t>(h)];
          m.assign(gm.begin() + first, gm.begin() + first + w.rows());
          l.assign(gl.begin() + first, gl.begin() + first + w.rows());
        } else {
          m.resize(static_cast<std::size_t>(w.rows()));
          l.resize(static_cast<std::size_t>(w.rows()));
          cpu::row_stats(head, mask, m.data(), l.data(), context);
          out.stats_macs = context.macs.exchange(0) + out.stats_macs;
        }
        offsets.resize(m.size());
        for (std::size_t r = 0; r < m.size(); ++r) offsets[r] = weight_offset(m[r], l[r]);
        stats_ms += ms_since(t);
      }
      if (context.stopped) throw Cancelled();

      t = Clock::now();
      cpu::pool(head, mask, grid, request.quantity, request.pooling, offsets, reduced, context);
      out.pooling_macs += context.macs.exchange(0);
      if (context.stopped) throw Cancelled();
      out.heads.push_back(finisher.finish(h, reduced));
      pooling_ms += ms_since(t);
    }
    if (weights) out.stats = std::move(stats);
    out.timing.total_ms = ms_since(start);
    out.timing.stages_ms = {{"projections", projections_ms}, {"row stats", stats_ms}, {"pooling", pooling_ms}};
    return out;
  }
};

}  // namespace

std::unique_ptr<OverviewRunner> make_cpu_overview() { return std::make_unique<CpuOverview>(); }

}  // namespace attnviz::overview
