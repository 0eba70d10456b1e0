// The Eigen reference path. Products are Eigen GEMMs on row-major maps of the Problem's
// float32 matrices; the softmax is a vectorised pass over each row's visible keys.
//
// Shapes (N queries, M keys, H heads, G kv heads):
//   X: (N, d_model)  Xs: (M, d_model)
//   Q: (N, H·dk)  K: (M, G·dk)  V: (M, G·dv)
//   scores, weights: (H, N, M)  context: (H, N, dv)  output: (N, H·dv or d_out)
//
// Passes:
//   1. the mask (N × M bytes, for the Result) and the projections Q, K, V (threaded GEMMs),
//      with RoPE each head's rows of Q and K rotated at their positions;
//   2. per task = (head, block of query rows), on the OpenMP team:
//      scores of the block (only the keys some row of it sees, unless every raw score is
//      wanted), the masked softmax of each row (of the scaled scores plus ALiBi's bias), then
//      dropout, and the block's context A·V over the same keys; the block's rows × M scores and
//      weights are made in per-thread buffers that stay in cache between the steps, then copied
//      into the Result (with streaming stores once the matrices outgrow the caches);
//   3. the output: the heads' contexts side by side, times W_O when given.

#include "core/cpu/cpu_backend.h"

#include <Eigen/Core>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <span>
#include <vector>
#include <stdexcept>
#if defined(__SSE2__)
#include <immintrin.h>
#endif

#include "core/attention/mask.h"
#include "core/scenario/dropout.h"
#include "core/scenario/positions.h"

namespace attnviz {
namespace {

using RowMajor = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using ConstMap = Eigen::Map<const RowMajor>;
using MutableMap = Eigen::Map<RowMajor>;
using RowArrayMap = Eigen::Map<Eigen::Array<float, 1, Eigen::Dynamic>>;
using ConstRowArrayMap = Eigen::Map<const Eigen::Array<float, 1, Eigen::Dynamic>>;

ConstMap view(const Matrix& m) { return ConstMap(m.data.data(), m.rows, m.cols); }
MutableMap view(Matrix& m) { return MutableMap(m.data.data(), m.rows, m.cols); }
MutableMap rows_of(Matrix& m, int first, int count) { return MutableMap(m.row(first), count, m.cols); }
// Columns [first_col, first_col + cols) of rows [first_row, first_row + rows): one head's slice
// of the side-by-side Q, K or V.
using ColumnsMap = Eigen::Map<const RowMajor, Eigen::Unaligned, Eigen::OuterStride<>>;
ColumnsMap columns_of(const RowMajor& m, int first_row, int rows, int first_col, int cols) {
  return ColumnsMap(m.data() + static_cast<Eigen::Index>(first_row) * m.cols() + first_col, rows, cols,
                    Eigen::OuterStride<>(m.cols()));
}

class StageClock {
 public:
  explicit StageClock(Timing& timing) : timing_(timing), start_(Clock::now()), last_(start_) {}
  void stage(const char* name) {
    const auto t = Clock::now();
    timing_.stages_ms.emplace_back(name, milliseconds(last_, t));
    last_ = t;
  }
  void finish() { timing_.total_ms = milliseconds(start_, Clock::now()); }

