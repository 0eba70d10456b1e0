#include "core/heads/logit_lens.h"

#include <algorithm>
#include <span>
#include <stdexcept>

#include "core/heads/unembedding.h"
#include "core/model/layer_block.h"

namespace attnviz::heads {
namespace {

constexpr int kRowsPerBlock = 64;

// One row of logits: the top k and the next token's probability and rank (next < 0: none).
LensCell read_row(const float* logits, int vocab, int top_k, int next) {
  const model::RowProbabilities probabilities(logits, vocab);
  LensCell cell;
  for (const int id : probabilities.top(top_k)) cell.top.push_back({id, {}, probabilities.p(id)});
  if (next >= 0) {
    cell.p_next = probabilities.p(next);
    cell.rank_next = probabilities.rank(next);
  }
  return cell;
}

}  // namespace

LogitLens logit_lens(const model::Model& model, const model::ForwardResult& result, int top_k) {
  require_unembedding(model, "the logit lens");
  const std::vector<Matrix>& residuals = result.stream.residuals;
  if (residuals.empty()) throw std::invalid_argument("logit_lens needs a pass run with keep_stream");
  const int n = static_cast<int>(result.ids.size());
  LogitLens lens;
  Matrix block, logits;
  for (const Matrix& residual : residuals) {
    std::vector<LensCell>& row_cells = lens.cells.emplace_back(static_cast<std::size_t>(n));
    // A block of rows at a time: a long text's logits for a whole layer would be N × vocabulary
    // floats (4,096 × 128 K: 2 GiB), a block's stay a few MiB.
    for (int first = 0; first < n; first += kRowsPerBlock) {
      const int count = std::min(kRowsPerBlock, n - first);
      block.reshape(count, residual.cols);
      std::copy(residual.row(first), residual.row(first) + static_cast<long>(count) * residual.cols, block.row(0));
      model::logits_of_rows(model, block, logits);
#pragma omp parallel for schedule(dynamic)
      for (int r = 0; r < count; ++r) {
        const int i = first + r;
        const int next = i + 1 < n ? result.ids[static_cast<std::size_t>(i) + 1] : -1;
        row_cells[static_cast<std::size_t>(i)] = read_row(logits.row(r), logits.cols, top_k, next);
      }
    }
  }
  // Labels after the rows: the tokenizer is not asked from several threads.
  const tokenizers::Tokenizer& tokenizer = model.tokenizer();
  for (std::vector<LensCell>& row_cells : lens.cells) {
    for (int i = 0; i < n; ++i) {
      const std::span<const int> before = std::span(result.ids).first(static_cast<std::size_t>(i) + 1);
      for (LensToken& token : row_cells[static_cast<std::size_t>(i)].top)
        token.token = tokenizer.label_after(before, token.id);
    }
  }
  return lens;
}

}  // namespace attnviz::heads
