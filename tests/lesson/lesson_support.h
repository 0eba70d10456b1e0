#pragma once
// Test inputs for the lesson model that do not go through core/scenario's loader: fixtures read
// straight from their JSON, and frozen scenarios (every input explicit) turned into Problems
// by hand, so a bug in the loader cannot hide a bug here (or the reverse).

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/scenario/problem.h"
#include "core/scenario/scenario.h"

namespace attnviz::testing {

inline nlohmann::json read_fixture(const std::string& name) {
  std::ifstream file(std::filesystem::path(ATTNVIZ_FIXTURES_DIR) / name);
  if (!file) throw std::runtime_error("missing fixture " + name);
  return nlohmann::json::parse(file);
}

inline Matrix matrix_from_json(const nlohmann::json& rows) {
  Matrix m(static_cast<int>(rows.size()), static_cast<int>(rows.at(0).size()));
  for (int r = 0; r < m.rows; ++r)
    for (int c = 0; c < m.cols; ++c)
      m.at(r, c) = rows[static_cast<std::size_t>(r)][static_cast<std::size_t>(c)].get<float>();
  return m;
}

// The fixtures use explicit tokens, embeddings and weights, and scale "inv_sqrt_dk".
inline Problem fixture_problem(const nlohmann::json& f) {
  Problem p;
  p.tokens = f.at("tokens").get<std::vector<std::string>>();
  p.source_tokens = p.tokens;
  p.x = matrix_from_json(f.at("embeddings"));
  p.xs = p.x;
  p.wq = matrix_from_json(f.at("wq"));
  p.wk = matrix_from_json(f.at("wk"));
  p.wv = matrix_from_json(f.at("wv"));
  p.num_heads = f.at("num_heads").get<int>();
  p.num_kv_heads = f.at("num_kv_heads").get<int>();
  p.d_k = f.at("d_k").get<int>();
  p.d_v = f.at("d_v").get<int>();
  if (f.at("scale").get<std::string>() != "inv_sqrt_dk") throw std::runtime_error("fixture scale not handled");
  p.scale = static_cast<float>(1.0 / std::sqrt(static_cast<double>(p.d_k)));
  const nlohmann::json& mask = f.at("mask");
  p.mask.causal = mask.value("causal", false);
  if (mask.contains("window")) p.mask.window = mask.at("window").get<int>();
  if (mask.contains("global")) p.mask.global = mask.at("global").get<std::vector<int>>();
  return p;
}

// A scenario whose inputs are all explicit (as derive_variants makes them) as a Problem.
inline Problem frozen_problem(const Scenario& s) {
  Problem p;
  p.tokens = s.tokens.value();
  p.x = s.embeddings.value();
  p.cross_attention = s.source.has_value();
  p.source_tokens = p.cross_attention ? s.source->tokens.value() : p.tokens;
  p.xs = p.cross_attention ? s.source->embeddings.value() : p.x;
  p.wq = s.wq.value();
  p.wk = s.wk.value();
  p.wv = s.wv.value();
  p.wo = s.wo;
  p.num_heads = s.num_heads;
  p.num_kv_heads = s.num_kv_heads;
  p.d_k = s.d_k;
  p.d_v = s.d_v;
  p.scale = s.scale.resolve(s.d_k);
  p.mask = s.mask;
  return p;
}

// A frozen scenario with the inputs of `p` (the base the compare tests derive from).
inline Scenario scenario_of(const Problem& p) {
  Scenario s;
  s.sentence = "test";
  s.tokens = p.tokens;
  s.d_model = p.d_model();
  s.embeddings = p.x;
  s.num_heads = p.num_heads;
  s.num_kv_heads = p.num_kv_heads;
  s.d_k = p.d_k;
  s.d_v = p.d_v;
  s.wq = p.wq;
  s.wk = p.wk;
  s.wv = p.wv;
  s.wo = p.wo;
  s.mask = p.mask;
  return s;
}

inline std::vector<double> json_row(const nlohmann::json& rows, int row) {
  return rows.at(static_cast<std::size_t>(row)).get<std::vector<double>>();
}

}  // namespace attnviz::testing
