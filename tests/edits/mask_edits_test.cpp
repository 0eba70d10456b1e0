// The Mask panel's edit logic: global tokens, window, presets, the typed list of globals.
// The presets are also checked against hand-drawn bitmaps through the core's mask.
#include "app/edits/mask_edits.h"

#include <gtest/gtest.h>

#include <optional>

#include "core/attention/mask.h"
#include "core/common/error.h"
#include "core/scenario/mask_expression_check.h"

namespace attnviz::edits {
namespace {

// Rows of '1' (visible) and '.' (masked).
std::vector<std::string> bitmap(const MaskSetting& setting, int n) {
  const MaskMatrix m = build_mask(setting, n, n);
  std::vector<std::string> rows;
  for (int i = 0; i < n; ++i) {
    std::string row;
    for (int j = 0; j < n; ++j) row += m.at(i, j) ? '1' : '.';
    rows.push_back(row);
  }
  return rows;
}

TEST(ToggleGlobal, AddingGivesAWindowWhenThereIsNone) {
  const MaskSetting mask = toggle_global({}, 3);
  EXPECT_EQ(mask.global, std::vector<int>{3});
  ASSERT_TRUE(mask.window.has_value());
  EXPECT_EQ(*mask.window, kDefaultLongformerRadius);
}

TEST(ToggleGlobal, KeepsTheWindowAndTheOrder) {
  MaskSetting mask;
  mask.window = 4;
  mask = toggle_global(mask, 5);
  mask = toggle_global(mask, 1);
  EXPECT_EQ(mask.global, (std::vector<int>{1, 5}));
  mask = toggle_global(mask, 5);
  EXPECT_EQ(mask.global, std::vector<int>{1});
  mask = toggle_global(mask, 1);
  EXPECT_TRUE(mask.global.empty());
  EXPECT_EQ(mask.window, 4);  // removing the last global keeps the window
  EXPECT_EQ(toggle_global(mask, -1), mask);
}

TEST(SetWindow, RemovingTheWindowRemovesTheGlobals) {
  MaskSetting mask = toggle_global({}, 0);
  mask = set_window(mask, std::nullopt);
  EXPECT_FALSE(mask.window.has_value());
  EXPECT_TRUE(mask.global.empty());
  EXPECT_EQ(set_window({}, -3).window, 0);
}

TEST(MaskPresets, CausalSlidingLongformerAsBitmaps) {
  const int n = 5;
  EXPECT_EQ(bitmap(apply_mask_preset({}, MaskPreset::Causal), n),
            (std::vector<std::string>{"1....", "11...", "111..", "1111.", "11111"}));
  // Sliding window r = 2 with causal: itself and 2 before.
  EXPECT_EQ(bitmap(apply_mask_preset({}, MaskPreset::SlidingWindow), n),
            (std::vector<std::string>{"1....", "11...", "111..", ".111.", "..111"}));
  // Longformer r = 1 with token 0 global: band of 3 plus row and column 0.
  EXPECT_EQ(bitmap(apply_mask_preset({}, MaskPreset::Longformer), n),
            (std::vector<std::string>{"11111", "111..", "1111.", "1.111", "1..11"}));
  EXPECT_EQ(bitmap(apply_mask_preset(apply_mask_preset({}, MaskPreset::Causal), MaskPreset::None), n),
            (std::vector<std::string>{"11111", "11111", "11111", "11111", "11111"}));
}

TEST(MaskPresets, KeepTheRadiusAndGlobalsAlreadySet) {
  MaskSetting mask;
  mask.window = 3;
  mask.global = {2, 4};
  const MaskSetting longformer = apply_mask_preset(mask, MaskPreset::Longformer);
  EXPECT_EQ(longformer.window, 3);
  EXPECT_EQ(longformer.global, (std::vector<int>{2, 4}));
  EXPECT_FALSE(longformer.causal);
  const MaskSetting sliding = apply_mask_preset(mask, MaskPreset::SlidingWindow);
  EXPECT_EQ(sliding.window, 3);
  EXPECT_TRUE(sliding.global.empty());
  EXPECT_TRUE(sliding.causal);
}

TEST(MaskPresets, TheMatchingPresetIsRecognised) {
  for (const MaskPreset p : {MaskPreset::None, MaskPreset::Causal, MaskPreset::SlidingWindow, MaskPreset::Longformer}) {
    EXPECT_EQ(matching_preset(apply_mask_preset({}, p)), p) << mask_preset_name(p);
  }
  MaskSetting custom;
  custom.window = 2;  // symmetric window without globals: no preset
  EXPECT_FALSE(matching_preset(custom).has_value());
}

TEST(PruneGlobals, DropsTokensPastTheEnd) {
  MaskSetting mask;
  mask.window = 1;
  mask.global = {0, 3, 4, 9};
  EXPECT_EQ(prune_globals(mask, 4).global, (std::vector<int>{0, 3}));
}

TEST(ParseGlobalList, CommasSpacesDuplicates) {
  EXPECT_EQ(parse_global_list("0, 3 ,7", 8).indices, (std::vector<int>{0, 3, 7}));
  EXPECT_EQ(parse_global_list("3 1 3", 8).indices, (std::vector<int>{1, 3}));
  EXPECT_EQ(parse_global_list("", 8).indices, std::vector<int>{});
  EXPECT_EQ(format_global_list({0, 3, 7}), "0, 3, 7");
}

TEST(ParseGlobalList, ErrorsNameTheBadPart) {
  const ParsedGlobals word = parse_global_list("1, x2", 8);
  EXPECT_FALSE(word.indices.has_value());
  EXPECT_EQ(word.error, "\"x2\" is not a token index (0, 1, 2, ...)");
  const ParsedGlobals past = parse_global_list("9", 9);
  EXPECT_EQ(past.error, "9 is past the last token (8)");
  EXPECT_FALSE(parse_global_list("-1", 9).indices.has_value());
}

TEST(WindowSummary, CountsTheKeysARowSees) {
  MaskSetting mask;
  EXPECT_EQ(window_summary(mask), "every token sees every token");
  mask.window = 2;
  EXPECT_EQ(window_summary(mask), "each token sees 5 keys (±2)");
  mask.causal = true;
  EXPECT_EQ(window_summary(mask), "each token sees 3 keys (itself and 2 before)");
}

// --- mask expressions ---

TEST(NamedPatterns, EachIsAValidExpressionWithItsPaperParameters) {
  const std::vector<NamedPattern> patterns = named_patterns(16);
  ASSERT_EQ(patterns.size(), 10u);
  for (const NamedPattern& pattern : patterns) {
    MaskSetting mask = apply_pattern(MaskSetting{}, pattern, {"a", "b", ".", "c", "d"});
    EXPECT_NO_THROW(check_mask_expression(mask, "<gui>")) << pattern.expression;
  }
  EXPECT_EQ(patterns[0].expression, "k <= q");
  EXPECT_EQ(patterns[3].expression, "k <= q && (q - k < 4 || (q - k) % 4 == 0)");  // s = √16
  EXPECT_EQ(patterns[4].expression, "k <= q && (k < 2 || q - k <= 4)");
  EXPECT_EQ(patterns[6].expression, "q / 4 == k / 4");
  EXPECT_EQ(patterns[8].expression, "doc(q) == doc(k)");
}

TEST(NamedPatterns, APatternIsTheWholeMaskKeepingGlobalsAndAddingDocuments) {
  MaskSetting current;
  current.causal = true;
  current.window = 3;
  current.global = {2};
  const std::vector<NamedPattern> patterns = named_patterns(8);
  const MaskSetting documents = apply_pattern(current, patterns[8], {"The", "cat", ".", "A", "dog", "."});
  EXPECT_FALSE(documents.causal);
  EXPECT_FALSE(documents.window.has_value());
  EXPECT_EQ(documents.global, (std::vector<int>{2}));  // kept: an expression may read global(i)
  EXPECT_EQ(documents.documents, (std::vector<int>{0, 3}));
  const MaskSetting longformer = apply_pattern(MaskSetting{}, patterns[2], {"a", "b"});
  EXPECT_EQ(longformer.global, (std::vector<int>{0}));
}

TEST(PatternForLength, TheStridedPresetOnALongTextGetsTheStrideOfItsLength) {
  // The strided preset's stride of 4 over 20,000 tokens: 50 million runs, past what a mask
  // holds; √20,000 ≈ 141 gives 1.4 million.
  const std::string preset = "k <= q && (q - k < 4 || (q - k) % 4 == 0)";
  const std::optional<NamedPattern> longer = pattern_for_length(preset, 20000);
  ASSERT_TRUE(longer.has_value());
  EXPECT_EQ(longer->name, "Strided, s = 141");
  EXPECT_EQ(longer->expression, "k <= q && (q - k < 141 || (q - k) % 141 == 0)");
  MaskSetting setting;
  setting.expression = longer->expression;
  EXPECT_NO_THROW(Mask(setting, 20000, 20000));
  setting.expression = preset;
  EXPECT_THROW(Mask(setting, 20000, 20000), InputError);

  // Written without spaces, or with other numbers: the same pattern.
  EXPECT_EQ(pattern_for_length("k<=q&&(q-k<9||(q-k)%9==0)", 20000)->name, "Strided, s = 141");
  EXPECT_EQ(pattern_for_length("q / 7 == k / 7", 20000)->name, "Block-local, B = 141");
}

TEST(PatternForLength, NoneForAnExpressionOfNoPatternOrAlreadyOfThisLength) {
  EXPECT_FALSE(pattern_for_length("k <= q && (q - k < 4 || (q - k) % 4 == 0)", 16).has_value());  // s = √16 already
  EXPECT_FALSE(pattern_for_length("k<=q&&(q-k<4||(q-k)%4==0)", 16).has_value());
  EXPECT_FALSE(pattern_for_length("(q + k) % 2 == 0", 20000).has_value());
  EXPECT_FALSE(pattern_for_length("k <= q", 20000).has_value());  // causal has no parameter
  EXPECT_FALSE(pattern_for_length("", 20000).has_value());
  EXPECT_FALSE(pattern_for_length("abs(q - k) <= 2 * 2 && (q - k) % 2 == 0", 20000).has_value());  // fixed r, d
}

TEST(DocumentsFromTokens, StartAfterEachSentenceEndElseHalves) {
  EXPECT_EQ(documents_from_tokens({"a", "b", ".", "c", "!", "d"}), (std::vector<int>{0, 3, 5}));
  EXPECT_EQ(documents_from_tokens({"a", "b", "c", "d", "e"}), (std::vector<int>{0, 2}));
  EXPECT_EQ(documents_from_tokens({"a", "."}), (std::vector<int>{0, 1}));
}

TEST(MaskExpressionEdits, PresetsClearTheExpressionAndNothingMatchesAPresetWithOne) {
  MaskSetting mask = set_expression(MaskSetting{}, "k <= q");
  EXPECT_FALSE(matching_preset(mask).has_value());
  EXPECT_EQ(window_summary(mask), "the expression above decides which keys each query sees");
  EXPECT_TRUE(apply_mask_preset(mask, MaskPreset::Causal).expression.empty());
  mask.global = {1};
  EXPECT_EQ(set_window(mask, std::nullopt).global, (std::vector<int>{1}));  // global(i) still reads them
}

}  // namespace
}  // namespace attnviz::edits
