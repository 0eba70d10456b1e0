#pragma once
// One query token followed through one head, with every intermediate number the step pages
// write out ("which words does 배 attend to?"):
//   q_i → s_ij = q_i·k_j → scale·s_ij → masked (−∞) → e_j = exp(s_ij − max) → Σe → w_j = e_j/Σe
//   → c_i = Σ_j w_j v_j
// Raw scores are the Result's (what the heatmaps show); the softmax and the weighted sum are
// redone here in float64, so a student can check every written number against the next.

#include <cstdint>
#include <vector>

#include "core/attention/result.h"
#include "core/lesson/projections.h"
#include "core/scenario/problem.h"

namespace attnviz::lesson {

struct QueryTrace {
  int head = 0;
  int kv_head = 0;
  int query = 0;
  std::vector<float> q_row;   // d_k: row `query` of Q_h
  std::vector<float> scores;  // M: raw q·k_j from the Result
  float scale = 1.0f;
  std::vector<float> scaled;          // M: scale · s_j (+ ALiBi's bias), in float as the backends do
  float slope = 0.0f;                 // ALiBi's slope of this head (0 without ALiBi)
  std::vector<float> bias;            // M: −slope·|query − j| (all 0 without ALiBi)
  std::vector<std::uint8_t> visible;  // M: 1 when the mask lets the query see key j
  std::vector<float> masked;          // M: scaled, or −∞ where hidden
  double row_max = 0.0;               // the largest visible scaled score (−∞: none)
  std::vector<double> exponentials;   // M: exp(scaled_j − row_max), 0 where hidden
  double exponential_sum = 0.0;
  std::vector<double> weights;  // M: exponentials / sum (all 0 when nothing visible)
  // With dropout: which weights were kept, and the weights after dropout (kept ones × 1/(1 − p)).
  bool dropout = false;
  std::vector<std::uint8_t> kept;   // M
  std::vector<double> dropped_out;  // M
  std::vector<double> context;      // d_v: Σ_j weight_j · V_h[j] (the weights after dropout)
  [[nodiscard]] bool fully_masked() const { return exponential_sum == 0.0; }
  [[nodiscard]] int visible_count() const;
};

// Throws std::out_of_range for a head or query outside the problem.
QueryTrace trace_query(const Problem& problem, const Result& result, const HeadProjections& head_matrices, int head,
                       int query);

// The arithmetic check of one score cell: q_i·k_j written out term by term.
struct DotProductTerms {
  int head = 0;
  int query = 0;
  int key = 0;
  std::vector<double> q;         // d_k
  std::vector<double> k;         // d_k
  std::vector<double> products;  // q_d · k_d
  double total = 0.0;            // Σ products (float64)
  float result_score = 0.0f;     // the Result's score for the same cell, for comparison
};

DotProductTerms dot_product_terms(const Result& result, const HeadProjections& head_matrices, int head, int query,
                                  int key);

}  // namespace attnviz::lesson
