// The CPU tiled loop: per query block, per key block, the block's scores by an Eigen product
// (only this Br × Bc tile exists at any time), masked inside where the mask hides part of it,
// then the online-softmax update of each row (online_softmax.h) and O += P·V.

#include "core/tiled/tiled_cpu.h"

#include <algorithm>

#include "core/scenario/positions.h"
#include "core/tiled/online_softmax.h"

namespace attnviz::tiled {
namespace {

// One query block's running state: m, l per row and the unnormalised O (rows × d_v).
struct BlockState {
  std::vector<RowState> rows;
  RowMajor o;
};

// A tile of scores: scale · Q_block · K_blockᵀ plus ALiBi's bias, −∞ where the mask hides a cell.
RowMajor tile_scores(const HeadOperands& head, const Mask& mask, const HeadRules& rules, int r0, int r1, int c0, int c1,
                     BlockVisibility visibility) {
  RowMajor s = (head.q.middleRows(r0, r1 - r0) * head.k.middleRows(c0, c1 - c0).transpose()) * rules.scale;
  if (rules.slope != 0.0f) {
    for (int i = r0; i < r1; ++i) {
      for (int j = c0; j < c1; ++j) s(i - r0, j - c0) += alibi_bias(rules.slope, i, j);
    }
  }
  if (visibility == BlockVisibility::Partial) {
    for (int i = r0; i < r1; ++i) {
      for (int j = c0; j < c1; ++j) {
        if (!mask.visible(head.index, i, j)) s(i - r0, j - c0) = kMinusInfinity;
      }
    }
  }
  return s;
}

// The online-softmax step of every row of the block for one tile; s becomes P = exp(s − m_new).
void update_rows(BlockState& state, RowMajor& s, std::vector<float>& rescale) {
  for (Eigen::Index r = 0; r < s.rows(); ++r) {
    RowState& row = state.rows[static_cast<std::size_t>(r)];
    const float m_new = std::max(row.m, s.row(r).maxCoeff());
    const float alpha = rescale_factor(row.m, m_new);
    float sum = 0.0f;
    for (Eigen::Index c = 0; c < s.cols(); ++c) {
      s(r, c) = shifted_exp(s(r, c), m_new);
      sum += s(r, c);
    }
    row.l = alpha * row.l + sum;
    row.m = m_new;
    state.o.row(r) *= alpha;
    rescale[static_cast<std::size_t>(r)] = alpha;
  }
}

// Dropout on the tile's P (rows r0.., keys c0..): l has summed P already.
void drop_tile(RowMajor& p, const HeadRules& rules, int r0, int c0) {
  for (Eigen::Index r = 0; r < p.rows(); ++r) {
    for (Eigen::Index c = 0; c < p.cols(); ++c) {
      const bool keep = rules.dropout.keeps(rules.head, r0 + static_cast<int>(r), c0 + static_cast<int>(c));
      p(r, c) = keep ? p(r, c) * rules.dropout.keep_scale : 0.0f;
    }
  }
}

void record_rows(const BlockState& state, std::vector<float>& m, std::vector<float>& l) {
  m.resize(state.rows.size());
  l.resize(state.rows.size());
  for (std::size_t r = 0; r < state.rows.size(); ++r) {
    m[r] = state.rows[r].m;
    l[r] = state.rows[r].l;
  }
}

void copy_o(const RowMajor& o, Matrix& out) {
  out.reshape(static_cast<int>(o.rows()), static_cast<int>(o.cols()));
  Eigen::Map<RowMajor>(out.data.data(), o.rows(), o.cols()) = o;
}

}  // namespace

void tiled_query_block(const HeadOperands& head, const Mask& mask, const HeadRules& rules, const TileGrid& grid, int qb,
                       TiledHead& out, TiledTrace* trace) {
  const int r0 = grid.row_begin(qb);
  const int r1 = grid.row_end(qb);
  const auto rows = static_cast<std::size_t>(r1 - r0);
  BlockState state{std::vector<RowState>(rows), RowMajor::Zero(r1 - r0, head.v.cols())};
  std::vector<float> rescale(rows, 1.0f);
  for (int kb = 0; kb < grid.key_blocks(); ++kb) {
    const int c0 = grid.col_begin(kb);
    const int c1 = grid.col_end(kb);
    const BlockVisibility visibility = mask.classify_block(head.index, r0, r1, c0, c1);
    TileVisit* visit = trace ? &trace->tiles[static_cast<std::size_t>(grid.tile_index(qb, kb))] : nullptr;
    if (visit) {
      *visit = TileVisit{qb, kb, visibility == BlockVisibility::Hidden, visibility, {}, {}, {}, {}, {}, {}};
      record_rows(state, visit->m_before, visit->l_before);
    }
    std::fill(rescale.begin(), rescale.end(), 1.0f);
    if (visibility != BlockVisibility::Hidden) {
      RowMajor p = tile_scores(head, mask, rules, r0, r1, c0, c1, visibility);
      update_rows(state, p, rescale);
      if (rules.dropout.active) drop_tile(p, rules, r0, c0);
      state.o.noalias() += p * head.v.middleRows(c0, c1 - c0);
    }
    if (visit) {
      record_rows(state, visit->m_after, visit->l_after);
      visit->rescale = rescale;
      copy_o(state.o, visit->o_after);
    }
  }
  for (std::size_t r = 0; r < rows; ++r) {
    const int i = r0 + static_cast<int>(r);
    out.m[static_cast<std::size_t>(i)] = state.rows[r].m;
    out.l[static_cast<std::size_t>(i)] = state.rows[r].l;
    for (int c = 0; c < out.context.cols; ++c) {
      out.context.at(i, c) = normalised(state.o(static_cast<Eigen::Index>(r), c), state.rows[r].l);
    }
  }
}

void prepare_head(const TileGrid& grid, int d_v, TiledHead& out, TiledTrace* trace) {
  out.context.reshape(grid.rows, d_v);
  out.m.assign(static_cast<std::size_t>(grid.rows), kMinusInfinity);
  out.l.assign(static_cast<std::size_t>(grid.rows), 0.0f);
  if (trace) trace->tiles.assign(static_cast<std::size_t>(grid.tile_count()), TileVisit{});
}

}  // namespace attnviz::tiled
