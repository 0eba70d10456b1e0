// The Eigen reference path. Every product is an Eigen GEMM on row-major maps of the
// Problem's float32 matrices; the softmax is a vectorised masked row pass.
//
// Shapes (N queries, M keys, H heads, G kv heads):
//   X: (N, d_model)  Xs: (M, d_model)
//   Q: (N, H·dk)  K: (M, G·dk)  V: (M, G·dv)
//   scores, weights: (H, N, M)  context: (H, N, dv)  output: (N, H·dv or d_out)

#include <Eigen/Core>
#include <chrono>
#include <cmath>
#include <limits>

#include "core/attention/backend.h"
#include "core/attention/mask.h"

#ifdef _OPENMP
#include <omp.h>
#endif

namespace attnviz {
namespace {

using RowMajor = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using ConstMap = Eigen::Map<const RowMajor>;
using MutableMap = Eigen::Map<RowMajor>;
using RowArray = Eigen::Array<float, 1, Eigen::Dynamic>;

ConstMap view(const Matrix& m) { return ConstMap(m.data.data(), m.rows, m.cols); }
MutableMap view(Matrix& m) { return MutableMap(m.data.data(), m.rows, m.cols); }

class StageClock {
 public:
  explicit StageClock(Timing& timing) : timing_(timing), start_(now()), last_(start_) {}
  void stage(const char* name) {
    const auto t = now();
    add(name, milliseconds(last_, t));
    last_ = t;
  }
  void finish() { timing_.total_ms = milliseconds(start_, now()); }

 private:
  using Clock = std::chrono::steady_clock;
  static Clock::time_point now() { return Clock::now(); }
  static double milliseconds(Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double, std::milli>(b - a).count();
  }
  void add(const char* name, double ms) {
    for (auto& [stage, total] : timing_.stages_ms) {
      if (stage == name) {
        total += ms;
        return;
      }
    }
    timing_.stages_ms.emplace_back(name, ms);
  }
  Timing& timing_;
  Clock::time_point start_;
  Clock::time_point last_;
};

// The mask as 0/1 floats, so the softmax can select with vectorised compares.
RowMajor visibility_as_float(const MaskMatrix& mask) {
  RowMajor visible(mask.rows, mask.cols);
  for (int i = 0; i < mask.rows; ++i) {
    for (int j = 0; j < mask.cols; ++j) visible(i, j) = mask.at(i, j) ? 1.0f : 0.0f;
  }
  return visible;
}

// weights = softmax_row(scale · scores) over visible entries; masked entries exactly 0,
// a row with nothing visible all 0.
void masked_softmax(const Matrix& scores, const RowMajor& visible, float scale, Matrix& weights) {
  const ConstMap s = view(scores);
  MutableMap w = view(weights);
  const float minus_infinity = -std::numeric_limits<float>::infinity();
  // Small matrices (the window's usual sentences) stay on one thread: waking an OpenMP team
  // costs more than the work, and on a busy machine its spinning threads cost tens of ms.
  const bool worth_threads = static_cast<long long>(s.rows()) * s.cols() >= 64 * 1024;
#pragma omp parallel for schedule(static) if (worth_threads)
  for (int i = 0; i < s.rows(); ++i) {
    const auto seen = visible.row(i).array() > 0.0f;
    const RowArray scaled = s.row(i).array() * scale;
    const float row_max = seen.select(scaled, minus_infinity).maxCoeff();
    if (row_max == minus_infinity) {
      w.row(i).setZero();
      continue;
    }
    // min(·, 0) keeps masked entries (which may exceed the visible max) finite before exp.
    const RowArray e = seen.select((scaled - row_max).min(0.0f).exp(), 0.0f);
    w.row(i) = (e / e.sum()).matrix();
  }
}

// Zeroes raw scores the mask hides (ComputeOptions::scores_under_mask == false), so both
// backends report the same matrix in that mode.
void clear_masked_scores(Matrix& scores, const MaskMatrix& mask) {
  for (std::size_t k = 0; k < scores.size(); ++k) {
    if (mask.visible[k] == 0) scores.data[k] = 0.0f;
  }
}

class CpuBackend final : public Backend {
 public:
  [[nodiscard]] std::string name() const override { return "cpu"; }

  [[nodiscard]] std::string device_name() const override {
    return "Eigen " + std::to_string(EIGEN_WORLD_VERSION) + "." + std::to_string(EIGEN_MAJOR_VERSION) + "." +
           std::to_string(EIGEN_MINOR_VERSION) + " (" + std::to_string(Eigen::nbThreads()) + " threads)";
  }

  Result compute(const Problem& p, const ComputeOptions& options) override {
    Result result;
    StageClock clock(result.timing);
    result.backend = name();
    result.device = device_name();
    result.tokens = p.tokens;
    result.source_tokens = p.source_tokens;
    result.mask = build_mask(p.mask, p.n(), p.m());
    result.masked_rows = fully_masked_rows(result.mask);
    const RowMajor visible = visibility_as_float(result.mask);
    clock.stage("mask");

    const RowMajor q = view(p.x) * view(p.wq);   // (N, H·dk)
    const RowMajor k = view(p.xs) * view(p.wk);  // (M, G·dk)
    const RowMajor v = view(p.xs) * view(p.wv);  // (M, G·dv)
    clock.stage("projections");

    RowMajor concat(p.n(), p.num_heads * p.d_v);  // (N, H·dv)
    result.heads.resize(static_cast<std::size_t>(p.num_heads));
    for (int h = 0; h < p.num_heads; ++h) {
      HeadResult& head = result.heads[static_cast<std::size_t>(h)];
      const int g = p.kv_head_of(h);
      head.scores = Matrix(p.n(), p.m());
      view(head.scores).noalias() = q.middleCols(h * p.d_k, p.d_k) * k.middleCols(g * p.d_k, p.d_k).transpose();
      clock.stage("scores");
      head.weights = Matrix(p.n(), p.m());
      masked_softmax(head.scores, visible, p.scale, head.weights);
      if (!options.scores_under_mask) clear_masked_scores(head.scores, result.mask);
      clock.stage("softmax");
      head.context = Matrix(p.n(), p.d_v);
      view(head.context).noalias() = view(head.weights) * v.middleCols(g * p.d_v, p.d_v);
      concat.middleCols(h * p.d_v, p.d_v) = view(head.context);
      clock.stage("context");
    }

    if (p.wo) {
      result.output = Matrix(p.n(), p.wo->cols);
      view(result.output).noalias() = concat * view(*p.wo);
    } else {
      result.output = Matrix(p.n(), p.num_heads * p.d_v);
      view(result.output) = concat;
    }
    clock.stage("output");
    clock.finish();
    return result;
  }
};

}  // namespace

std::unique_ptr<Backend> make_cpu_backend() { return std::make_unique<CpuBackend>(); }

}  // namespace attnviz
