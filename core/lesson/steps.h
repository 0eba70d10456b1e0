#pragma once
// The step-through lesson: the attention pipeline of docs/design.md as ten pages,
//   X → Q, K, V → positions → S = Q·Kᵀ → S·scale → mask → softmax → A·V → concat → W_O
// and an eleventh, the classic mistakes (mistakes.h) computed beside the right way. Each page
// has its formula, the matrices it shows (with shapes) and, for one selected query
// token, that token's numbers written out (the Korean tutorial's "follow 배" walk-through).
// UI-free: the window draws pages, tests check their numbers against the Result.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/attention/result.h"
#include "core/common/wording.h"
#include "core/lesson/mistakes.h"
#include "core/lesson/projections.h"
#include "core/lesson/query_trace.h"
#include "core/scenario/problem.h"

namespace attnviz::lesson {

enum class StepKind {
  Embeddings,
  Projections,
  Positions,
  Scores,
  Scaling,
  Masking,
  Softmax,
  Context,
  Concat,
  Output,
  Mistakes
};
inline constexpr int kStepCount = 11;

StepKind step_at(int index);           // 0-based; clamps into [0, kStepCount)
int step_index(StepKind kind);         // 0-based
const char* step_name(StepKind kind);  // "Embeddings", "Q, K, V", "Scores", ... (English: Wording::tr them)

struct ShownMatrix {
  // Values: any sign (a diverging colour scale); Weights: softmax output in [0, 1];
  // Mask: 1 = visible, 0 = hidden.
  enum class Kind { Values, Weights, Mask };
  std::string name;  // "Q₀", "S₀ = Q₀·K₀ᵀ"
  Kind kind = Kind::Values;
  // Shared so that pages can borrow the Result's matrices without copying them (non-owning
  // aliases, valid while the StepModel's Result lives) and own the ones they compute.
  std::shared_ptr<const Matrix> values;
  std::vector<std::string> row_labels;  // tokens, or "d0", "d1", ...
  std::vector<std::string> col_labels;
  // Rows are the query tokens (the view outlines the followed query's row, whichever it is
  // when drawn: pages are cached while the followed query changes); columns are the keys.
  bool query_rows = false;
  bool key_cols = false;
  bool key_rows = false;  // rows are the keys (K): clicking one selects that key
  // Columns that belong together, e.g. each head's d_v columns of the concatenation.
  struct ColumnGroup {
    int first = 0;
    int count = 0;
    std::string label;  // "C₀"
  };
  std::vector<ColumnGroup> column_groups;
  // The mask its hidden cells follow when not the problem's (the Mistakes page borrows a causal
  // one for a scenario without a mask).
  std::optional<MaskSetting> mask;
  // Weights after dropout: which ones dropout kept (the view hatches the others). Null otherwise.
  std::shared_ptr<const MaskMatrix> dropped;
  [[nodiscard]] std::string shape_text() const;  // "8 × 4"
};

// The followed query's numbers per key, one row each ("key", "s'", "exp(s' − m)", ...):
// columns line up on a projector where sentences of numbers would wrap.
struct TraceTable {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;  // one per key, cut at PageFocus::max_trace_keys
  int highlight_row = -1;                      // the selected cell's key, when shown
  std::string more;                            // "… 18 more keys" when cut
  [[nodiscard]] bool empty() const { return rows.empty(); }
};

// One frequency pair turning with position, for the Positions page's picture: the pair's two
// values at every position of the sentence (sinusoidal: the table's (sin, cos) columns 2i and
// 2i + 1; RoPE: the followed query's (q_i, q_{i+d_k/2}) as it would be turned at each position),
// and with RoPE the selected key's pair where it stands.
struct TurningPair {
  std::string caption;              // "pair 0 (d0, d2): 1 radian per position"
  std::vector<double> x, y;         // per token index 0 … N − 1
  std::vector<std::string> labels;  // the tokens
  int followed = 0;                 // the followed query's index
  bool has_key = false;             // RoPE: the key's pair at its own position
  double key_x = 0.0, key_y = 0.0;
  std::string key_label;
  std::string angle_text;  // "between q and k: (2 − 0) × 1 rad = 2 rad"
};

struct StepPage {
  StepKind kind = StepKind::Embeddings;
  int number = 1;       // 1-based, "step 4 of 11"
  std::string title;    // "4. Scores: every query against every key"
  std::string formula;  // "S₀ = Q₀·K₀ᵀ   (8 × 4)·(4 × 8) = 8 × 8"
  std::string note;     // one sentence of why
  std::vector<ShownMatrix> matrices;
  std::string trace_heading;                      // "Following 배 (query 2, head 0)"
  std::vector<std::string> trace;                 // the followed query's numbers, one line each
  TraceTable table;                               // then its numbers per key (some pages)
  std::vector<std::string> trace_after;           // lines after the table (sums, the arithmetic check)
  std::optional<TurningPair> turning;             // the Positions page (sinusoidal, RoPE)
  std::vector<double> slopes;                     // the Positions page with ALiBi: every head's slope
  Mistake mistake = Mistake::SoftmaxOverColumns;  // the Mistakes page: which one it shows
  bool links_to_scaling = false;                  // the Mistakes page on "no scaling": the Scaling page says more
};

struct PageFocus {
  int head = 0;
  int query = 0;  // the followed token (row)
  int key = 0;    // the selected cell's column (the arithmetic check on the Scores page)
  int decimals = 3;
  int max_trace_keys = 12;  // longer rows are cut with "… n more"
  // Vectors in table cells break after this many numbers (0: never), so a d_v = 8 value row
  // stays inside a projector's column instead of running off its edge.
  int vector_terms_per_line = 0;
  // false: text only (formula, note, trace), for redrawing the text when only the followed
  // query changes; the N × M matrices are not copied.
  bool include_matrices = true;
  Mistake mistake = Mistake::SoftmaxOverColumns;  // the Mistakes page's subject
};

// Borrows the Problem and Result: both must outlive the model (the window rebuilds it when
// its compute session produces a new result).
class StepModel {
 public:
  StepModel(const Problem& problem, const Result& result);