 private:
  using Clock = std::chrono::steady_clock;
  static double milliseconds(Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double, std::milli>(b - a).count();
  }
  Timing& timing_;
  Clock::time_point start_;
  Clock::time_point last_;
};

// Query rows per task: the block's scores and weights (rows × M floats each) stay near 2 MiB
// each, in the last-level cache for the softmax, A·V and the copy out; more rows make the
// products more efficient (at N = 4096, 128 rows ran 20% faster than 16), at least 8 keep
// them efficient for wide M.
int rows_per_block(int m) { return std::clamp((1 << 19) / std::max(m, 1), 8, 128); }

// The keys any row of [first, first + count) sees, as one span (global columns outside it
// are handled one by one).
KeySpan block_span(const Mask& mask, int first, int count) {
  KeySpan block{std::numeric_limits<int>::max(), 0};
  for (int i = first; i < first + count; ++i) {
    const KeySpan row = mask.span(i);
    if (row.empty()) continue;
    block.begin = std::min(block.begin, row.begin);
    block.end = std::max(block.end, row.end);
  }
  return block.empty() ? KeySpan{} : block;
}

// Zeroes row i outside the keys it sees (the span and the extra global keys, which come in
// ascending order).
void zero_hidden(float* row, int m, KeySpan span, const Mask& mask, int i) {
  int cursor = 0;  // [0, cursor) is done
  auto keep = [&](int begin, int end) {
    if (begin > cursor) std::fill(row + cursor, row + begin, 0.0f);
    cursor = std::max(cursor, end);
  };
  bool span_kept = span.empty();
  mask.for_each_extra_key(i, span, [&](int j) {
    if (!span_kept && j > span.begin) {
      keep(span.begin, span.end);
      span_kept = true;
    }
    keep(j, j + 1);
  });
  if (!span_kept) keep(span.begin, span.end);
  keep(m, m);
}

// An aligned row for the exponentials: Eigen peels the unaligned start of a map with scalar
// code (std::exp, a different rounding from its vector exp), so working in an aligned buffer
// makes the weights independent of where the result rows happen to lie in memory.
using Scratch = Eigen::Array<float, 1, Eigen::Dynamic>;

// weights = softmax(scale · scores) over row i's visible keys; masked entries exactly 0, a
// row that sees nothing all 0. exp(x − max) ≤ 1 for every visible x, so nothing overflows.
void masked_softmax_row(const float* scores, float* weights, int m, float scale, const Mask& mask, int i,
                        Scratch& scratch) {
  // (The ALiBi path hands in its biased, scaled scores with scale 1: see biased_softmax_row.)
  const KeySpan span = mask.span(i);
  zero_hidden(weights, m, span, mask, i);
  float row_max = -std::numeric_limits<float>::infinity();
  if (!span.empty()) row_max = (ConstRowArrayMap(scores + span.begin, span.width()) * scale).maxCoeff();
  mask.for_each_extra_key(i, span, [&](int j) { row_max = std::max(row_max, scale * scores[j]); });
  if (row_max == -std::numeric_limits<float>::infinity()) return;  // nothing visible

  float sum = 0.0f;
  auto e = scratch.head(span.width());
  if (!span.empty()) {
    e = (ConstRowArrayMap(scores + span.begin, span.width()) * scale - row_max).exp();
    sum = e.sum();
  }
  mask.for_each_extra_key(i, span, [&](int j) {
    weights[j] = std::exp(scale * scores[j] - row_max);
    sum += weights[j];
  });
  const float inverse_sum = 1.0f / sum;
  if (!span.empty()) RowArrayMap(weights + span.begin, span.width()) = e * inverse_sum;
  mask.for_each_extra_key(i, span, [&](int j) { weights[j] *= inverse_sum; });
}

// With an expression: softmax over the row's runs. Each run's exponentials are made in the
// aligned scratch (as above, so the same score gives the same weight as on the named-field
// path) and copied out, then every visible weight is scaled by 1 / sum.
void masked_softmax_runs(const float* scores, float* weights, int m, float scale, std::span<const KeySpan> runs,
                         Scratch& scratch) {
  std::fill(weights, weights + m, 0.0f);
  float row_max = -std::numeric_limits<float>::infinity();
  for (const KeySpan& run : runs) {
    row_max = std::max(row_max, (ConstRowArrayMap(scores + run.begin, run.width()) * scale).maxCoeff());
  }
  if (row_max == -std::numeric_limits<float>::infinity()) return;  // nothing visible
  float sum = 0.0f;
  for (const KeySpan& run : runs) {
    auto e = scratch.head(run.width());
    e = (ConstRowArrayMap(scores + run.begin, run.width()) * scale - row_max).exp();
    sum += e.sum();
    RowArrayMap(weights + run.begin, run.width()) = e;
  }
  const float inverse_sum = 1.0f / sum;
  for (const KeySpan& run : runs) RowArrayMap(weights + run.begin, run.width()) *= inverse_sum;
}

// Zeroes a row outside its runs.
void zero_outside(float* row, int m, std::span<const KeySpan> runs) {
  int cursor = 0;
  for (const KeySpan& run : runs) {
    std::fill(row + cursor, row + run.begin, 0.0f);
    cursor = run.end;
  }
  std::fill(row + cursor, row + m, 0.0f);
}

// A block's scores and weights are computed in buffers kept per thread and copied into the
// Result once done. Past this many floats per head's matrix (4 MiB, more than the caches hold)
// the copy uses streaming stores, which write memory without first reading each line in: the
// path's N × N writes then cost half the memory traffic they cost in place.
constexpr std::size_t kStreamingFloats = std::size_t{1} << 20;

void copy_out(const float* from, float* to, std::size_t count, bool streaming) {
#if defined(__SSE2__)
  if (streaming) {
    std::size_t i = 0;
    for (; i < count && (reinterpret_cast<std::uintptr_t>(to + i) & 15) != 0; ++i) to[i] = from[i];
    for (; i + 4 <= count; i += 4) _mm_stream_ps(to + i, _mm_loadu_ps(from + i));
    for (; i < count; ++i) to[i] = from[i];
    _mm_sfence();  // the streamed lines are in memory before another thread reads the Result
    return;
  }
#endif
  (void)streaming;
  std::memcpy(to, from, count * sizeof(float));
}

// One task's (rows × M) scores and weights, in this thread's buffers (aligned, kept across tasks
// and recomputes: allocating per task would cost thousands of allocations at N = 4096).
class BlockRows {
 public:
  BlockRows(int count, int m) {
    thread_local RowMajor scores_buffer;
    thread_local RowMajor weights_buffer;
    if (scores_buffer.size() < static_cast<Eigen::Index>(count) * m) {
      scores_buffer.resize(count, m);
      weights_buffer.resize(count, m);
    }
    scores_ = scores_buffer.data();
    weights_ = weights_buffer.data();
    count_ = count;
    m_ = m;
  }
  MutableMap scores() const { return MutableMap(scores_, count_, m_); }
  MutableMap weights() const { return MutableMap(weights_, count_, m_); }
  // Into the head's rows [first, first + count).
  void copy_to(HeadResult& head, int first, bool streaming) const {
    const std::size_t floats = static_cast<std::size_t>(count_) * static_cast<std::size_t>(m_);
    copy_out(scores_, head.scores.row(first), floats, streaming);
    copy_out(weights_, head.weights.row(first), floats, streaming);
  }

