#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/common/nearest_name.h"

namespace attnviz {
namespace {

const std::vector<std::string> kOptions = {"--scenario", "--backend", "--heads", "--out", "--format", "--blocks"};

TEST(NearestName, OneEditAwayIsSuggested) {
  EXPECT_EQ(nearest_name("--head", kOptions), "--heads");          // a letter dropped
  EXPECT_EQ(nearest_name("--backnd", kOptions), "--backend");      // a letter dropped
  EXPECT_EQ(nearest_name("--formta", kOptions), "--format");       // two neighbours swapped
  EXPECT_EQ(nearest_name("--scenarios", kOptions), "--scenario");  // a letter added
}

TEST(NearestName, TwoEditsOnlyForNamesLongerThanFour) {
  EXPECT_EQ(nearest_name("--bakcnd", kOptions), "--backend");  // swap and drop
  const std::vector<std::string> short_names = {"rope", "none"};
  EXPECT_EQ(nearest_name("rop", short_names), "rope");
  EXPECT_EQ(nearest_name("ro", short_names), std::nullopt);  // two edits from a four-letter name
}

TEST(NearestName, LetterCaseAloneIsSuggested) {
  EXPECT_EQ(nearest_name("--Heads", kOptions), "--heads");
  EXPECT_EQ(nearest_name("NUM_HEADS", {"num_heads", "num_kv_heads"}), "num_heads");
}

TEST(NearestName, AUniqueBeginningIsSuggested) {
  const std::vector<std::string> presets = {"alibi", "life-is-short", "longformer", "rope", "sliding-window"};
  EXPECT_EQ(nearest_name("life", presets), "life-is-short");
  EXPECT_EQ(nearest_name("slid", presets), "sliding-window");
  EXPECT_EQ(nearest_name("l", presets), std::nullopt);  // too short to mean anything
}

TEST(NearestName, NothingWhenFarOrAmbiguous) {
  EXPECT_EQ(nearest_name("--colour", kOptions), std::nullopt);
  EXPECT_EQ(nearest_name("", kOptions), std::nullopt);
  EXPECT_EQ(nearest_name("anything", {}), std::nullopt);
  // "d_x" is one edit from both d_k and d_v: no guess.
  EXPECT_EQ(nearest_name("d_x", {"d_k", "d_v", "d_model"}), std::nullopt);
  // Begins both.
  EXPECT_EQ(nearest_name("num", {"num_heads", "num_kv_heads"}), std::nullopt);
}

TEST(NearestName, AHugeTypedNameCostsNothing) {
  EXPECT_EQ(nearest_name(std::string(200000, 'k'), kOptions), std::nullopt);
}

TEST(NearestName, DidYouMeanWritesTheClause) {
  EXPECT_EQ(did_you_mean("life", {"life-is-short"}, "preset:"), "; did you mean preset:life-is-short?");
  EXPECT_EQ(did_you_mean("zzz", {"life-is-short"}), "");
}

}  // namespace
}  // namespace attnviz
