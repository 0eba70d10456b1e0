// The lesson pages' words go through the caller's Wording (core/common/wording.h): a translator
// that brackets every message must reach every word of every page (nothing English left beside
// numbers, tokens and notation), and numbered arguments must land where a translation puts them.

#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/common/wording.h"
#include "core/cpu/cpu_backend.h"
#include "core/lesson/row_stats.h"
#include "core/lesson/steps.h"
#include "core/lesson/variants.h"
#include "core/scenario/problem.h"

namespace attnviz {
namespace {

// Every message bracketed (by control characters, which no page writes), so what a page shows
// outside brackets was never translated.
constexpr char kOpen = '\x01';
constexpr char kClose = '\x02';

Wording bracketing() {
  return Wording([](const char* msgid) { return kOpen + std::string(msgid) + kClose; },
                 [](const char* singular, const char* plural, unsigned long n) {
                   return kOpen + std::string(n == 1 ? singular : plural) + kClose;
                 });
}

// The words a page may show untranslated: the notation of its formulas and matrix names.
const std::set<std::string>& notation() {
  static const std::set<std::string> words = {"exp", "max",   "sin",  "cos",     "pos",  "concat", "output", "scale",
                                              "src", "ALiBi", "RoPE", "softmax", "mask", "MHA",    "GQA",    "MQA"};
  return words;
}

// The English words of `text` outside brackets, tokens of the sentence and notation left out.
std::vector<std::string> unworded(const std::string& text, const std::vector<std::string>& tokens) {
  // A message's arguments can be messages too: brackets nest, so the innermost go first.
  const std::regex innermost("\x01[^\x01\x02]*\x02");
  std::string outside = text;
  for (std::string fewer; (fewer = std::regex_replace(outside, innermost, " ")) != outside;) outside = fewer;
  std::vector<std::string> found;
  const std::regex word("[A-Za-z]{3,}");
  for (auto it = std::sregex_iterator(outside.begin(), outside.end(), word); it != std::sregex_iterator(); ++it) {
    const std::string w = it->str();
    if (!notation().contains(w) && std::find(tokens.begin(), tokens.end(), w) == tokens.end()) found.push_back(w);
  }
  return found;
}

std::vector<std::string> page_texts(const lesson::StepPage& page) {
  std::vector<std::string> texts = {page.title, page.formula, page.note, page.trace_heading, page.table.more};
  for (const auto* lines : {&page.trace, &page.trace_after, &page.table.header})
    texts.insert(texts.end(), lines->begin(), lines->end());
  for (const auto& row : page.table.rows)
    texts.insert(texts.end(), row.begin() + 1, row.end());  // past the key's token
  for (const lesson::ShownMatrix& m : page.matrices) texts.push_back(m.name);
  if (page.turning) {
    texts.push_back(page.turning->caption);
    texts.push_back(page.turning->angle_text);
  }
  return texts;
}

Scenario base(PositionalKind kind) {
  Scenario s;
  s.sentence = "the cat sat on the mat";
  s.d_model = 8;
  s.num_heads = 2;
  s.num_kv_heads = 1;  // shared K/V heads: the Q, K, V page says which
  s.d_k = 4;
  s.d_v = 3;
  s.mask.causal = true;
  s.positional = kind;
  return s;
}

std::vector<Scenario> scenarios() {
  std::vector<Scenario> all;
  for (PositionalKind kind :
       {PositionalKind::None, PositionalKind::Sinusoidal, PositionalKind::Rope, PositionalKind::Alibi})
    all.push_back(base(kind));
  Scenario dropout = base(PositionalKind::None);
  dropout.dropout = DropoutSetting{0.5, 3};
  dropout.mask = MaskSetting{false, 1, {0}};  // Longformer
  dropout.position_offset = 2;
  all.push_back(dropout);
  Scenario unscaled = base(PositionalKind::None);
  unscaled.scale.kind = ScaleSetting::Kind::None;
  unscaled.mask = MaskSetting{};
  unscaled.num_heads = unscaled.num_kv_heads = 1;
  all.push_back(unscaled);
  Scenario tempered = base(PositionalKind::Alibi);
  tempered.scale = ScaleSetting{ScaleSetting::Kind::Value, 0.25};
  tempered.mask = MaskSetting{true, 2, {}};
  tempered.num_heads = 3;
  all.push_back(tempered);
  return all;
}

TEST(LessonWording, EveryWordOfEveryPageGoesThroughTheWording) {
  for (const Scenario& s : scenarios()) {
    const Problem problem = build_problem(s, "test");
    const Result result = make_cpu_backend()->compute(problem);
    const lesson::StepModel model(problem, result);
    for (int mistake = 0; mistake < lesson::kMistakeCount; ++mistake) {
      lesson::PageFocus focus;
      focus.query = 3;
      focus.key = 1;
      focus.max_trace_keys = 2;  // "… n more keys"
      focus.mistake = lesson::mistake_at(mistake);
      for (const lesson::StepPage& page : model.pages(focus, bracketing()))
        for (const std::string& text : page_texts(page))
          EXPECT_EQ(unworded(text, result.tokens), std::vector<std::string>{}) << page.title << "\n" << text;
    }
    const std::vector<lesson::ScaleCase> cases =
        lesson::scaling_contrast(result.heads[0].scores, result.mask, problem.d_k, problem.scale, bracketing());
    for (const lesson::ScaleCase& c : cases) EXPECT_EQ(unworded(c.label, {}), std::vector<std::string>{}) << c.label;
    const std::string verdict = lesson::scaling_verdict(cases, problem.d_k, bracketing());
    EXPECT_EQ(unworded(verdict, {}), std::vector<std::string>{}) << verdict;
  }
}

// The Compare view's labels and notes, on every axis with 2 and 4 copies, over scenarios that
// leave variants out (heads that do not divide the width, RoPE of an odd d_k) or change the
// base first (one head split before its K/V heads are shared): all worded, and each variant's
// key is its English label whatever the language (the window's ImGui IDs).
TEST(LessonWording, EveryCompareVariantGoesThroughTheWording) {
  std::vector<Scenario> bases = scenarios();
  Scenario odd = base(PositionalKind::None);  // one head of d_k = 3: 2, 4 and 8 heads left out, no RoPE
  odd.num_heads = odd.num_kv_heads = 1;
  odd.d_k = 3;
  bases.push_back(odd);
  Scenario splits = odd;  // one head of 4 columns: split into 4 heads before sharing K/V heads
  splits.d_k = splits.d_v = 4;
  bases.push_back(splits);
  Scenario wide = base(PositionalKind::None);  // 2 heads of d_k = 3: 4 and 8 heads left out
  wide.num_kv_heads = 2;
  wide.d_k = 3;
  bases.push_back(wide);
  std::set<std::string> notes;
  for (const Scenario& s : bases) {
    const Problem problem = build_problem(s, "test");
    for (int axis = 0; axis < lesson::kCompareAxisCount; ++axis)
      for (int count : {2, 4}) {
        const lesson::CompareOptions options{
            .axis = static_cast<lesson::CompareAxis>(axis), .count = count, .window = 1, .global = {0, 2}};
        const lesson::Comparison worded = lesson::derive_comparison(s, problem, options, bracketing());
        const lesson::Comparison english = lesson::derive_comparison(s, problem, options);
        ASSERT_EQ(worded.variants.size(), english.variants.size());
        for (std::size_t v = 0; v < worded.variants.size(); ++v) {
          const std::string& label = worded.variants[v].label;
          EXPECT_EQ(unworded(label, problem.tokens), std::vector<std::string>{}) << label;
          if (!notation().contains(label)) {  // RoPE and ALiBi are names
            EXPECT_NE(label.find(kOpen), std::string::npos) << label;
          }
          EXPECT_EQ(worded.variants[v].key, english.variants[v].label);
          EXPECT_EQ(english.variants[v].key, english.variants[v].label);
        }
        EXPECT_EQ(unworded(worded.note, problem.tokens), std::vector<std::string>{}) << worded.note;
        EXPECT_EQ(worded.note.empty(), english.note.empty());
        if (!english.note.empty()) notes.insert(english.note.substr(0, english.note.find(':')));
      }
  }
  // Every kind of note was made: heads left out (one, two and three counts), one head split
  // first, too few K/V groupings (one copy, and several), RoPE left out.
  EXPECT_EQ(notes, (std::set<std::string>{"2 heads left out", "8 heads left out", "4 and 8 heads left out",
                                          "2, 4 and 8 heads left out",
                                          "The one-head scenario is split into 4 heads of d_k = 1 first", "Only 1 copy",
                                          "Only 2 copies", "RoPE left out"}));
  EXPECT_THROW((void)lesson::derive_comparison(bases[0], build_problem(bases[0], "test"), {.count = 3}, bracketing()),
               std::invalid_argument);
}

TEST(LessonWording, TheDefaultIsTheEnglishOfThePages) {
  const Problem problem = build_problem(base(PositionalKind::None), "test");
  const Result result = make_cpu_backend()->compute(problem);
  const lesson::StepModel model(problem, result);
  lesson::PageFocus focus;
  focus.query = 2;
  EXPECT_EQ(model.page(lesson::StepKind::Scores, focus).title, "4. Scores: every query against every key");
  EXPECT_EQ(model.page(lesson::StepKind::Scores, focus).trace_heading, "Following sat (query 2, head 0)");
}

TEST(LessonWording, NumberedArgumentsLandWhereTheTranslationPutsThem) {
  EXPECT_EQ(fill_arguments("%3$s, %1$s, %2$s and %1$s again; 100%%", {"a", "b", "c"}), "c, a, b and a again; 100%");
  EXPECT_EQ(fill_arguments("%2$s is missing", {"a"}), "%2$s is missing");  // shown, not a crash
  const Wording reordering(
      [](const char* msgid) {
        return std::string(msgid) == "Following %1$s (query %2$s, head %3$s)" ? "head %3$s, query %2$s: %1$s" : msgid;
      },
      nullptr);
  const Problem problem = build_problem(base(PositionalKind::None), "test");
  const Result result = make_cpu_backend()->compute(problem);
  lesson::PageFocus focus;
  focus.head = 1;
  focus.query = 2;
  EXPECT_EQ(lesson::StepModel(problem, result).page(lesson::StepKind::Softmax, focus, reordering).trace_heading,
            "head 1, query 2: sat");
  EXPECT_EQ(reordering.trn("%1$s key", "%1$s keys", 2, {"2"}), "2 keys");  // no plural lookup: English forms
}

}  // namespace
}  // namespace attnviz
