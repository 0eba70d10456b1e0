#pragma once
// The overview: an exact pooled image of one head's attention for sequences far beyond what
// the materialised path holds (to 65,536 tokens), never holding N × M. From the tiled
// online-softmax algorithm (core/tiled, FlashAttention-2):
//
//   pass 1  (weights only) every row's maximum m and sum l = Σ exp(s − m) over its visible
//           keys, walking the keys tile by tile (online_softmax.h), for the window's rows;
//   pass 2  the window's scores again, tile by tile, each cell's exact weight exp(s − m) / l
//           (or its raw or scaled score) reduced into the pixel block it falls in.
//
// Pooling (docs/design.md "Overview"): Max, the largest value of the block; Mean, the mean of
// the block. Weights pool over every cell of the block (a hidden cell's weight is exactly 0, as
// in the dense matrix); raw and scaled scores over the block's visible cells. A block the mask
// hides entirely is "hidden" (drawn hatched; its value is 0). Tiles the mask hides are skipped.
//
// Two runners behind one interface: Eigen on the CPU (overview_cpu.cpp) and a Vulkan kernel
// pair (overview_vulkan.cpp, shaders/overview_*.comp). Both can be stopped from another thread
// (Progress::request_stop) and report how far they are.

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/attention/result.h"
#include "core/overview/pixel_grid.h"
#include "core/scenario/problem.h"
#include "core/text/sentence_tokens.h"

namespace attnviz::overview {

// The longest sequence (queries or keys) an overview takes: the longest sentence of any view.
inline constexpr int kMaxOverviewTokens = kMaxSentenceTokens;

enum class Quantity { Weights, RawScores, ScaledScores };
enum class Pooling { Max, Mean };

const char* quantity_name(Quantity quantity);  // "weights", "scores", "scaled"
std::optional<Quantity> quantity_from_name(const std::string& name);
const char* pooling_name(Pooling pooling);  // "max", "mean"
std::optional<Pooling> pooling_from_name(const std::string& name);

// Each row's m and l over all its visible keys (pass 1), for rows [row_begin, row_end) of
// every head: the window can pass them back to skip pass 1 when it zooms into those rows.
struct RowStats {
  int row_begin = 0;
  int row_end = 0;
  std::vector<std::vector<float>> m;  // per head (all H): per row, −∞ for a row that sees nothing
  std::vector<std::vector<float>> l;  // per head: per row, 0 for a row that sees nothing

  [[nodiscard]] bool covers(int head, int first, int end) const;
};

struct OverviewRequest {
  std::optional<CellWindow> window;  // nullopt: the whole matrix
  int max_pixel_rows = 1024;
  int max_pixel_cols = 1024;
  Quantity quantity = Quantity::Weights;
  Pooling pooling = Pooling::Max;
  std::vector<int> heads;  // query heads to pool; empty: every head
  // Row statistics from an earlier run on the same problem: pass 1 is skipped for the heads and
  // rows they cover.
  std::shared_ptr<const RowStats> known_stats;
};

// One head's pooled image: grid.rows × grid.cols pixel blocks, row-major.
struct PooledImage {
  int head = 0;
  std::vector<float> values;         // the pooled value (0 for a hidden block)
  std::vector<std::uint8_t> hidden;  // 1: the mask hides every cell of the block

  [[nodiscard]] float at(const PixelGrid& grid, int r, int c) const {
    return values[static_cast<std::size_t>(r) * static_cast<std::size_t>(grid.cols) + static_cast<std::size_t>(c)];
  }
  [[nodiscard]] bool hidden_at(const PixelGrid& grid, int r, int c) const {
    return hidden[static_cast<std::size_t>(r) * static_cast<std::size_t>(grid.cols) + static_cast<std::size_t>(c)] != 0;
  }
};

struct Overview {
  std::string backend;  // "cpu" or "vulkan"
  std::string device;
  PixelGrid grid;
  Quantity quantity = Quantity::Weights;
  Pooling pooling = Pooling::Max;
  std::vector<PooledImage> heads;  // in the order asked for
  // The m and l pass 1 computed (or known_stats when it was skipped): null for scores.
  std::shared_ptr<const RowStats> stats;
  // The multiply-adds of the score products the run did (d_k per computed cell, hidden tiles
  // skipped): pass 1 and pass 2 apart. For the benchmarks' rates.
  std::int64_t stats_macs = 0;
  std::int64_t pooling_macs = 0;
  Timing timing;  // stages "projections", "row stats", "pooling"
};

// The stop flag and the progress of a run, shared with another thread (the window's). A
// runner checks the flag between chunks of work (a tile per thread, a dispatch on the GPU)
// and throws Cancelled soon after it is set.
class Progress {
 public:
  void request_stop() { stop_.store(true); }
  [[nodiscard]] bool stop_requested() const { return stop_.load(); }
  // 0 .. 1 of the work of the current run.
  [[nodiscard]] double fraction() const;
  // False while the runner prepares, before it knows its work: a mask expression's runs take
  // seconds to find over 65,536 tokens, and the window says so rather than show 0 %.
  [[nodiscard]] bool started() const { return total_.load() > 0; }

  // For runners: the amount of work (any unit) and what is done of it.
  void start(std::int64_t total);
  void add(std::int64_t done) { done_.fetch_add(done); }

 private:
  std::atomic<bool> stop_{false};
  std::atomic<std::int64_t> done_{0};
  std::atomic<std::int64_t> total_{0};
};

class Cancelled : public std::runtime_error {
 public:
  Cancelled() : std::runtime_error("the overview was cancelled") {}
};

class OverviewRunner {
 public:
  virtual ~OverviewRunner() = default;
  OverviewRunner() = default;
  OverviewRunner(const OverviewRunner&) = delete;
  OverviewRunner& operator=(const OverviewRunner&) = delete;

  [[nodiscard]] virtual std::string name() const = 0;
  // Throws std::invalid_argument for a window outside the matrix, a head that does not exist or
  // too many tokens; Cancelled when `progress` asked it to stop.
  virtual Overview run(const Problem& problem, const OverviewRequest& request, Progress* progress = nullptr) = 0;
};

std::unique_ptr<OverviewRunner> make_cpu_overview();

// The checks every runner makes; returns the grid and the heads (every head when none asked).
struct CheckedRequest {
  PixelGrid grid;
  std::vector<int> heads;
};
CheckedRequest check_request(const Problem& problem, const OverviewRequest& request);

}  // namespace attnviz::overview