 private:
  float* scores_ = nullptr;
  float* weights_ = nullptr;
  int count_ = 0;
  int m_ = 0;
};

// Gaps between the keys a block of rows sees shorter than this are computed anyway: a few
// extra products cost less than another matrix product.
constexpr int kMergeGap = 16;

// The keys some row of [first, first + count) of head h sees, as ascending runs (gaps shorter
// than kMergeGap filled).
void block_runs(const Mask& mask, int h, int first, int count, std::vector<KeySpan>& out,
                std::vector<KeySpan>& scratch) {
  out.clear();
  for (int i = first; i < first + count; ++i) {
    for (const KeySpan& run : mask.runs(h, i, scratch)) out.push_back(run);
  }
  std::sort(out.begin(), out.end(), [](const KeySpan& a, const KeySpan& b) { return a.begin < b.begin; });
  std::size_t kept = 0;
  for (const KeySpan& run : out) {
    if (kept > 0 && run.begin <= out[kept - 1].end + kMergeGap) {
      out[kept - 1].end = std::max(out[kept - 1].end, run.end);
    } else {
      out[kept++] = run;
    }
  }
  out.resize(kept);
}

// With ALiBi: the row's scaled scores plus the bias −slope·|i − j| into `logits` (the visible
// keys only), then the masked softmax of those with scale 1.
void biased_softmax_row(const float* scores, float* weights, int m, float scale, float slope, const Mask& mask, int i,
                        Scratch& scratch, Scratch& logits) {
  const KeySpan span = mask.span(i);
  for (int j = span.begin; j < span.end; ++j) logits[j] = scaled_score(scores[j], scale, slope, i, j);
  mask.for_each_extra_key(i, span, [&](int j) { logits[j] = scaled_score(scores[j], scale, slope, i, j); });
  masked_softmax_row(logits.data(), weights, m, 1.0f, mask, i, scratch);
}

// Dropout on row i of head h's weights (docs/design.md "Dropout"): the softmax's row kept in
// `before`, each weight dropped or scaled by 1/(1 − p), the kept set in `kept`.
void dropout_row(const DropoutRule& rule, int h, int i, float* weights, float* before, std::uint8_t* kept, int m) {
  std::copy(weights, weights + m, before);
  for (int j = 0; j < m; ++j) {
    const bool keep = rule.keeps(h, i, j);
    kept[j] = keep ? 1 : 0;
    weights[j] = keep ? weights[j] * rule.keep_scale : 0.0f;
  }
}

class CpuBackend final : public Backend {
 public:
  [[nodiscard]] std::string name() const override { return "cpu"; }

