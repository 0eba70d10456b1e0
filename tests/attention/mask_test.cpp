// The mask object against hand-written bitmaps (docs/design.md "Masks"): the predicate, the spans
// and extra keys both backends read, the global-token table and the parameters the shaders get.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "core/attention/mask.h"
#include "core/common/error.h"

namespace attnviz {
namespace {

// One string per query row, '1' visible, '.' masked.
std::vector<std::string> bitmap(const MaskSetting& setting, int rows, int cols) {
  const MaskMatrix mask = build_mask(setting, rows, cols);
  std::vector<std::string> lines;
  for (int i = 0; i < rows; ++i) {
    std::string line;
    for (int j = 0; j < cols; ++j) line += mask.at(i, j) ? '1' : '.';
    lines.push_back(line);
  }
  return lines;
}

MaskSetting make(bool causal, std::optional<int> window = std::nullopt, std::vector<int> global = {}) {
  return MaskSetting{causal, window, std::move(global)};
}

TEST(Mask, NoMaskSeesEverything) {
  EXPECT_EQ(bitmap(make(false), 3, 3), (std::vector<std::string>{"111", "111", "111"}));
}

TEST(Mask, CausalIsLowerTriangular) {
  EXPECT_EQ(bitmap(make(true), 4, 4), (std::vector<std::string>{"1...", "11..", "111.", "1111"}));
}

TEST(Mask, WindowZeroIsTheDiagonal) {
  EXPECT_EQ(bitmap(make(false, 0), 4, 4), (std::vector<std::string>{"1...", ".1..", "..1.", "...1"}));
}

TEST(Mask, SymmetricWindowOfRadiusOneIsABand) {
  EXPECT_EQ(bitmap(make(false, 1), 5, 5), (std::vector<std::string>{"11...", "111..", ".111.", "..111", "...11"}));
}

TEST(Mask, WindowAtLeastNSeesEverything) {
  EXPECT_EQ(bitmap(make(false, 4), 4, 4), (std::vector<std::string>{"1111", "1111", "1111", "1111"}));
  EXPECT_EQ(bitmap(make(false, 100), 3, 3), (std::vector<std::string>{"111", "111", "111"}));
}

TEST(Mask, CausalSlidingWindowKeepsRPlusOneKeys) {
  // Mistral style: i − 2 ≤ j ≤ i.
  EXPECT_EQ(bitmap(make(true, 2), 6, 6),
            (std::vector<std::string>{"1.....", "11....", "111...", ".111..", "..111.", "...111"}));
}

TEST(Mask, GlobalTokensAtBothEndsSeeAndAreSeenByAll) {
  EXPECT_EQ(bitmap(make(false, 1, {0, 5}), 6, 6),
            (std::vector<std::string>{"111111", "111..1", "1111.1", "1.1111", "1..111", "111111"}));
}

TEST(Mask, LongformerOfTheKoreanFixture) {
  // r = 1, globals 0 and 5, N = 8: the mask in tests/fixtures/korean-longformer1-g05.json.
  EXPECT_EQ(bitmap(make(false, 1, {0, 5}), 8, 8),
            (std::vector<std::string>{"11111111", "111..1..", "1111.1..", "1.1111..", "1..111..", "11111111",
                                      "1....111", "1....111"}));
}

TEST(Mask, CausalStillAppliesToGlobalTokens) {
  EXPECT_EQ(bitmap(make(true, 0, {0, 3}), 5, 5),
            (std::vector<std::string>{"1....", "11...", "1.1..", "1111.", "1..11"}));
}

TEST(Mask, CrossAttentionWindowLeavesLateQueriesWithNothing) {
  // 10 queries over a 3-token source, window 1: query i sees keys j with |i − j| ≤ 1.
  const MaskMatrix mask = build_mask(make(false, 1), 10, 3);
  EXPECT_EQ(bitmap(make(false, 1), 10, 3),
            (std::vector<std::string>{"11.", "111", ".11", "..1", "...", "...", "...", "...", "...", "..."}));
  EXPECT_EQ(fully_masked_rows(mask), (std::vector<int>{4, 5, 6, 7, 8, 9}));
}

TEST(Mask, CrossAttentionGlobalIndexMarksRowAndColumnWhereTheyExist) {
  // g = 4 is a query row (N = 6) but not a key column (M = 3).
  EXPECT_EQ(bitmap(make(false, 0, {4}), 6, 3), (std::vector<std::string>{"1..", ".1.", "..1", "...", "111", "..."}));
}

TEST(Mask, FullyMaskedRowsIsEmptyWhenEveryRowSeesSomething) {
  EXPECT_TRUE(fully_masked_rows(build_mask(make(true, 0), 7, 7)).empty());
}

// Row i as the backends walk it: span(i), then the extra global keys, drawn like bitmap().
std::vector<std::string> spans(const MaskSetting& setting, int rows, int cols) {
  const Mask mask(setting, rows, cols);
  std::vector<std::string> lines;
  for (int i = 0; i < rows; ++i) {
    std::string line(static_cast<std::size_t>(cols), '.');
    const KeySpan span = mask.span(i);
    for (int j = span.begin; j < span.end; ++j) line[static_cast<std::size_t>(j)] = 's';
    mask.for_each_extra_key(i, span, [&](int j) {
      EXPECT_EQ(line[static_cast<std::size_t>(j)], '.') << "key " << j << " of row " << i << " visited twice";
      line[static_cast<std::size_t>(j)] = 'g';
    });
    lines.push_back(line);
  }
  return lines;
}

TEST(Mask, SpansAndExtraKeysOfALongformerMask) {
  // The bitmap of GlobalTokensAtBothEndsSeeAndAreSeenByAll, split as the backends read it:
  // s = inside the row's span, g = a global key outside it. Global rows 0 and 5 span all keys.
  EXPECT_EQ(spans(make(false, 1, {0, 5}), 6, 6),
            (std::vector<std::string>{"ssssss", "sss..g", "gsss.g", "g.sssg", "g..sss", "ssssss"}));
}

TEST(Mask, SpansOfACausalSlidingWindowWithAGlobalToken) {
  // Causal, r = 1, global 1: the band i − 1 ≤ j ≤ i, key 1 for every later row, row 1 all of j ≤ 1.
  EXPECT_EQ(spans(make(true, 1, {1}), 5, 5), (std::vector<std::string>{"s....", "ss...", ".ss..", ".gss.", ".g.ss"}));
  EXPECT_EQ(bitmap(make(true, 1, {1}), 5, 5), (std::vector<std::string>{"1....", "11...", ".11..", ".111.", ".1.11"}));
}

TEST(Mask, SpansAndExtraKeysAreExactlyTheVisibleKeys) {
  const std::vector<std::pair<MaskSetting, std::pair<int, int>>> cases = {{make(false), {5, 5}},
                                                                          {make(true), {6, 6}},
                                                                          {make(true, 2), {9, 9}},
                                                                          {make(false, 1, {0, 5}), {8, 8}},
                                                                          {make(true, 0, {0, 3}), {7, 7}},
                                                                          {make(false, 1, {4}), {6, 3}},
                                                                          {make(false, 2, {1, 2, 7}), {3, 9}},
                                                                          {make(true, 3, {2}), {12, 5}}};
  for (const auto& [setting, size] : cases) {
    const auto [rows, cols] = size;
    const std::vector<std::string> read = spans(setting, rows, cols);
    std::vector<std::string> seen = bitmap(setting, rows, cols);
    for (std::string& line : seen) {
      for (char& c : line) c = c == '1' ? 'x' : '.';
    }
    std::vector<std::string> walked = read;
    for (std::string& line : walked) {
      for (char& c : line) c = c == '.' ? '.' : 'x';
    }
    EXPECT_EQ(walked, seen) << rows << " x " << cols;
  }
}

TEST(Mask, ReportsItsKindAndSize) {
  const Mask mask(make(true, 2, {0}), 5, 7);
  EXPECT_EQ(mask.rows(), 5);
  EXPECT_EQ(mask.cols(), 7);
  EXPECT_TRUE(mask.causal());
  EXPECT_EQ(mask.window(), 2);
  EXPECT_TRUE(mask.has_globals());
  EXPECT_EQ(Mask(make(false), 3, 3).window(), -1);
  EXPECT_FALSE(Mask(make(false), 3, 3).causal());
  EXPECT_EQ(Mask().rows(), 0);
  EXPECT_EQ(Mask().matrix().visible.size(), 0u);
}

TEST(Mask, GlobalTokensNeedAWindowAndAPlaceInTheProblem) {
  // Without a window global indices change nothing (docs/design.md); past N and M they mark nothing.
  const Mask no_window(make(false, std::nullopt, {0, 2}), 4, 4);
  EXPECT_FALSE(no_window.has_globals());
  EXPECT_FALSE(no_window.is_global_row(0));
  EXPECT_EQ(no_window.matrix(), build_mask(make(false), 4, 4));
  const Mask outside(make(false, 0, {7, -1}), 3, 3);
  EXPECT_FALSE(outside.has_globals());
  EXPECT_TRUE(outside.global_columns().empty());
  EXPECT_EQ(outside.matrix(), build_mask(make(false, 0), 3, 3));
}

TEST(Mask, TheGlobalTokenTableOfCrossAttention) {
  // 3 queries over 6 keys, r = 1, globals 1 and 4: 4 marks a key column only (4 ≥ N). Texel t
  // of t ≤ max(N, M) = (global row, global column, global rows before t, global columns
  // before t); then, from texel 7, the 4-column chunks holding a global column: 0 and 1.
  const Mask mask(make(false, 1, {1, 4}), 3, 6);
  EXPECT_EQ(Mask::globals_texel_count(3, 6), 9);
  EXPECT_EQ(mask.globals_texel_count(), 9);
  EXPECT_EQ(mask.globals_table(), (std::vector<std::uint32_t>{0, 0, 0, 0,     //
                                                              1, 1, 0, 0,     //
                                                              0, 0, 1, 1,     //
                                                              0, 0, 1, 1,     //
                                                              0, 1, 1, 1,     //
                                                              0, 0, 1, 2,     //
                                                              0, 0, 1, 2,     //
                                                              0, 0, 0, 0,     // chunk 0 (columns 0-3)
                                                              1, 0, 0, 0}));  // chunk 1 (columns 4-7)
  const MaskParams params = mask.params();
  EXPECT_EQ(params.rows, 3);
  EXPECT_EQ(params.cols, 6);
  EXPECT_EQ(params.causal, 0);
  EXPECT_EQ(params.window, 1);
  EXPECT_EQ(params.has_globals, 1);
  EXPECT_EQ(params.list_offset, 7);
  EXPECT_EQ(params.list_count, 2);
}

TEST(Mask, GlobalColumnsInOneChunkAreListedOnce) {
  const Mask mask(make(true, 0, {4, 6, 9}), 10, 10);
  EXPECT_EQ(mask.global_columns(), (std::vector<int>{4, 6, 9}));
  const std::vector<std::uint32_t> table = mask.globals_table();
  ASSERT_EQ(table.size(), static_cast<std::size_t>(11 + 3) * 4);
  EXPECT_EQ(mask.params().list_offset, 11);
  EXPECT_EQ(mask.params().list_count, 2);
  EXPECT_EQ(table[11 * 4], 1u);      // columns 4 and 6: chunk 1
  EXPECT_EQ(table[12 * 4], 2u);      // column 9: chunk 2
  EXPECT_EQ(table[10 * 4 + 2], 3u);  // global rows before token 10
  EXPECT_EQ(table[10 * 4 + 3], 3u);
}

TEST(Mask, WithoutGlobalTokensTheTableIsZeroAndTheShadersUseArithmetic) {
  const Mask mask(make(true, 2), 4, 4);
  EXPECT_FALSE(mask.has_globals());
  EXPECT_EQ(mask.globals_table(), std::vector<std::uint32_t>(static_cast<std::size_t>(4 + 1 + 1) * 4, 0u));
  const MaskParams params = mask.params();
  EXPECT_EQ(params.causal, 1);
  EXPECT_EQ(params.window, 2);
  EXPECT_EQ(params.has_globals, 0);
  EXPECT_EQ(params.list_offset, 5);
  EXPECT_EQ(params.list_count, 0);
  EXPECT_EQ(Mask(make(false), 2, 3).params().window, -1);
}

// MaskParams is mirrored by struct MaskParams in shaders/common/mask.glsl: the same members,
// all int, in the same order (its static_asserts pin the C++ offsets to 4 bytes apart).
TEST(Mask, TheShadersDeclareMaskParamsMemberForMember) {
  std::ifstream file(std::string(ATTNVIZ_SOURCE_DIR) + "/shaders/common/mask.glsl");
  ASSERT_TRUE(file) << "shaders/common/mask.glsl";
  std::stringstream text;
  text << file.rdbuf();
  // (No std::regex: GCC 12 warns inside <regex> under -fsanitize, and warnings are errors.)
  const std::string glsl = text.str();
  const std::string opening = "struct MaskParams {";
  const auto begin = glsl.find(opening);
  ASSERT_NE(begin, std::string::npos) << "struct MaskParams not found in mask.glsl";
  const auto end = glsl.find("};", begin);
  ASSERT_NE(end, std::string::npos) << "struct MaskParams is not closed in mask.glsl";
  std::istringstream body(glsl.substr(begin + opening.size(), end - begin - opening.size()));
  std::vector<std::string> members;
  for (std::string line; std::getline(body, line);) {
    std::istringstream declaration(line.substr(0, line.find("//")));
    std::string type, name;
    if (!(declaration >> type >> name)) continue;
    ASSERT_EQ(name.back(), ';') << line;
    name.pop_back();
    EXPECT_EQ(type, "int") << line;
    members.push_back(name);
  }
  EXPECT_EQ(members, (std::vector<std::string>{"rows", "cols", "causal", "window", "has_globals", "list_offset",
                                               "list_count", "runs_offset", "head_stride", "head"}));
  static_assert(offsetof(MaskParams, rows) == 0 && offsetof(MaskParams, cols) == 4 &&
                offsetof(MaskParams, causal) == 8 && offsetof(MaskParams, window) == 12 &&
                offsetof(MaskParams, has_globals) == 16 && offsetof(MaskParams, list_offset) == 20 &&
                offsetof(MaskParams, list_count) == 24 && offsetof(MaskParams, runs_offset) == 28 &&
                offsetof(MaskParams, head_stride) == 32 && offsetof(MaskParams, head) == 36 &&
                sizeof(MaskParams) == 40);
}

// Every block of every size on a set of masks (self- and cross-attention, every kind, global
// tokens near the edges) against the bitmap: block_visible is exact, and classify_block says
// hidden / partial / full exactly.
TEST(Mask, BlocksAreClassifiedExactlyAgainstTheBitmap) {
  const std::vector<MaskSetting> settings = {make(false),         make(true),          make(false, 0),
                                             make(true, 0),       make(false, 2),      make(true, 2),
                                             make(false, 1, {0}), make(true, 1, {0}),  make(true, 1, {3, 9}),
                                             make(false, 2, {5}), make(true, 0, {10}), make(false, 0, {2, 3})};
  const std::vector<std::pair<int, int>> shapes = {{11, 11}, {7, 12}, {12, 7}, {1, 5}};
  for (const MaskSetting& setting : settings) {
    for (const auto& [rows, cols] : shapes) {
      const Mask mask(setting, rows, cols);
      const MaskMatrix bits = mask.matrix();
      for (int i0 = 0; i0 < rows; ++i0) {
        for (int i1 = i0 + 1; i1 <= rows + 1; ++i1) {
          for (int j0 = 0; j0 < cols; ++j0) {
            for (int j1 = j0 + 1; j1 <= cols + 1; ++j1) {
              int seen = 0;
              int cells = 0;
              for (int i = i0; i < std::min(i1, rows); ++i) {
                for (int j = j0; j < std::min(j1, cols); ++j) {
                  seen += bits.at(i, j) ? 1 : 0;
                  ++cells;
                }
              }
              const BlockVisibility want = seen == 0       ? BlockVisibility::Hidden
                                           : seen == cells ? BlockVisibility::Full
                                                           : BlockVisibility::Partial;
              ASSERT_EQ(mask.block_visible(i0, i1, j0, j1), seen > 0)
                  << rows << "x" << cols << " rows " << i0 << ".." << i1 << " cols " << j0 << ".." << j1;
              ASSERT_EQ(mask.classify_block(i0, i1, j0, j1), want)
                  << rows << "x" << cols << " rows " << i0 << ".." << i1 << " cols " << j0 << ".." << j1;
            }
          }
        }
      }
    }
  }
}

// --- masks with an expression ---

MaskSetting with_expression(MaskSetting setting, std::string expression, std::vector<int> documents = {}) {
  setting.expression = std::move(expression);
  setting.documents = std::move(documents);
  return setting;
}

// The bitmap of head h, one string per row.
std::vector<std::string> head_bitmap(const Mask& mask, int h) {
  const MaskMatrix bits = mask.matrix(h);
  std::vector<std::string> lines;
  for (int i = 0; i < bits.rows; ++i) {
    std::string line;
    for (int j = 0; j < bits.cols; ++j) line += bits.at(i, j) ? '1' : '.';
    lines.push_back(line);
  }
  return lines;
}

TEST(MaskExpression, SinksAndWindowByHand) {
  // k <= q && (k < 2 || q - k <= 1): two sink tokens and the previous key.
  const Mask mask(with_expression(make(false), "k <= q && (k < 2 || q - k <= 1)"), 6, 6);
  EXPECT_TRUE(mask.general());
  EXPECT_FALSE(mask.depends_on_head());
  EXPECT_EQ(head_bitmap(mask, 0),
            (std::vector<std::string>{"1.....", "11....", "111...", "1111..", "11.11.", "11..11"}));
}

TEST(MaskExpression, IsAndedWithTheFields) {
  // Causal AND a band of 1 = the causal sliding window r = 1.
  const Mask mask(with_expression(make(true), "abs(q - k) <= 1"), 5, 5);
  EXPECT_EQ(mask.matrix(), build_mask(make(true, 1), 5, 5));
  // Longformer's fields AND documents: the band and global token 0, cut at the documents.
  const Mask packed(with_expression(make(false, 1, {0}), "doc(q) == doc(k)", {0, 3}), 6, 6);
  EXPECT_EQ(head_bitmap(packed, 0),
            (std::vector<std::string>{"111...", "111...", "111...", "...11.", "...111", "....11"}));
}

TEST(MaskExpression, NamedPatternsEqualTheirFields) {
  const std::pair<MaskSetting, MaskSetting> same[] = {
      {with_expression(make(false), "k <= q"), make(true)},
      {with_expression(make(false), "k <= q && q - k <= 3"), make(true, 3)},
      {with_expression(make(false), "abs(q - k) <= 2 || global(q) || global(k)", {}), make(false, 2, {1, 8})},
  };
  for (auto [expression, fields] : same) {
    expression.global = fields.global;
    const Mask a(expression, 11, 11);
    const Mask b(fields, 11, 11);
    EXPECT_EQ(a.matrix(), b.matrix()) << expression.expression;
  }
}

TEST(MaskExpression, GlobalTokensWithoutAWindowServeTheExpression) {
  // global(i) reads the list even without a window; the fields then hide nothing.
  MaskSetting setting = with_expression(make(false), "global(k)");
  setting.global = {2};
  EXPECT_EQ(head_bitmap(Mask(setting, 3, 4), 0), (std::vector<std::string>{"..1.", "..1.", "..1."}));
}

TEST(MaskExpression, HeadDependentMasksHaveRowsPerHead) {
  const Mask mask(with_expression(make(true), "q - k <= h"), 4, 4, 3);
  EXPECT_TRUE(mask.depends_on_head());
  EXPECT_EQ(head_bitmap(mask, 0), (std::vector<std::string>{"1...", ".1..", "..1.", "...1"}));
  EXPECT_EQ(head_bitmap(mask, 2), (std::vector<std::string>{"1...", "11..", "111.", ".111"}));
  EXPECT_TRUE(mask.visible(2, 3, 1));
  EXPECT_FALSE(mask.visible(0, 3, 1));
  const MaskParams params = mask.params(2);
  EXPECT_EQ(params.head_stride, 4);
  EXPECT_EQ(params.head, 2);
  EXPECT_EQ(params.runs_offset, 3 * 4 + 1);
}

TEST(MaskExpression, TheShadersTableListsEachRowsRuns) {
  // Row 0: [0, 1); row 1: [0, 1) [2, 3)... of "k == 0 || k == q + 1" on 2 × 4.
  const Mask mask(with_expression(make(false), "k == 0 || k == q + 1"), 2, 4);
  const std::vector<std::uint32_t> table = mask.table();
  ASSERT_EQ(mask.params().runs_offset, 3);
  // Index: row 0 starts at run 0, row 1 at run 1, 3 runs in all; then [0, 2), [0, 1), [2, 3),
  // each as begin | (end - 1) << 16.
  const std::vector<std::uint32_t> want = {0, 1, 3, 0 | (1u << 16), 0 | (0u << 16), 2 | (2u << 16), 0, 0};
  EXPECT_EQ(table, want);
  EXPECT_EQ(mask.table_texel_count(), 2);
}

TEST(MaskExpression, TheTableHoldsKeysUpTo65536) {
  // The overview's longest text: a run ending at key 65,536 is stored as its last key, 65,535.
  const Mask mask(with_expression(make(false), "k > q || k == 0"), 2, 65536);
  const std::vector<std::uint32_t> table = mask.table();
  const auto run = [&](int r) {
    const std::uint32_t packed = table[static_cast<std::size_t>(mask.params().runs_offset + r)];
    return std::pair<int, int>(static_cast<int>(packed & 0xFFFFu), static_cast<int>(packed >> 16) + 1);
  };
  EXPECT_EQ(run(0), (std::pair<int, int>(0, 65536)));  // row 0: every key
  EXPECT_EQ(run(1), (std::pair<int, int>(0, 1)));      // row 1: key 0, then keys 2 to 65,535
  EXPECT_EQ(run(2), (std::pair<int, int>(2, 65536)));
  EXPECT_THROW(Mask(with_expression(make(false), "k >= q"), 2, 65537), InputError);
}

TEST(MaskExpression, TooManyRunsAreRefusedNotHeld) {
  // A checkerboard over 8,192 tokens: 33.5 million runs, past the 16.8 million a mask holds.
  try {
    const Mask mask(with_expression(make(false), "(q + k) % 2 == 0"), 8192, 8192);
    ADD_FAILURE() << "accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("runs of visible keys"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("8,192 rows"), std::string::npos) << e.what();
  }
  // The materialised path's largest, 4,096 tokens, is held.
  const Mask largest(with_expression(make(false), "(q + k) % 2 == 0"), 4096, 4096);
  EXPECT_TRUE(largest.visible(1, 3));
  EXPECT_FALSE(largest.visible(1, 2));
}

TEST(MaskExpression, RowsThatSeeNothingAreEmpty) {
  const Mask mask(with_expression(make(false), "k < q"), 3, 3);
  EXPECT_EQ(fully_masked_rows(mask.matrix()), (std::vector<int>{0}));
  std::vector<KeySpan> scratch;
  EXPECT_TRUE(mask.runs(0, 0, scratch).empty());
}

// Every block of every size, on expressions and fields (runs made on the fly), against the
// bitmap; and the block grid at several sizes against the same brute-force count.
TEST(MaskExpression, BlocksAreClassifiedExactlyAgainstTheBitmap) {
  const std::vector<MaskSetting> settings = {
      with_expression(make(false), "k <= q && (q - k < 2 || (q - k) % 3 == 0)"),
      with_expression(make(true), "k < 2 || q - k <= 2"),
      with_expression(make(false), "q / 3 == k / 3"),
      with_expression(make(false, 2, {4}), "doc(q) == doc(k) || global(q)", {0, 5, 6}),
      with_expression(make(false), "(q + k + h) % 2 == 0"),
      make(true, 1, {3, 9}),
  };
  const std::vector<std::pair<int, int>> shapes = {{10, 10}, {7, 11}, {11, 6}};
  for (const MaskSetting& setting : settings) {
    for (const auto& [rows, cols] : shapes) {
      const Mask mask(setting, rows, cols, 2);
      for (int h = 0; h < 2; ++h) {
        const MaskMatrix bits = mask.matrix(h);
        auto want = [&](int i0, int i1, int j0, int j1) {
          int seen = 0;
          int cells = 0;
          for (int i = i0; i < std::min(i1, rows); ++i) {
            for (int j = j0; j < std::min(j1, cols); ++j) {
              seen += bits.at(i, j) ? 1 : 0;
              ++cells;
            }
          }
          return seen == 0 ? BlockVisibility::Hidden
                           : (seen == cells ? BlockVisibility::Full : BlockVisibility::Partial);
        };
        for (int i0 = 0; i0 < rows; ++i0) {
          for (int i1 = i0 + 1; i1 <= rows + 1; ++i1) {
            for (int j0 = 0; j0 < cols; ++j0) {
              for (int j1 = j0 + 1; j1 <= cols + 1; ++j1) {
                const BlockVisibility kind = want(i0, i1, j0, j1);
                ASSERT_EQ(mask.block_visible(h, i0, i1, j0, j1), kind != BlockVisibility::Hidden) << setting.expression;
                ASSERT_EQ(mask.classify_block(h, i0, i1, j0, j1), kind) << setting.expression;
              }
            }
          }
        }
        for (int size = 1; size <= 5; ++size) {
          const BlockGrid grid = mask.block_grid(h, size);
          ASSERT_EQ(grid.tile_rows, (rows + size - 1) / size);
          ASSERT_EQ(grid.tile_cols, (cols + size - 1) / size);
          long long counts[3] = {0, 0, 0};
          for (int tr = 0; tr < grid.tile_rows; ++tr) {
            for (int tc = 0; tc < grid.tile_cols; ++tc) {
              const BlockVisibility kind = want(tr * size, (tr + 1) * size, tc * size, (tc + 1) * size);
              ASSERT_EQ(grid.at(tr, tc), kind) << setting.expression << " size " << size;
              ++counts[static_cast<int>(kind)];
            }
          }
          EXPECT_EQ(grid.empty, counts[0]);
          EXPECT_EQ(grid.partial, counts[1]);
          EXPECT_EQ(grid.full, counts[2]);
        }
      }
    }
  }
}

}  // namespace
}  // namespace attnviz