  [[nodiscard]] const Problem& problem() const { return *problem_; }
  [[nodiscard]] const Result& result() const { return *result_; }
  [[nodiscard]] const Projections& projections() const { return projections_; }

  // Throws std::out_of_range when focus names a head, query or key outside the problem. The
  // page's sentences and words are in `wording`'s language; its numbers, formulas and tokens
  // are the same in every language.
  [[nodiscard]] StepPage page(StepKind kind, const PageFocus& focus, const Wording& wording = {}) const;
  [[nodiscard]] std::vector<StepPage> pages(const PageFocus& focus, const Wording& wording = {}) const;

  [[nodiscard]] HeadProjections head(int head) const { return head_projections(*problem_, projections_, head); }
  [[nodiscard]] QueryTrace trace(int head, int query) const;
  [[nodiscard]] DotProductTerms dot_product(int head, int query, int key) const;

  // S·scale (+ ALiBi's bias) and the same with −∞ where masked (the Scaling and Masking pages' matrices).
  [[nodiscard]] Matrix scaled_scores(int head) const;
  [[nodiscard]] Matrix masked_scores(int head) const;
  // [C_0 | … | C_{H−1}] from the Result's contexts.
  [[nodiscard]] Matrix concatenated_contexts() const;

 private:
  void check_focus(const PageFocus& focus) const;

  const Problem* problem_;
  const Result* result_;
  Projections projections_;
};

// "q₀·k₂ = 0.360×0.250 + 0.250×0.300 + … = 0.325" (the arithmetic check's text).
std::string dot_product_text(const DotProductTerms& terms, const std::string& query_label, const std::string& key_label,
                             int decimals = 3);

// The same, a few terms per line, for a narrow column (a line never breaks inside a number):
//   "q[배]·k[배] =", "  0.360×0.300 + 0.250×0.290", "+ 0.230×0.220 + 0.260×0.360", "= 0.325"
std::vector<std::string> dot_product_lines(const DotProductTerms& terms, const std::string& query_label,
                                           const std::string& key_label, int decimals = 3, int terms_per_line = 2);

// "(-0.250)" for negative factors so "a×(-b)" reads unambiguously, else "0.250".
std::string factor_text(double value, int decimals = 3);

// "₀₁₂": a non-negative index in Unicode subscript digits.
std::string subscript(int index);

}  // namespace attnviz::lesson