  [[nodiscard]] std::string device_name() const override {
    return "Eigen " + std::to_string(EIGEN_WORLD_VERSION) + "." + std::to_string(EIGEN_MAJOR_VERSION) + "." +
           std::to_string(EIGEN_MINOR_VERSION) + " (" + std::to_string(Eigen::nbThreads()) + " threads)";
  }

  void run(const Problem& p, const ComputeOptions& options) override {
    has_result_ = false;
    attention_into(p, options, result_);
    has_result_ = true;
  }

  [[nodiscard]] const Result& result() const override {
    if (!has_result_) throw std::logic_error("CpuBackend::result called without a run");
    return result_;
  }

  [[nodiscard]] const Timing& timing() const override { return timing_; }

  void compute_into(const Problem& p, const ComputeOptions& options, Result& result) override {
    has_result_ = false;
    attention_into(p, options, result);
  }

 private:
  // The whole computation, into `result` (its storage reused when the shapes match).
  void attention_into(const Problem& p, const ComputeOptions& options, Result& result) {
    result.timing = Timing{};
    StageClock clock(result.timing);
    result.backend = name();
    result.device = device_name();
    result.tokens = p.tokens;
    result.source_tokens = p.source_tokens;
    const Mask mask(p.mask, p.n(), p.m(), p.num_heads);
    shape_result(p, result);
    fill_result_masks(mask, result);
    clock.stage("mask");

    project(p);
    clock.stage("projections");

    attend(p, mask, options, result);
    clock.stage("attention");

    if (p.wo) view(result.output).noalias() = concat_ * view(*p.wo);
    clock.stage("output");
    clock.finish();
    timing_ = result.timing;
  }

  // 1. Q, K, V into storage kept from the last recompute (Eigen resizes only on a new shape).
  void project(const Problem& p) {
    q_.resize(p.n(), p.wq.cols);
    k_.resize(p.m(), p.wk.cols);
    v_.resize(p.m(), p.wv.cols);
    q_.noalias() = view(p.x) * view(p.wq);   // (N, H·dk)
    k_.noalias() = view(p.xs) * view(p.wk);  // (M, G·dk)
    v_.noalias() = view(p.xs) * view(p.wv);  // (M, G·dv)
    if (p.positional == PositionalKind::Rope) rotate(p);
  }

  // RoPE: every head's d_k columns of row r of Q and K turned by row r of the table.
  void rotate(const Problem& p) {
    const Matrix table = problem_rope_table(p);
    for (int r = 0; r < p.n(); ++r) {
      for (int h = 0; h < p.num_heads; ++h) rope_rotate(q_.row(r).data() + h * p.d_k, table.row(r), p.d_k);
    }
    for (int r = 0; r < p.m(); ++r) {
      for (int g = 0; g < p.num_kv_heads; ++g) rope_rotate(k_.row(r).data() + g * p.d_k, table.row(r), p.d_k);
    }
  }

  void shape_result(const Problem& p, Result& result) {
    result.heads.resize(static_cast<std::size_t>(p.num_heads));
    for (HeadResult& head : result.heads) {
      head.scores.reshape(p.n(), p.m());
      head.weights.reshape(p.n(), p.m());
      head.context.reshape(p.n(), p.d_v);
      head.weights_before_dropout.reshape(p.dropout ? p.n() : 0, p.dropout ? p.m() : 0);
      head.kept.reshape(p.dropout ? p.n() : 0, p.dropout ? p.m() : 0);
    }
    slopes_ = head_slopes(p);
    streaming_ = static_cast<std::size_t>(p.n()) * static_cast<std::size_t>(p.m()) >= kStreamingFloats;
    dropout_ = dropout_rule(p.dropout);
    const int concat_cols = p.num_heads * p.d_v;
    if (p.wo) {
      concat_.resize(p.n(), concat_cols);
      result.output.reshape(p.n(), p.wo->cols);
    } else {
      result.output.reshape(p.n(), concat_cols);
    }
  }

