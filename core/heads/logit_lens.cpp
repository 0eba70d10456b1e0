#include "core/heads/logit_lens.h"

#include <algorithm>
#include <span>
#include <stdexcept>

#include "core/heads/unembedding.h"
#include "core/model/layer_block.h"

namespace attnviz::heads {
namespace {

// A block of rows' logits stays within 64 MiB (256 rows of GPT-2's 50,257, 130 of Llama 3's
// 128,256), and never under 16 rows.
int rows_per_block(int vocab) {
  constexpr long kBlockFloats = 16L << 20;
  return static_cast<int>(std::clamp<long>(kBlockFloats / std::max(vocab, 1), 16, 256));
}

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
  const long layers = static_cast<long>(residuals.size());
  LogitLens lens;
  lens.cells.assign(residuals.size(), std::vector<LensCell>(static_cast<std::size_t>(n)));
  // Rows of every layer together, a block at a time: one product reads the unembedding once for
  // the whole block (a layer's 64 rows alone reread GPT-2's 154 MB 13 times), while a long text's
  // logits for all of it would be layers × N × vocabulary floats.
  Matrix block, logits;
  const long rows = layers * n;
  const int block_rows = rows_per_block(model.config().vocab_size);
  for (long first = 0; first < rows; first += block_rows) {
    const int count = static_cast<int>(std::min<long>(block_rows, rows - first));
    block.reshape(count, residuals.front().cols);
    for (int r = 0; r < count; ++r) {
      const Matrix& residual = residuals[static_cast<std::size_t>((first + r) / n)];
      std::copy_n(residual.row(static_cast<int>((first + r) % n)), residual.cols, block.row(r));
    }
    model::logits_of_rows(model, block, logits);
#pragma omp parallel for schedule(dynamic)
    for (int r = 0; r < count; ++r) {
      const long layer = (first + r) / n;
      const int i = static_cast<int>((first + r) % n);
      const int next = i + 1 < n ? result.ids[static_cast<std::size_t>(i) + 1] : -1;
      lens.cells[static_cast<std::size_t>(layer)][static_cast<std::size_t>(i)] =
          read_row(logits.row(r), logits.cols, top_k, next);
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
