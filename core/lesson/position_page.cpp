// The Positions page: where the scenario's positional kind enters attention, with the followed
// word's numbers before and after, and a picture of one frequency pair turning with position.
//   none        Q and K carry no position: attention sees a bag of words
//   sinusoidal  X + PE before the projections (Vaswani et al. 2017)
//   RoPE        each head's q and k turned after the projections (Su et al. 2021)
//   ALiBi       −m_h·|i − j| added to the scaled scores (Press et al. 2022)

#include <cmath>

#include "core/common/number_text.h"
#include "core/lesson/step_pages.h"
#include "core/scenario/positions.h"

namespace attnviz::lesson {
namespace {

std::vector<double> row_of(const Matrix& matrix, int row) {
  return std::vector<double>(matrix.row(row), matrix.row(row) + matrix.cols);
}

std::string pair_name(int i, int j) { return "(d" + std::to_string(i) + ", d" + std::to_string(j) + ")"; }

// θ as a user typed it: "10000", "500000", "500.5".
std::string theta_text(double theta) {
  if (theta == std::floor(theta) && theta < 1e9) return std::to_string(static_cast<long long>(theta));
  return format_significant(theta, 6);
}

}  // namespace

StepPage PageBuilder::positions() const {
  StepPage page;
  const int n = problem_.n();
  const int offset = problem_.position_offset;
  const std::string first = offset == 0 ? "" : " " + w_.tr("(positions start at %1$s)", {std::to_string(offset)});
  switch (problem_.positional) {
    case PositionalKind::None: {
      page.title = w_.tr("Positions: none in this scenario");
      page.formula = w_.tr("%1$s and %2$s depend only on the words, not on where they stand", {"Q" + h_, "K" + g_});
      page.note = w_.tr(
          "Without positions attention is a bag of words: swap two words and their rows of weights swap "
          "with them, nothing else changes. Choose sinusoidal, RoPE or ALiBi in the Model panel to see "
          "how each one tells the model where a word is.");
      const HeadProjections hp = model_.head(focus_.head);
      ShownMatrix q = owned("Q" + h_, hp.q, true, false);
      q.col_labels = dims_k_;
      ShownMatrix k = owned("K" + g_, hp.k, false, false);
      k.col_labels = dims_k_;
      page.matrices = {std::move(q), std::move(k)};
      page.trace.push_back(w_.tr("%1$s is the same wherever %2$s stands", {"q[" + query_label() + "]", query_label()}));
      break;
    }
    case PositionalKind::Sinusoidal: {
      const int d = problem_.d_model();
      page.title = w_.tr("Positions: a sinusoidal table added to X");
      const char* table_formula =
          "X' = X + PE,   PE(pos, 2i) = sin(pos / 10000^(2i/d)),   PE(pos, 2i+1) = cos(pos / 10000^(2i/d))";  // not translated
      page.formula = table_formula + first;
      if (d % 2 != 0)
        page.formula += "\n" + w_.tr("d_model = %1$s is odd: its last column is a sine without a cosine partner",
                                     {std::to_string(d)});
      page.note = w_.tr(
          "Vaswani et al. 2017: each pair of columns is a sine and a cosine turning more slowly from pair to "
          "pair, so every position gets its own pattern. It is added to the embeddings before the "
          "projections: page 2's Q, K and V were made from X + PE.");
      const Matrix table = sinusoidal_table(offset, n, d);
      ShownMatrix pe = owned("PE", table, true, false);
      pe.col_labels = dims_model_;
      ShownMatrix sum = borrowed("X + PE", problem_.x, true, false);  // not translated: notation
      sum.col_labels = dims_model_;
      page.matrices = {std::move(pe), std::move(sum)};
      const Matrix& x = *problem_.x_tokens;
      page.trace.push_back(w_.tr("position of %1$s: %2$s", {query_label(), std::to_string(offset + focus_.query)}));
      page.trace.push_back("x  = " + format_vector(row_of(x, focus_.query), focus_.decimals));
      const std::string pe_row = format_vector(row_of(table, focus_.query), focus_.decimals);
      page.trace.push_back("pe = " + pe_row);  // not translated: notation
      page.trace.push_back(
          "x + pe = " + format_vector(row_of(problem_.x, focus_.query), focus_.decimals));  // not translated: notation
      if (d >= 2) {
        TurningPair turning;
        turning.caption = w_.tr("PE columns %1$s = (sin pos, cos pos): 1 radian per position", {pair_name(0, 1)});
        for (int r = 0; r < n; ++r) {
          turning.x.push_back(table.at(r, 0));
          turning.y.push_back(table.at(r, 1));
        }
        turning.labels = result_.tokens;
        turning.followed = focus_.query;
        page.turning = std::move(turning);
      }
      break;
    }
    case PositionalKind::Rope: {
      const HeadProjections hp = model_.head(focus_.head);
      const int half = problem_.d_k / 2;
      const std::vector<double> frequencies = rope_frequencies(problem_.d_k, problem_.rope_theta);
      page.title = w_.tr("Positions: RoPE turns q and k");
      page.formula = "q' = R(pos)\u00b7q,  k' = R(pos)\u00b7k:  " +  // not translated: notation
                     w_.tr("pair %1$s turns by %2$s", {"(i, i + " + std::to_string(half) + ")",
                                                       "pos \u00b7 " + theta_text(problem_.rope_theta) +
                                                           "^(\u22122i/" +  // not translated: notation
                                                           std::to_string(problem_.d_k) + ")"}) +
                     first;
      page.note = w_.tr(
          "Su et al. 2021 (Hugging Face's rotate-half): q and k are turned by angles that grow with position, "
          "so q'\u00b7k' depends only on how far apart the two words are. Shift every position by the same "
          "amount and not one score changes.");
      ShownMatrix q = owned("Q" + h_, hp.q_unrotated, true, false);
      ShownMatrix q_turned = owned(w_.tr("%1$s after RoPE", {"Q" + h_}), hp.q, true, false);
      ShownMatrix k = owned("K" + g_, hp.k_unrotated, false, false);
      ShownMatrix k_turned = owned(w_.tr("%1$s after RoPE", {"K" + g_}), hp.k, false, false);
      for (ShownMatrix* m : {&q, &q_turned, &k, &k_turned}) m->col_labels = dims_k_;
      k.key_rows = k_turned.key_rows = true;
      page.matrices = {std::move(q), std::move(q_turned), std::move(k), std::move(k_turned)};
      const int key = focus_.key;
      const int row = focus_.query;
      page.trace.push_back(w_.tr("%1$s stands at position %2$s", {query_label(), std::to_string(offset + row)}));
      page.trace.push_back("q  = " + format_vector(row_of(hp.q_unrotated, row), focus_.decimals));
      page.trace.push_back("q' = " + format_vector(row_of(hp.q, row), focus_.decimals));
      if (!problem_.cross_attention) {
        page.trace.push_back("k  = " + format_vector(row_of(hp.k_unrotated, row), focus_.decimals));
        page.trace.push_back("k' = " + format_vector(row_of(hp.k, row), focus_.decimals));
      }
      fill_pairs(page.table, frequencies);
      page.trace_after.push_back(
          w_.tr("q'\u00b7k'[%1$s at %2$s] = %3$s: the same at any first position (click a "
                "row of K to pick the key)",
                {key_label(key), std::to_string(offset + key),
                 num(result_.heads[static_cast<std::size_t>(focus_.head)].scores.at(row, key))}));
      TurningPair turning;
      turning.caption = w_.tr("pair 0 %1$s of %2$s: %3$s radian per position",
                              {pair_name(0, half), "q[" + query_label() + "]", format_significant(frequencies[0])});
      const double a = hp.q_unrotated.at(focus_.query, 0);
      const double b = hp.q_unrotated.at(focus_.query, half);
      for (int r = 0; r < n; ++r) {  // where q's pair would be, were the word at position r
        const double angle = (offset + r) * frequencies[0];
        turning.x.push_back(a * std::cos(angle) - b * std::sin(angle));
        turning.y.push_back(b * std::cos(angle) + a * std::sin(angle));
      }
      turning.labels = result_.tokens;
      turning.followed = focus_.query;
      turning.has_key = true;
      turning.key_x = hp.k.at(key, 0);
      turning.key_y = hp.k.at(key, half);
      turning.key_label = "k[" + key_label(key) + "]";
      const int gap = focus_.query - key;
      turning.angle_text = w_.tr("q' turned %1$s \u00d7 %2$s rad further than k' (their positions differ by %1$s)",
                                 {std::to_string(gap), format_significant(frequencies[0])});
      page.turning = std::move(turning);
      break;
    }
    case PositionalKind::Alibi: {
      const int heads = problem_.num_heads;
      const float slope = head_slopes(problem_)[static_cast<std::size_t>(focus_.head)];
      page.title = w_.tr("Positions: ALiBi's distance penalty");
      const std::string slope_text = format_significant(slope);
      page.formula = "s'[i,j] = scale\u00b7s[i,j] \u2212 m" + h_ +  // not translated: notation
                     "\u00b7|i \u2212 j|,   m" + h_ + " = " + slope_text;
      page.formula +=
          "\n" + ((heads & (heads - 1)) == 0
                      ? w_.tr("slopes m_h = 2^(\u22128(h+1)/H), H = %1$s", {std::to_string(heads)})
                      : w_.tr("H = %1$s is not a power of two: the slopes of the nearest power below, then every "
                              "other slope of twice that",
                              {std::to_string(heads)}));
      page.note = w_.tr(
          "Press et al. 2022: no vector changes; each score is lowered in proportion to the distance "
          "between query and key, steeply in some heads and gently in others, so heads look near or far.");
      Matrix bias(n, problem_.m());
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < problem_.m(); ++j) bias.at(i, j) = alibi_bias(slope, i, j);
      page.matrices.push_back(
          owned(w_.tr("bias of head %1$s", {std::to_string(focus_.head)}), std::move(bias), true, true));
      if (focus_.include_matrices)
        page.matrices.push_back(
            owned(w_.tr("%1$s with the bias", {"S'" + h_}), model_.scaled_scores(focus_.head), true, true));
      for (int h = 0; h < heads; ++h) page.slopes.push_back(alibi_slope(h, heads));
      std::string slopes;
      for (int h = 0; h < heads; ++h)
        slopes += (h == 0 ? "" : ", ") + format_significant(page.slopes[static_cast<std::size_t>(h)]);
      page.trace.push_back(w_.trn("slopes of the %1$s head: %2$s", "slopes of the %1$s heads: %2$s",
                                  static_cast<unsigned long>(heads), {std::to_string(heads), slopes}));
      const QueryTrace trace = model_.trace(focus_.head, focus_.query);
      const std::string hidden = w_.tr("hidden");
      fill_table(page.table, {w_.tr("key"), "|i \u2212 j|", w_.tr("bias"), "s'"},
                 [&](int j) -> std::vector<std::string> {
                   const auto uj = static_cast<std::size_t>(j);
                   const std::string scaled = trace.visible[uj] != 0 ? num(trace.scaled[uj]) : hidden;
                   return {key_label(j), std::to_string(std::abs(focus_.query - j)), num(trace.bias[uj]), scaled};
                 });
      break;
    }
  }
  return page;
}

// RoPE's angles for the followed word, pair by pair: the angle it turns by, and its cos and sin.
void PageBuilder::fill_pairs(TraceTable& table, const std::vector<double>& frequencies) const {
  const int half = problem_.d_k / 2;
  const double pos = problem_.position_offset + focus_.query;
  const int shown = std::min(half, std::max(focus_.max_trace_keys, 1));
  table.header = {w_.tr("pair"), w_.tr("turns per position"), w_.tr("angle"), "cos", "sin"};
  for (int i = 0; i < shown; ++i) {
    const double angle = pos * frequencies[static_cast<std::size_t>(i)];
    table.rows.push_back({pair_name(i, half + i), format_significant(frequencies[static_cast<std::size_t>(i)]),
                          num(angle), num(std::cos(angle)), num(std::sin(angle))});
  }
  if (half > shown) {
    const int more = half - shown;
    table.more = w_.trn("\u2026 %1$s more pair", "\u2026 %1$s more pairs", static_cast<unsigned long>(more),
                        {std::to_string(more)});
  }
}

}  // namespace attnviz::lesson