  // 2. Every (head, row block) task on the OpenMP team; Eigen's GEMMs inside run on the
  // calling thread (Eigen does not nest parallelism).
  void attend(const Problem& p, const Mask& mask, const ComputeOptions& options, Result& result) {
    const int block_rows = rows_per_block(p.m());
    const int blocks = (p.n() + block_rows - 1) / block_rows;
    const int tasks = p.num_heads * blocks;
    // Small problems (the window's usual sentences) stay on this thread: waking the team
    // costs more than the work, and on a busy machine its spinning threads cost tens of ms.
    const double flops = 2.0 * p.num_heads * p.n() * static_cast<double>(p.m()) * (p.d_k + p.d_v);
    const bool worth_threads = flops >= 4e6 && tasks > 1;
#pragma omp parallel for schedule(dynamic, 1) if (worth_threads)
    for (int task = 0; task < tasks; ++task) {
      const int head = task / blocks;
      const int first = (task % blocks) * block_rows;
      if (mask.general()) {
        attend_block_runs(p, mask, options, head, first, std::min(block_rows, p.n() - first), result);
      } else {
        attend_block(p, mask, options, head, first, std::min(block_rows, p.n() - first), result);
      }
    }
  }

  // One task's operands: head h's rows [first, first + count) against every key.
  struct BlockTask {
    HeadResult& head;
    ColumnsMap q;        // (count, dk)
    ColumnsMap k;        // (M, dk)
    ColumnsMap v;        // (M, dv)
    BlockRows block;     // this thread's (count, M) buffers
    MutableMap scores;   // (count, M)
    MutableMap weights;  // (count, M)
    MutableMap context;  // (count, dv), the head's own rows
  };

  BlockTask block_task(const Problem& p, int h, int first, int count, Result& result) const {
    HeadResult& head = result.heads[static_cast<std::size_t>(h)];
    const int g = p.kv_head_of(h);
    const BlockRows block(count, p.m());
    return BlockTask{head,
                     columns_of(q_, first, count, h * p.d_k, p.d_k),
                     columns_of(k_, 0, p.m(), g * p.d_k, p.d_k),
                     columns_of(v_, 0, p.m(), g * p.d_v, p.d_v),
                     block,
                     block.scores(),
                     block.weights(),
                     rows_of(head.context, first, count)};
  }

  void attend_block(const Problem& p, const Mask& mask, const ComputeOptions& options, int h, int first, int count,
                    Result& result) {
    const int m = p.m();
    auto [head, q, k, v, block, scores, weights, context] = block_task(p, h, first, count, result);
    const KeySpan keys = block_span(mask, first, count);
    const std::vector<int>& globals = mask.global_columns();
    auto outside = [&](int j) { return !keys.contains(j); };

    // 2a. Raw scores of the keys the block's rows see, then (unless only those are wanted)
    // of the rest. Each visible score comes from the same product either way, so weights,
    // contexts and output do not depend on ComputeOptions::scores_under_mask.
    if (!keys.empty()) {
      scores.middleCols(keys.begin, keys.width()).noalias() = q * k.middleRows(keys.begin, keys.width()).transpose();
    }
    if (options.scores_under_mask) {
      const int before = keys.empty() ? m : keys.begin;
      if (before > 0) scores.leftCols(before).noalias() = q * k.topRows(before).transpose();
      if (!keys.empty() && keys.end < m)
        scores.rightCols(m - keys.end).noalias() = q * k.bottomRows(m - keys.end).transpose();
    }
    for (const int j : globals) {
      if (outside(j)) scores.col(j).noalias() = q * k.row(j).transpose();
    }

    // 2b. The masked softmax of each row (and, in the fast mode, raw scores of masked pairs
    // read as 0, as on the Vulkan path).
    // One per thread, kept across tasks and recomputes: a task is a few rows, and
    // allocating per task would cost thousands of allocations per recompute at N = 4096.
    thread_local Scratch scratch;
    thread_local Scratch logits;
    if (scratch.size() < m) scratch.resize(m);
    const float slope = slopes_[static_cast<std::size_t>(h)];
    if (slope != 0.0f && logits.size() < m) logits.resize(m);
    for (int r = 0; r < count; ++r) {
      const int i = first + r;
      if (slope != 0.0f)
        biased_softmax_row(scores.row(r).data(), weights.row(r).data(), m, p.scale, slope, mask, i, scratch, logits);
      else
        masked_softmax_row(scores.row(r).data(), weights.row(r).data(), m, p.scale, mask, i, scratch);
      if (!options.scores_under_mask) zero_hidden(scores.row(r).data(), m, mask.span(i), mask, i);
      if (dropout_.active) drop_row(h, i, weights.row(r).data(), head);
    }

    // 2c. Context A·V: weights outside the block's keys are exactly 0, so they add nothing.
    if (keys.empty()) {
      context.setZero();
    } else {
      context.noalias() = weights.middleCols(keys.begin, keys.width()) * v.middleRows(keys.begin, keys.width());
    }
    for (const int j : globals) {
      if (outside(j)) context.noalias() += weights.col(j) * v.row(j);
    }

    block.copy_to(head, first, streaming_);
    place_context(p, h, first, count, context, result);
  }

