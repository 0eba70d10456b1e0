// The nine step pages. Formulas use the notation of docs/design.md; every number a page
// writes comes from the Result, the StepModel's projections or the QueryTrace.

#include "core/lesson/step_pages.h"

#include <cmath>

#include "core/common/text_excerpt.h"
#include "core/common/number_text.h"
#include "core/scenario/positions.h"

namespace attnviz::lesson {
namespace {

constexpr std::size_t kLabelCharacters = 48;  // of a token in the pages' text

std::vector<std::string> dimension_labels(int count) {
  std::vector<std::string> labels;
  // Counted from 0, like tokens, heads and every other axis in attnviz.
  for (int d = 0; d < count; ++d) labels.push_back("d" + std::to_string(d));
  return labels;
}

std::vector<double> row_as_doubles(const Matrix& matrix, int row) {
  return std::vector<double>(matrix.row(row), matrix.row(row) + matrix.cols);
}

std::string mask_description(const MaskSetting& mask, const Wording& w) {
  if (!mask.causal && !mask.window) return w.tr("no mask: every query sees every key");
  if (mask.window && !mask.global.empty()) {
    std::string globals;
    for (std::size_t g = 0; g < mask.global.size(); ++g)
      globals += (g == 0 ? "" : ", ") + std::to_string(mask.global[g]);
    const std::string r = std::to_string(*mask.window);
    return mask.causal ? w.tr("Longformer: window r = %1$s plus global tokens %2$s, causal", {r, globals})
                       : w.tr("Longformer: window r = %1$s plus global tokens %2$s", {r, globals});
  }
  if (mask.window) {
    const std::string r = std::to_string(*mask.window);
    return mask.causal ? w.tr("sliding window: i \u2212 %1$s \u2264 j \u2264 i", {r})
                       : w.tr("local window: |i \u2212 j| \u2264 %1$s", {r});
  }
  return w.tr("causal: query i sees keys j \u2264 i");
}

}  // namespace

PageBuilder::PageBuilder(const StepModel& model, const PageFocus& focus, const Wording& wording)
    : model_(model),
      problem_(model.problem()),
      result_(model.result()),
      focus_(focus),
      w_(wording),
      h_(subscript(focus.head)),
      g_(subscript(model.problem().kv_head_of(focus.head))),
      dims_k_(dimension_labels(model.problem().d_k)),
      dims_v_(dimension_labels(model.problem().d_v)),
      dims_model_(dimension_labels(model.problem().d_model())) {}

StepPage PageBuilder::build(StepKind kind) const {
  StepPage page;
  switch (kind) {
    case StepKind::Embeddings: page = embeddings(); break;
    case StepKind::Projections: page = projections(); break;
    case StepKind::Positions: page = positions(); break;
    case StepKind::Scores: page = scores(); break;
    case StepKind::Scaling: page = scaling(); break;
    case StepKind::Masking: page = masking(); break;
    case StepKind::Softmax: page = softmax(); break;
    case StepKind::Context: page = context(); break;
    case StepKind::Concat: page = concat(); break;
    case StepKind::Output: page = output(); break;
    case StepKind::Mistakes: page = mistakes(); break;
  }
  page.trace_heading = w_.tr("Following %1$s (query %2$s, head %3$s)",
                             {query_label(), format_grouped(focus_.query), std::to_string(focus_.head)});
  return page;
}

std::string PageBuilder::num(double value) const { return format_number(value, focus_.decimals); }

std::string PageBuilder::shape(int rows, int cols) const {
  return "(" + format_grouped(rows) + " \u00d7 " + format_grouped(cols) + ")";
}

std::string PageBuilder::query_label() const {
  return cut_text(result_.tokens.at(static_cast<std::size_t>(focus_.query)), kLabelCharacters);
}

std::string PageBuilder::key_label(int key) const {
  return cut_text(result_.source_tokens.at(static_cast<std::size_t>(key)), kLabelCharacters);
}

ShownMatrix PageBuilder::owned(std::string name, Matrix values, bool query_rows, bool key_cols) const {
  ShownMatrix shown;
  shown.name = std::move(name);
  shown.values = std::make_shared<const Matrix>(std::move(values));
  shown.row_labels = query_rows ? result_.tokens : result_.source_tokens;
  if (key_cols) shown.col_labels = result_.source_tokens;
  shown.query_rows = query_rows;
  shown.key_cols = key_cols;
  return shown;
}

ShownMatrix PageBuilder::borrowed(std::string name, const Matrix& values, bool query_rows, bool key_cols) const {
  ShownMatrix shown = owned(std::move(name), Matrix(), query_rows, key_cols);
  // Aliasing constructor with an empty owner: a non-owning pointer into the Result.
  shown.values = std::shared_ptr<const Matrix>(std::shared_ptr<const Matrix>(), &values);
  return shown;
}

StepPage PageBuilder::embeddings() const {
  StepPage page;
  page.title = w_.tr("Embeddings: one vector per token");
  page.formula = w_.tr("X %1$s: row i is token i's embedding", {shape(problem_.n(), problem_.d_model())});
  if (problem_.cross_attention)
    page.formula += "\n" + w_.tr("X_src %1$s: the source sentence", {shape(problem_.m(), problem_.d_model())});
  page.note = w_.tr("Attention never sees words, only these vectors.");
  const Matrix& tokens_x = problem_.x_tokens ? *problem_.x_tokens : problem_.x;  // before sinusoidal positions
  if (problem_.x_tokens) page.note += " " + w_.tr("Their positions are added next (page 3), before the projections.");
  ShownMatrix x = borrowed("X", tokens_x, true, false);
  x.col_labels = dims_model_;
  page.matrices.push_back(std::move(x));
  if (problem_.cross_attention) {
    const Matrix& source = problem_.xs_tokens ? *problem_.xs_tokens : problem_.xs;
    ShownMatrix xs = borrowed("X_src", source, false, false);  // not translated: notation
    xs.col_labels = dims_model_;
    page.matrices.push_back(std::move(xs));
  }
  page.trace.push_back("x[" + query_label() +
                       "] = " + format_vector(row_as_doubles(tokens_x, focus_.query), focus_.decimals));
  return page;
}

StepPage PageBuilder::projections() const {
  const HeadProjections hp = model_.head(focus_.head);
  const bool sinusoidal = problem_.positional == PositionalKind::Sinusoidal;
  const std::string x_name = sinusoidal ? "(X + PE)" : "X";  // not translated: notation
  const std::string source =
      problem_.cross_attention ? (sinusoidal ? "(X_src + PE)" : "X_src") : x_name;  // not translated: notation
  // With RoPE this page shows the projections before the rotation (the next page turns them).
  const Matrix& q_shown = hp.q_unrotated.empty() ? hp.q : hp.q_unrotated;
  const Matrix& k_shown = hp.k_unrotated.empty() ? hp.k : hp.k_unrotated;
  StepPage page;
  page.title = w_.tr("Queries, keys and values");
  page.formula = "Q" + h_ + " = " + x_name + "\u00b7W_Q" + h_ + "   " + shape(problem_.n(), problem_.d_model()) +
                 "\u00b7" + shape(problem_.d_model(), problem_.d_k) + " = " + shape(problem_.n(), problem_.d_k) + "\n" +
                 "K" + g_ + " = " + source + "\u00b7W_K" + g_ + "   V" + g_ + " = " + source + "\u00b7W_V" + g_ +
                 "   K: " + shape(problem_.m(), problem_.d_k) + "  V: " + shape(problem_.m(), problem_.d_v);
  page.note = w_.tr(
      "Three learned matrices turn each embedding into a query (what it looks for), a key (what it "
      "offers) and a value (what it passes on).");
  if (problem_.num_kv_heads < problem_.num_heads) {
    const int group = problem_.num_heads / problem_.num_kv_heads;
    const int first = problem_.kv_head_of(focus_.head) * group;
    page.note += " " + w_.tr("Heads %1$s\u2013%2$s share %3$s and %4$s.",
                             {std::to_string(first), std::to_string(first + group - 1), "K" + g_, "V" + g_});
  }
  ShownMatrix q = owned("Q" + h_, q_shown, true, false);
  q.col_labels = dims_k_;
  ShownMatrix k = owned("K" + g_, k_shown, false, false);
  k.col_labels = dims_k_;
  ShownMatrix v = owned("V" + g_, hp.v, false, false);
  v.col_labels = dims_v_;
  page.matrices = {std::move(q), std::move(k), std::move(v)};
  page.trace.push_back("q[" + query_label() + "] = x[" + query_label() + "]\u00b7W_Q" + h_ + " = " +
                       format_vector(row_as_doubles(q_shown, focus_.query), focus_.decimals));
  if (!problem_.cross_attention) {
    page.trace.push_back("k[" + query_label() +
                         "] = " + format_vector(row_as_doubles(k_shown, focus_.query), focus_.decimals));
    page.trace.push_back("v[" + query_label() +
                         "] = " + format_vector(row_as_doubles(hp.v, focus_.query), focus_.decimals));
  }
  return page;
}

StepPage PageBuilder::scores() const {
  const QueryTrace trace = model_.trace(focus_.head, focus_.query);
  StepPage page;
  page.title = w_.tr("Scores: every query against every key");
  page.formula = "S" + h_ + " = Q" + h_ + "\u00b7K" + g_ + "\u1d40   " + shape(problem_.n(), problem_.d_k) + "\u00b7" +
                 shape(problem_.d_k, problem_.m()) + " = " + shape(problem_.n(), problem_.m());
  page.note = w_.tr("Each score is a dot product: how well query i's question matches key j's offer.");
  page.matrices.push_back(borrowed("S" + h_, result_.heads[static_cast<std::size_t>(focus_.head)].scores, true, true));
  fill_table(page.table, {w_.tr("key"), "q[" + query_label() + "]\u00b7k"}, [&](int j) -> std::vector<std::string> {
    return {key_label(j), num(trace.scores[static_cast<std::size_t>(j)])};
  });
  page.trace_after.push_back(w_.tr("Check, cell (%1$s, %2$s):", {query_label(), key_label(focus_.key)}));
  const std::vector<std::string> check =
      dot_product_lines(model_.dot_product(focus_.head, focus_.query, focus_.key), query_label(), key_label(focus_.key),
                        focus_.decimals, problem_.d_k > 16 ? 4 : 2);
  page.trace_after.insert(page.trace_after.end(), check.begin(), check.end());
  return page;
}

StepPage PageBuilder::scaling() const {
  const QueryTrace trace = model_.trace(focus_.head, focus_.query);
  const auto inv_sqrt_dk = static_cast<float>(1.0 / std::sqrt(static_cast<double>(problem_.d_k)));
  StepPage page;
  page.title = w_.tr("Scaling the scores");
  if (problem_.scale == inv_sqrt_dk)
    page.formula = "S'" + h_ + " = S" + h_ + " / \u221ad_k = S" + h_ + " / \u221a" + std::to_string(problem_.d_k) +
                   " = S" + h_ + " \u00d7 " + num(problem_.scale);
  else if (problem_.scale == 1.0f)
    page.formula = "S'" + h_ + " = S" + h_ + "   " + w_.tr("(no scaling: the classic mistake)");
  else  // the Model panel's wording: a temperature T, scores × 1/T
    page.formula =
        "S'" + h_ + " = S" + h_ + " / T,   T = " + format_significant(1.0 / problem_.scale) + "   " +
        w_.tr("(scale 1/T = %1$s; 1/\u221ad_k would be %2$s)", {format_significant(problem_.scale), num(inv_sqrt_dk)});
  page.note =
      w_.tr("Dot products of d_k terms grow like \u221ad_k; dividing by \u221ad_k keeps the softmax from saturating.");
  if (focus_.include_matrices) page.matrices.push_back(owned("S'" + h_, model_.scaled_scores(focus_.head), true, true));
  if (trace.slope != 0.0f) {  // ALiBi: its bias is part of what the softmax sees
    page.formula += "\n" + w_.tr("+ ALiBi's bias %1$s", {"\u2212m" + h_ + "\u00b7|i \u2212 j|"}) + ",   m" + h_ +
                    " = " + format_significant(trace.slope);
    page.note +=
        " " + w_.tr("ALiBi then lowers each score by its head's slope times the distance between query and key.");
    fill_table(page.table, {w_.tr("key"), "s", w_.tr("bias"), "s'"}, [&](int j) -> std::vector<std::string> {
      const auto uj = static_cast<std::size_t>(j);
      return {key_label(j), num(trace.scores[uj]), num(trace.bias[uj]), num(trace.scaled[uj])};
    });
    return page;
  }
  fill_table(page.table, {w_.tr("key"), "s", "s' = s \u00d7 " + num(trace.scale)},
             [&](int j) -> std::vector<std::string> {
               const auto uj = static_cast<std::size_t>(j);
               return {key_label(j), num(trace.scores[uj]), num(trace.scaled[uj])};
             });
  return page;
}

StepPage PageBuilder::masking() const {
  const QueryTrace trace = model_.trace(focus_.head, focus_.query);
  StepPage page;
  page.title = w_.tr("Mask: hide the keys a query may not see");
  page.formula =
      w_.tr("s'[i,j] = \u2212\u221e where query i may not see key j") + "\n" + mask_description(problem_.mask, w_);
  page.note = w_.tr("exp(\u2212\u221e) = 0, so a hidden key gets weight exactly 0 in the next step.");
  if (focus_.include_matrices) {
    Matrix mask(result_.mask.rows, result_.mask.cols);
    for (std::size_t k = 0; k < mask.size(); ++k) mask.data[k] = result_.mask.visible[k] != 0 ? 1.0f : 0.0f;
    // Drawn as the Mask panel draws it, hidden cells hatched: a 0 or 1 in every cell would
    // only repeat what the hatching says.
    ShownMatrix shown_mask = owned(w_.tr("mask (hatched = hidden)"), std::move(mask), true, true);
    shown_mask.kind = ShownMatrix::Kind::Mask;
    page.matrices.push_back(std::move(shown_mask));
    page.matrices.push_back(owned(w_.tr("masked %1$s", {"S'" + h_}), model_.masked_scores(focus_.head), true, true));
  }
  page.trace.push_back(w_.trn("%1$s sees %2$s of %3$s key", "%1$s sees %2$s of %3$s keys",
                              static_cast<unsigned long>(problem_.m()),
                              {query_label(), format_grouped(trace.visible_count()), format_grouped(problem_.m())}));
  const std::string hidden = w_.tr("hidden");
  const std::string yes = w_.tr("yes");
  fill_table(page.table, {w_.tr("key"), w_.tr("seen?"), "s'"}, [&](int j) -> std::vector<std::string> {
    const auto uj = static_cast<std::size_t>(j);
    if (trace.visible[uj] == 0) return {key_label(j), hidden, "\u2212\u221e"};
    return {key_label(j), yes, num(trace.masked[uj])};
  });
  return page;
}

StepPage PageBuilder::softmax() const {
  const QueryTrace trace = model_.trace(focus_.head, focus_.query);
  StepPage page;
  page.title = w_.tr("Softmax: scores become weights that sum to 1");
  page.formula =
      "a[i,j] = exp(s'[i,j] \u2212 m[i]) / \u03a3\u2096 exp(s'[i,k] \u2212 m[i]),   " +  // not translated: notation
      w_.tr("m[i] = max of row i");
  page.note = w_.tr("Subtracting the row maximum m changes no weight and keeps exp from overflowing.");
  const HeadResult& head = result_.heads[static_cast<std::size_t>(focus_.head)];
  if (trace.dropout) {  // the softmax's weights, then what dropout leaves of them (dropped ones hatched)
    const double p = problem_.dropout->p;
    page.formula += "\n" + w_.tr(
                               "dropout: each weight kept with probability 1 \u2212 p = %1$s and scaled by "
                               "1/(1 \u2212 p) = %2$s, else 0",
                               {format_significant(1.0 - p), format_significant(1.0 / (1.0 - p))});
    page.note += " " + w_.tr(
                           "Dropout (training only) then drops weights at random; the kept ones grow so each row "
                           "still sums to 1 on average, and the context uses what is left.");
    ShownMatrix before = borrowed(w_.tr("%1$s before dropout", {"A" + h_}), head.weights_before_dropout, true, true);
    before.kind = ShownMatrix::Kind::Weights;
    page.matrices.push_back(std::move(before));
  }
  ShownMatrix weights =
      borrowed(trace.dropout ? w_.tr("%1$s after dropout", {"A" + h_}) : "A" + h_, head.weights, true, true);
  weights.kind = ShownMatrix::Kind::Weights;
  if (trace.dropout)
    weights.dropped = std::shared_ptr<const MaskMatrix>(std::shared_ptr<const MaskMatrix>(), &head.kept);
  page.matrices.push_back(std::move(weights));
  if (trace.fully_masked()) {
    page.trace.push_back(w_.tr("%1$s sees no key: all its weights are 0 (and never NaN)", {query_label()}));
    return page;
  }
  page.trace.push_back(w_.tr("m = max of the visible scores = %1$s", {num(trace.row_max)}));
  std::vector<std::string> header = {w_.tr("key"), "s'", "exp(s' \u2212 m)", w_.tr("weight")};  // not translated: exp
  if (trace.dropout) header.push_back(w_.tr("dropout"));
  const std::string dropped_word = w_.tr("dropped");
  fill_table(page.table, std::move(header), [&](int j) -> std::vector<std::string> {
    const auto uj = static_cast<std::size_t>(j);
    std::vector<std::string> row = {key_label(j), "\u2212\u221e", "0", "0"};
    if (trace.visible[uj] != 0)
      row = {key_label(j), num(trace.scaled[uj]), num(trace.exponentials[uj]), num(trace.weights[uj])};
    if (trace.dropout) row.push_back(trace.kept[uj] == 0 ? dropped_word : num(trace.dropped_out[uj]));
    return row;
  });
  page.trace_after.push_back("\u03a3 exp = " + num(trace.exponential_sum));  // not translated: notation
  page.trace_after.push_back(w_.tr("weight = exp / \u03a3 exp   (the weights sum to 1)"));
  if (trace.dropout) {
    std::string dropped;
    double sum = 0.0;
    for (int j = 0; j < problem_.m(); ++j) {
      const auto uj = static_cast<std::size_t>(j);
      sum += trace.dropped_out[uj];
      if (trace.kept[uj] == 0 && trace.visible[uj] != 0) dropped += (dropped.empty() ? "" : ", ") + key_label(j);
    }
    page.trace_after.push_back(w_.tr("dropout drops: %1$s", {dropped.empty() ? w_.tr("none of them") : dropped}));
    page.trace_after.push_back(w_.tr("after dropout the row sums to %1$s", {num(sum)}));
  }
  return page;
}

StepPage PageBuilder::context() const {
  const QueryTrace trace = model_.trace(focus_.head, focus_.query);
  const HeadProjections hp = model_.head(focus_.head);
  StepPage page;
  page.title = w_.tr("Weighted sum of the values");
  page.formula = "C" + h_ + " = A" + h_ + "\u00b7V" + g_ + "   " + shape(problem_.n(), problem_.m()) + "\u00b7" +
                 shape(problem_.m(), problem_.d_v) + " = " + shape(problem_.n(), problem_.d_v);
  page.note = w_.tr("Each row of C is an average of the value rows, weighted by that query's attention.");
  ShownMatrix v = owned("V" + g_, hp.v, false, false);
  v.col_labels = dims_v_;
  ShownMatrix c = borrowed("C" + h_, result_.heads[static_cast<std::size_t>(focus_.head)].context, true, false);
  c.col_labels = dims_v_;
  page.matrices = {std::move(v), std::move(c)};
  if (trace.dropout) page.note += " " + w_.tr("With dropout the weights are the ones dropout left (dropped: 0).");
  const std::string hidden = w_.tr("0 (hidden)");
  const std::string dropped = w_.tr("0 (dropped)");
  fill_table(page.table, {w_.tr("key"), w_.tr("weight"), "\u00d7 v"}, [&](int j) -> std::vector<std::string> {
    const auto uj = static_cast<std::size_t>(j);
    const double weight = trace.dropout ? trace.dropped_out[uj] : trace.weights[uj];
    std::string shown = num(weight);
    if (trace.visible[uj] == 0)
      shown = hidden;
    else if (trace.dropout && trace.kept[uj] == 0)
      shown = dropped;
    return {key_label(j), shown,
            format_vector_lines(row_as_doubles(hp.v, j), focus_.decimals, focus_.vector_terms_per_line)};
  });
  page.trace_after.push_back(
      w_.tr("c[%1$s] = \u03a3 weight \u00d7 v = %2$s", {query_label(), format_vector(trace.context, focus_.decimals)}));
  return page;
}

StepPage PageBuilder::concat() const {
  const int width = problem_.num_heads * problem_.d_v;
  StepPage page;
  page.title = w_.tr("Concatenate the heads");
  if (problem_.num_heads == 1) {
    page.formula = "concat = C\u2080   " + w_.tr("(one head: nothing to join)");  // not translated: notation
  } else {
    page.formula =
        "concat = [C\u2080 | \u2026 | C" + subscript(problem_.num_heads - 1) + "]   " +  // not translated: notation
        w_.trn("%1$s head \u00d7 %2$s \u2192 %3$s", "%1$s heads \u00d7 %2$s \u2192 %3$s",
               static_cast<unsigned long>(problem_.num_heads),
               {std::to_string(problem_.num_heads), shape(problem_.n(), problem_.d_v), shape(problem_.n(), width)});
  }
  page.note = w_.tr("Each head looked for something different; their results are laid side by side.");
  if (focus_.include_matrices) {
    ShownMatrix joined = owned("concat", model_.concatenated_contexts(), true, false);
    // Each head's block is labelled C₀, C₁, …; dimension labels only while they can all be read.
    if (width <= 24) joined.col_labels = dimension_labels(width);
    for (int h = 0; h < problem_.num_heads; ++h)
      joined.column_groups.push_back({h * problem_.d_v, problem_.d_v, "C" + subscript(h)});
    page.matrices.push_back(std::move(joined));
  }
  std::vector<double> row;
  for (const HeadResult& head : result_.heads) {
    const std::vector<double> part = row_as_doubles(head.context, focus_.query);
    row.insert(row.end(), part.begin(), part.end());
  }
  std::string parts;
  for (int h = 0; h < problem_.num_heads; ++h)
    parts += (h == 0 ? "" : " | ") + ("c" + subscript(h) + "[" + query_label() + "]");
  page.trace.push_back("concat[" + query_label() + "] = [" + parts + "]");  // not translated: notation
  page.trace.push_back("= " + format_vector(row, focus_.decimals));
  return page;
}

StepPage PageBuilder::output() const {
  StepPage page;
  page.title = w_.tr("Output projection");
  const int width = problem_.num_heads * problem_.d_v;
  if (problem_.wo) {
    page.formula = "output = concat\u00b7W_O   " + shape(problem_.n(), width) + "\u00b7" +  // not translated: notation
                   shape(width, problem_.wo->cols) + " = " + shape(problem_.n(), problem_.wo->cols);
    ShownMatrix wo = borrowed("W_O", *problem_.wo, false, false);
    wo.row_labels = dimension_labels(width);
    wo.col_labels = dimension_labels(problem_.wo->cols);
    page.matrices.push_back(std::move(wo));
  } else {
    page.formula = "output = concat   " + w_.tr("(this scenario has no W_O)");  // not translated: notation
  }
  page.note = w_.tr("W_O mixes the heads' results back into one vector per token, ready for the next layer.");
  ShownMatrix out = borrowed("output", result_.output, true, false);
  out.col_labels = dimension_labels(result_.output.cols);
  page.matrices.push_back(std::move(out));
  page.trace.push_back("output[" + query_label() +  // not translated: notation
                       "] = " + format_vector(row_as_doubles(result_.output, focus_.query), focus_.decimals));
  return page;
}

}  // namespace attnviz::lesson
