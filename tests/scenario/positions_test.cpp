// Positions and dropout (core/scenario/positions.h, dropout.h, docs/design.md "Positions",
// "Dropout"): ALiBi's slopes against the paper's numbers (powers of two and the interleaving
// for other head counts), the sinusoidal table and RoPE's rotation against values worked by
// hand, RoPE's defining property (shifting every position leaves the scores unchanged), the
// dropout hash against MurmurHash3's published vectors and an independent implementation, and
// the scenario fields: read, written, refused with the field named.

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

#include "core/common/error.h"
#include "core/cpu/cpu_backend.h"
#include "core/scenario/dropout.h"
#include "core/scenario/positions.h"
#include "core/scenario/problem.h"
#include "core/scenario/scenario_json.h"

namespace attnviz {
namespace {

std::vector<double> slopes_of(int heads) {
  std::vector<double> slopes;
  for (int h = 0; h < heads; ++h) slopes.push_back(alibi_slope(h, heads));
  return slopes;
}

TEST(Alibi, SlopesOfAPowerOfTwoAreTheGeometricSequenceOfThePaper) {
  EXPECT_EQ(slopes_of(1), (std::vector<double>{1.0 / 256}));
  EXPECT_EQ(slopes_of(8), (std::vector<double>{0.5, 0.25, 0.125, 1.0 / 16, 1.0 / 32, 1.0 / 64, 1.0 / 128, 1.0 / 256}));
  EXPECT_EQ(slopes_of(4), (std::vector<double>{0.25, 1.0 / 16, 1.0 / 64, 1.0 / 256}));
}

TEST(Alibi, OtherHeadCountsInterleaveTheNextPowerOfTwosSlopes) {
  // The ALiBi repository's get_slopes(6): get_slopes(4) + get_slopes(8)[0::2][:2].
  EXPECT_EQ(slopes_of(6), (std::vector<double>{0.25, 1.0 / 16, 1.0 / 64, 1.0 / 256, 0.5, 0.125}));
  EXPECT_EQ(slopes_of(3), (std::vector<double>{1.0 / 16, 1.0 / 256, 0.25}));
  // get_slopes(12): the 8 of H' = 8, then 2^(−0.5), 2^(−1.5), 2^(−2.5), 2^(−3.5).
  const std::vector<double> twelve = slopes_of(12);
  EXPECT_DOUBLE_EQ(twelve[7], 1.0 / 256);
  EXPECT_NEAR(twelve[8], 0.7071067811865476, 1e-15);
  EXPECT_NEAR(twelve[11], 0.08838834764831849, 1e-15);
}

TEST(Alibi, TheBiasFallsWithDistanceOnBothSides) {
  EXPECT_FLOAT_EQ(alibi_bias(0.25f, 5, 2), -0.75f);
  EXPECT_FLOAT_EQ(alibi_bias(0.25f, 2, 5), -0.75f);
  EXPECT_FLOAT_EQ(alibi_bias(0.25f, 3, 3), 0.0f);
}

TEST(Sinusoidal, TableFollowsTheTransformerPaper) {
  const Matrix table = sinusoidal_table(0, 3, 4);
  EXPECT_EQ(table.row(0)[0], 0.0f);  // sin 0
  EXPECT_EQ(table.row(0)[1], 1.0f);  // cos 0
  EXPECT_FLOAT_EQ(table.at(1, 0), static_cast<float>(std::sin(1.0)));
  EXPECT_FLOAT_EQ(table.at(1, 1), static_cast<float>(std::cos(1.0)));
  EXPECT_FLOAT_EQ(table.at(2, 2), static_cast<float>(std::sin(2.0 / 100.0)));  // 10000^(2/4) = 100
  EXPECT_FLOAT_EQ(table.at(2, 3), static_cast<float>(std::cos(2.0 / 100.0)));
  // An offset is the same rows further down.
  EXPECT_EQ(sinusoidal_table(2, 1, 4).data, std::vector<float>(table.row(2), table.row(2) + 4));
}

TEST(Sinusoidal, AnOddWidthEndsWithASineWithoutItsCosine) {
  const Matrix table = sinusoidal_table(7, 1, 5);
  EXPECT_FLOAT_EQ(table.at(0, 4), static_cast<float>(std::sin(7.0 / std::pow(10000.0, 4.0 / 5.0))));
  EXPECT_FLOAT_EQ(table.at(0, 3), static_cast<float>(std::cos(7.0 / std::pow(10000.0, 2.0 / 5.0))));
}

TEST(Rope, RotateHalfTurnsPairIByPositionTimesThetaToTheMinus2iOverDk) {
  // d_k = 4: pairs (0, 2) at frequency 1 and (1, 3) at 10000^(−1/2) = 0.01; position 3.
  const Matrix table = rope_table(3, 1, 4, 10000.0);
  std::vector<float> row = {1.0f, 2.0f, 0.0f, 0.5f};
  rope_rotate(row.data(), table.row(0), 4);
  EXPECT_NEAR(row[0], std::cos(3.0), 1e-6);  // (1, 0) turned by 3 rad
  EXPECT_NEAR(row[2], std::sin(3.0), 1e-6);
  EXPECT_NEAR(row[1], 2.0 * std::cos(0.03) - 0.5 * std::sin(0.03), 1e-6);
  EXPECT_NEAR(row[3], 0.5 * std::cos(0.03) + 2.0 * std::sin(0.03), 1e-6);
  std::vector<float> same = {1.0f, 2.0f, 3.0f, 4.0f};
  rope_rotate(same.data(), rope_table(0, 1, 4, 10000.0).row(0), 4);
  EXPECT_EQ(same, (std::vector<float>{1.0f, 2.0f, 3.0f, 4.0f})) << "position 0 turns nothing";
}

Scenario scenario_with(PositionalKind kind, int offset) {
  Scenario s;
  s.sentence = "the quick brown fox jumps over the lazy dog";
  s.d_model = 8;
  s.num_heads = 4;
  s.num_kv_heads = 2;
  s.d_k = 6;
  s.d_v = 3;
  s.mask.causal = true;
  s.positional = kind;
  s.position_offset = offset;
  return s;
}

double largest_difference(const Matrix& a, const Matrix& b) {
  double worst = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) worst = std::max(worst, std::fabs(double(a.data[i]) - double(b.data[i])));
  return worst;
}

// RoPE's defining property: q'·k' depends only on the distance between the positions.
TEST(Rope, ShiftingEveryPositionLeavesTheScoresUnchanged) {
  const auto cpu = make_cpu_backend();
  const Result at_zero = cpu->compute(build_problem(scenario_with(PositionalKind::Rope, 0), "test"));
  for (const int offset : {1, 17, 1000}) {
    const Result shifted = cpu->compute(build_problem(scenario_with(PositionalKind::Rope, offset), "test"));
    for (std::size_t h = 0; h < at_zero.heads.size(); ++h) {
      EXPECT_LE(largest_difference(at_zero.heads[h].scores, shifted.heads[h].scores), 2e-5)
          << "offset " << offset << " head " << h;
      EXPECT_LE(largest_difference(at_zero.heads[h].weights, shifted.heads[h].weights), 2e-5);
    }
  }
  // ... while the rotation itself did change q and k, and sinusoidal positions change the scores.
  const Result none = cpu->compute(build_problem(scenario_with(PositionalKind::None, 0), "test"));
  EXPECT_GT(largest_difference(none.heads[0].scores, at_zero.heads[0].scores), 1e-3);
  const Result sin0 = cpu->compute(build_problem(scenario_with(PositionalKind::Sinusoidal, 0), "test"));
  const Result sin5 = cpu->compute(build_problem(scenario_with(PositionalKind::Sinusoidal, 5), "test"));
  EXPECT_GT(largest_difference(sin0.heads[0].scores, sin5.heads[0].scores), 1e-3);
}

TEST(Alibi, ShiftingEveryPositionLeavesTheWeightsUnchanged) {
  const auto cpu = make_cpu_backend();
  const Result a = cpu->compute(build_problem(scenario_with(PositionalKind::Alibi, 0), "test"));
  const Result b = cpu->compute(build_problem(scenario_with(PositionalKind::Alibi, 40), "test"));
  for (std::size_t h = 0; h < a.heads.size(); ++h) EXPECT_EQ(a.heads[h].weights, b.heads[h].weights);
}

TEST(Dropout, HashIsMurmurHash3OfTheFiveWords) {
  // From an independent Python MurmurHash3_x86_32 (tests/reference/positions_reference.py),
  // itself checked against the published vectors ("" seed 1 → 0x514e28b7, "test" → 0xba6bd213).
  EXPECT_EQ(dropout_hash(1, 0, 0, 0), 0x62e4ae66u);
  EXPECT_EQ(dropout_hash(1, 0, 0, 1), 0x8ba09f6cu);
  EXPECT_EQ(dropout_hash(1, 3, 7, 2), 0x088a0d74u);
  EXPECT_EQ(dropout_hash(0x123456789abcULL, 5, 100, 4095), 0x715e9057u);
  EXPECT_EQ(dropout_hash(0, 0, 0, 0), 0xee9d294au);
}

TEST(Dropout, RuleKeepsAboutOneMinusPAndScalesByItsInverse) {
  EXPECT_FALSE(dropout_rule(std::nullopt).active);
  const DropoutRule none = dropout_rule(DropoutSetting{0.0, 3});
  const DropoutRule rule = dropout_rule(DropoutSetting{0.3, 7});
  EXPECT_EQ(rule.threshold, static_cast<std::uint32_t>(std::floor(0.3 * 4294967296.0)));
  EXPECT_EQ(rule.keep_scale, static_cast<float>(1.0 / 0.7));
  int kept = 0;
  for (int q = 0; q < 40; ++q)
    for (int k = 0; k < 40; ++k) {
      kept += rule.keeps(0, q, k) ? 1 : 0;
      EXPECT_TRUE(none.keeps(0, q, k)) << "p = 0 drops nothing";
    }
  EXPECT_EQ(kept, 1113) << "the count the independent implementation gives";
}

TEST(PositionsJson, FieldsReadWriteAndOldFilesLoadUnchanged) {
  const std::string old_file = R"({"format": "attnviz-scenario/1", "sentence": "a b c"})";
  const Scenario old_scenario = parse_scenario(old_file, "old.json").scenario;
  EXPECT_EQ(old_scenario.positional, PositionalKind::None);
  EXPECT_EQ(old_scenario.rope_theta, 10000.0);
  EXPECT_FALSE(old_scenario.dropout.has_value());
  EXPECT_EQ(scenario_to_json(old_scenario).find("positional"), std::string::npos)
      << "nothing new written for an old file";

  const std::string text = R"({"format": "attnviz-scenario/1", "sentence": "a b c", "d_model": 4, "d_k": 2,
    "positional": "rope", "rope_theta": 500000, "position_offset": 9, "dropout": {"p": 0.1, "seed": 12345678901}})";
  const LoadedScenario loaded = parse_scenario(text, "new.json");
  EXPECT_TRUE(loaded.warnings.empty());
  const Scenario& s = loaded.scenario;
  EXPECT_EQ(s.positional, PositionalKind::Rope);
  EXPECT_EQ(s.rope_theta, 500000.0);
  EXPECT_EQ(s.position_offset, 9);
  ASSERT_TRUE(s.dropout.has_value());
  EXPECT_EQ(s.dropout->p, 0.1);
  EXPECT_EQ(s.dropout->seed, 12345678901u);
  EXPECT_EQ(parse_scenario(scenario_to_json(s), "again.json").scenario, s) << "save → load gives it back";
  for (const char* kind : {"none", "sinusoidal", "alibi"}) {
    const std::string json =
        std::string(R"({"format": "attnviz-scenario/1", "sentence": "a b", "positional": ")") + kind + "\"}";
    EXPECT_EQ(to_string(parse_scenario(json, "k.json").scenario.positional), std::string(kind));
  }
}