  // attend_block for a mask with an expression: the same three steps over the runs of the
  // block's rows (their union for the products, each row's own for its softmax).
  void attend_block_runs(const Problem& p, const Mask& mask, const ComputeOptions& options, int h, int first, int count,
                         Result& result) {
    const int m = p.m();
    auto [head, q, k, v, block, scores, weights, context] = block_task(p, h, first, count, result);
    thread_local std::vector<KeySpan> keys;
    thread_local std::vector<KeySpan> scratch;
    block_runs(mask, h, first, count, keys, scratch);

    if (options.scores_under_mask) {
      scores.noalias() = q * k.transpose();
    } else {
      for (const KeySpan& run : keys) {
        scores.middleCols(run.begin, run.width()).noalias() = q * k.middleRows(run.begin, run.width()).transpose();
      }
    }
    thread_local Scratch exps;
    thread_local Scratch logits;
    if (exps.size() < m) exps.resize(m);
    const float slope = slopes_[static_cast<std::size_t>(h)];
    if (slope != 0.0f && logits.size() < m) logits.resize(m);
    for (int r = 0; r < count; ++r) {
      const int i = first + r;
      const std::span<const KeySpan> row = mask.runs(h, i, scratch);
      if (slope != 0.0f) {  // ALiBi: the biased, scaled scores of the visible keys, then scale 1
        for (const KeySpan& run : row) {
          for (int j = run.begin; j < run.end; ++j) logits[j] = scaled_score(scores(r, j), p.scale, slope, i, j);
        }
        masked_softmax_runs(logits.data(), weights.row(r).data(), m, 1.0f, row, exps);
      } else {
        masked_softmax_runs(scores.row(r).data(), weights.row(r).data(), m, p.scale, row, exps);
      }
      if (!options.scores_under_mask) zero_outside(scores.row(r).data(), m, row);
      if (dropout_.active) drop_row(h, i, weights.row(r).data(), head);
    }
    context.setZero();
    for (const KeySpan& run : keys) {
      context.noalias() += weights.middleCols(run.begin, run.width()) * v.middleRows(run.begin, run.width());
    }
    block.copy_to(head, first, streaming_);
    place_context(p, h, first, count, context, result);
  }

  // Dropout on row i of head h's weights, the softmax's row kept in weights_before_dropout.
  void drop_row(int h, int i, float* weights, HeadResult& head) const {
    const int m = head.weights.cols;
    dropout_row(dropout_, h, i, weights, head.weights_before_dropout.row(i),
                head.kept.visible.data() + static_cast<std::size_t>(i) * static_cast<std::size_t>(m), m);
  }

  // 3 (in part). The heads side by side: the block's context is the output itself without W_O.
  void place_context(const Problem& p, int h, int first, int count, const MutableMap& context, Result& result) {
    if (p.wo) {
      concat_.block(first, h * p.d_v, count, p.d_v) = context;
    } else {
      rows_of(result.output, first, count).middleCols(h * p.d_v, p.d_v) = context;
    }
  }

  RowMajor q_, k_, v_;
  std::vector<float> slopes_;  // per head: ALiBi's slope, 0 without ALiBi
  DropoutRule dropout_;
  bool streaming_ = false;  // the block copies stream (kStreamingFloats)
  RowMajor concat_;         // (N, H·dv), only with W_O
  Result result_;           // of the last run(), kept from one run to the next
  bool has_result_ = false;
  Timing timing_;  // of the last run() or compute_into()
};

}  // namespace

std::unique_ptr<Backend> make_cpu_backend() { return std::make_unique<CpuBackend>(); }

}  // namespace attnviz