void expect_refused(const std::string& json, const std::string& pointer, const std::string& words) {
  try {
    build_problem(parse_scenario(json, "bad.json").scenario, "bad.json");
    ADD_FAILURE() << "accepted: " << json;
  } catch (const InputError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("bad.json: " + pointer + ":"), std::string::npos) << message;
    EXPECT_NE(message.find(words), std::string::npos) << message;
  }
}

TEST(PositionsJson, BadValuesAreRefusedNamingTheField) {
  const std::string head = R"({"format": "attnviz-scenario/1", "sentence": "a b c", "d_model": 6, )";
  expect_refused(head + R"("d_k": 3, "positional": "rope"})", "/d_k", "d_k must be even; d_k is 3");
  expect_refused(head + R"("positional": "learned"})", "/positional",
                 "expected \"none\", \"sinusoidal\", \"rope\" or \"alibi\"");
  expect_refused(head + R"("positional": 3})", "/positional", "expected a string");
  expect_refused(head + R"("rope_theta": 0})", "/rope_theta", "above 0");
  expect_refused(head + R"("rope_theta": "big"})", "/rope_theta", "expected a number");
  expect_refused(head + R"("position_offset": -1})", "/position_offset", "from 0 to");
  expect_refused(head + R"("dropout": {"p": 1}})", "/dropout/p", "at least 0 and below 1");
  expect_refused(head + R"("dropout": {"p": -0.1}})", "/dropout/p", "at least 0 and below 1");
  expect_refused(head + R"("dropout": {"seed": 3}})", "/dropout", "needs \"p\"");
  expect_refused(head + R"("dropout": {"p": 0.1, "seed": -3}})", "/dropout/seed", "integer 0 or more");
  expect_refused(head + R"("dropout": 0.1})", "/dropout", "expected a JSON object");
}

}  // namespace
}  // namespace attnviz
