// attnviz-scenario/1 files: every documented problem names the file, the field and the fix;
// save → load gives back the same scenario bit for bit.

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <random>

#include "core/common/error.h"
#include "core/scenario/problem.h"
#include "core/scenario/scenario_json.h"

namespace attnviz {
namespace {

const std::string kLifeIsShort = R"({
  "format": "attnviz-scenario/1",
  "sentence": "Life is short, eat dessert first",
  "tokens": ["Life", "is", "short", "eat", "dessert", "first"],
  "d_model": 3,
  "embeddings": [[0.3374,-0.1778,-0.3035],[0.1794,1.8951,0.4954],[0.2692,-0.0770,-1.0205],
                 [-0.2196,-0.3792,0.7671],[-0.5880,0.3486,0.6603],[-1.1925,0.6984,-1.4097]],
  "num_heads": 1, "num_kv_heads": 1, "d_k": 2, "d_v": 4,
  "wq": [[0.2961,0.5166],[0.2517,0.6886],[0.0740,0.8665]],
  "wk": [[0.1366,0.1025],[0.1841,0.7264],[0.3153,0.6871]],
  "wv": [[0.0756,0.1966,0.3164,0.4017],[0.1186,0.8274,0.3821,0.6605],[0.8536,0.5932,0.6367,0.9826]],
  "scale": "inv_sqrt_dk",
  "mask": {"causal": true}
})";

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return text.replace(at, from.size(), to);
}

struct Expected {
  std::string pointer;
  std::string words;  // a phrase the message must contain
};

// Parses (and builds the problem, for token-dependent checks) and returns the error.
Expected error_of(const std::string& text) {
  try {
    const LoadedScenario loaded = parse_scenario(text, "bad.json");
    build_problem(loaded.scenario, "bad.json");
  } catch (const InputError& e) {
    EXPECT_EQ(e.origin(), "bad.json");
    EXPECT_EQ(std::string(e.what()).rfind("bad.json: ", 0), 0u) << e.what();
    return {e.pointer(), e.problem()};
  }
  ADD_FAILURE() << "no error for:\n" << text;
  return {};
}

void expect_error(const std::string& text, const std::string& pointer, const std::string& words) {
  const Expected e = error_of(text);
  EXPECT_EQ(e.pointer, pointer) << e.words;
  EXPECT_NE(e.words.find(words), std::string::npos) << "message: " << e.words << "\nwanted: " << words;
}

TEST(ScenarioJson, LoadsTheDesignExample) {
  const LoadedScenario loaded = parse_scenario(kLifeIsShort, "life.json");
  EXPECT_TRUE(loaded.warnings.empty());
  const Scenario& s = loaded.scenario;
  EXPECT_EQ(s.d_model, 3);
  EXPECT_EQ(s.d_v, 4);
  ASSERT_TRUE(s.wv.has_value());
  EXPECT_EQ(s.wv->at(2, 3), 0.9826f);
  EXPECT_TRUE(s.mask.causal);
}

TEST(ScenarioJson, WrongShapeSaysWhichMatrixWhatShapeAndWhatItNeeds) {
  expect_error(replaced(kLifeIsShort, "[[0.2961,0.5166],[0.2517,0.6886],[0.0740,0.8665]]", "[[1,2,3],[4,5,6],[7,8,9]]"),
               "/wq", "has shape 3×3 but needs d_model × (num_heads·d_k) = 3×2");
  expect_error(replaced(kLifeIsShort, "[[0.1366,0.1025],[0.1841,0.7264],[0.3153,0.6871]]", "[[1,2],[3,4]]"), "/wk",
               "shape 2×2");
  expect_error(replaced(kLifeIsShort, "[0.8536,0.5932,0.6367,0.9826]", "[0.8536,0.5932,0.6367]"), "/wv/2",
               "has 3 values but row 0 has 4");
  expect_error(replaced(kLifeIsShort, "[-1.1925,0.6984,-1.4097]", "[-1.1925,0.6984,-1.4097],[1,2,3]"), "/embeddings",
               "has 7 rows but there are 6 tokens");
}

TEST(ScenarioJson, EmbeddingRowsAreCheckedAgainstTheTokenizedSentence) {
  const std::string text =
      replaced(kLifeIsShort, R"("tokens": ["Life", "is", "short", "eat", "dessert", "first"],)", "");
  // "Life is short, eat dessert first" has 7 tokens with the comma.
  expect_error(text, "/embeddings", "needs one row of d_model values per token, N × d_model = 7×3");
}

TEST(ScenarioJson, HeadsMustBeAMultipleOfKvHeads) {
  expect_error(replaced(kLifeIsShort, R"("num_heads": 1, "num_kv_heads": 1)", R"("num_heads": 3, "num_kv_heads": 2)"),
               "/num_kv_heads", "num_heads (3) must be a multiple of num_kv_heads (2)");
}

TEST(ScenarioJson, NegativeWindowAndGlobalProblems) {
  expect_error(replaced(kLifeIsShort, R"({"causal": true})", R"({"window": -1})"), "/mask/window", "0 or more, got -1");
  expect_error(replaced(kLifeIsShort, R"({"causal": true})", R"({"window": 1, "global": [0, 6]})"), "/mask/global/1",
               "token index 6 is out of range: the sentence has 6 tokens");
  expect_error(replaced(kLifeIsShort, R"({"causal": true})", R"({"global": [0]})"), "/mask/global", "need a window");
}

// docs/design.md "Mask expressions": the expression and the documents, errors naming the field
// and the expression's column.
TEST(ScenarioJson, MaskExpressionsAndDocuments) {
  const std::string with =
      replaced(kLifeIsShort, R"j({"causal": true})j",
               R"j({"causal": true, "expression": "doc(q) == doc(k) || k < 2", "documents": [0, 3]})j");
  const LoadedScenario loaded = parse_scenario(with, "life.json");
  EXPECT_EQ(loaded.scenario.mask.expression, "doc(q) == doc(k) || k < 2");
  EXPECT_EQ(loaded.scenario.mask.documents, (std::vector<int>{0, 3}));
  EXPECT_NO_THROW((void)build_problem(loaded.scenario, "life.json"));
  EXPECT_EQ(parse_scenario(scenario_to_json(loaded.scenario), "saved.json").scenario, loaded.scenario);
  // Globals without a window serve an expression's global(i).
  const std::string globals =
      replaced(kLifeIsShort, R"j({"causal": true})j", R"j({"global": [1], "expression": "global(k)"})j");
  EXPECT_NO_THROW((void)build_problem(parse_scenario(globals, "life.json").scenario, "life.json"));

  const auto mask = [&](const std::string& json) { return replaced(kLifeIsShort, R"j({"causal": true})j", json); };
  expect_error(mask(R"j({"expression": "k <= q &&"})j"), "/mask/expression",
               "column 10: the expression ends too early");
  expect_error(mask(R"j({"expression": "k <= z"})j"), "/mask/expression", "column 6: unknown name 'z'");
  expect_error(mask(R"j({"expression": "doc(q) == 1"})j"), "/mask/expression", "column 1: doc() needs the documents");
  expect_error(mask(R"j({"expression": 5})j"), "/mask/expression", "expected a string");
  expect_error(mask(R"j({"expression": "k <= q", "documents": [0, 4, 2]})j"), "/mask/documents/2", "must ascend");
  expect_error(mask(R"j({"expression": "k <= q", "documents": [0, 9]})j"), "/mask/documents/1", "out of range");
  expect_error(mask(R"j({"documents": "0, 3"})j"), "/mask/documents", "expected a list");
}

TEST(ScenarioJson, NonFiniteValuesAreRefusedWithTheirPosition) {
  expect_error(replaced(kLifeIsShort, "0.1794,1.8951", "0.1794,1e999"), "/embeddings/1/1", "finite");
  expect_error(replaced(kLifeIsShort, "0.1794,1.8951", "0.1794,1e39"), "/embeddings/1/1", "finite");  // beyond float
  expect_error(replaced(kLifeIsShort, "0.1794,1.8951", "0.1794,NaN"), "/embeddings/1/1", "not valid JSON");
}

TEST(ScenarioJson, UnknownFormatAndNotJson) {
  expect_error(replaced(kLifeIsShort, "attnviz-scenario/1", "attnviz-scenario/9"), "/format", "unknown format");
  expect_error(replaced(kLifeIsShort, R"("format": "attnviz-scenario/1",)", ""), "/format", "missing");
  expect_error("this is not json", "", "not valid JSON");
  expect_error("[1, 2]", "", "expected a JSON object");
}

TEST(ScenarioJson, WrongTypesNameTheField) {
  expect_error(replaced(kLifeIsShort, R"("d_model": 3)", R"("d_model": "three")"), "/d_model",
               "expected an integer, got a string");
  expect_error(replaced(kLifeIsShort, R"("d_k": 2)", R"("d_k": 0)"), "/d_k", "positive integer");
  expect_error(replaced(kLifeIsShort, R"("scale": "inv_sqrt_dk")", R"("scale": "sqrt")"), "/scale", "unknown scale");
  expect_error(replaced(kLifeIsShort, R"("causal": true)", R"("causal": "yes")"), "/mask/causal", "true or false");
  expect_error(replaced(kLifeIsShort, "0.3374,-0.1778", R"("x",-0.1778)"), "/embeddings/0/0", "expected a number");
}

// Files as they go wrong in practice: saved in another encoding, cut off, empty, written by
// Python (4.0 for 4), a sentence left empty.
TEST(ScenarioJson, EverydayMistakesGetMessagesThatSayWhatAndWhere) {
  expect_error(replaced(kLifeIsShort, "Life is short", "Life is \xff short"), "/sentence",
               "not valid UTF-8: byte 0xFF");
  expect_error(replaced(kLifeIsShort, "Life is short", "Life is \xff short"), "/sentence", "line 3, column 24");
  expect_error(kLifeIsShort.substr(0, 120), "", "ends too early");
  expect_error("", "", "is empty");
  expect_error("  \n ", "", "is empty");
  expect_error(R"({"format": "attnviz-scenario/1", "sentence": ""})", "/sentence", "is empty");
  expect_error(R"({"format": "attnviz-scenario/1", "sentence": "a", "d_model": 2000000})", "/d_model", "too large");
  expect_error(R"({"format": "attnviz-scenario/1", "tokens": ["a", ""]})", "/tokens/1", "empty token");
  expect_error(R"({"format": "attnviz-scenario/1", "sentence": "a b c", "source": {"sentence": "v w x y z"},
                   "mask": {"window": 1, "global": [6]}})",
               "/mask/global/0", "the sentence has 3 tokens and the source 5");
  const std::string message = error_of("{\"format\": \"attnviz-scenario/1\", \"sentence\": \"a\" \"b\": 1}").words;
  EXPECT_EQ(message.find("json.exception"), std::string::npos) << message;
  const LoadedScenario pythonic =
      parse_scenario(replaced(kLifeIsShort, R"("d_model": 3)", R"("d_model": 3.0)"), "f.json");
  EXPECT_EQ(pythonic.scenario.d_model, 3);
  expect_error(replaced(kLifeIsShort, R"("d_model": 3)", R"("d_model": 3.5)"), "/d_model", "whole number");
}

TEST(ScenarioJson, DuplicateKeysAreWarnings) {
  const LoadedScenario loaded =
      parse_scenario(replaced(kLifeIsShort, R"({"causal": true})", R"({"causal": false, "causal": true})"), "f.json");
  ASSERT_EQ(loaded.warnings.size(), 1u);
  EXPECT_EQ(loaded.warnings[0], "f.json: /mask/causal: appears twice in the same object; the last value is used");
  EXPECT_TRUE(loaded.scenario.mask.causal);
}

TEST(ScenarioJson, AFolderIsNotAScenario) {
  try {
    (void)load_scenario(std::filesystem::temp_directory_path().string());
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("is a folder"), std::string::npos) << e.what();
  }
}

TEST(ScenarioJson, UnknownFieldsAreWarningsNotErrors) {
  const LoadedScenario loaded =
      parse_scenario(replaced(kLifeIsShort, R"("d_model": 3,)", R"("d_model": 3, "colour": "red",)"), "f.json");
  ASSERT_EQ(loaded.warnings.size(), 1u);
  EXPECT_EQ(loaded.warnings[0], "f.json: /colour: unknown field, ignored");
}

TEST(ScenarioJson, ManyUnknownFieldsAreCountedNotEachNamed) {
  std::string extra;
  for (int i = 0; i < 1025; ++i) extra += "\"stray" + std::to_string(i) + "\": 0, ";
  const LoadedScenario loaded =
      parse_scenario(replaced(kLifeIsShort, R"("d_model": 3,)", R"("d_model": 3, )" + extra), "f.json");
  ASSERT_EQ(loaded.warnings.size(), 21u);
  EXPECT_EQ(loaded.warnings[0], "f.json: /stray0: unknown field, ignored");
  EXPECT_EQ(loaded.warnings[20], "f.json: 1,005 more unknown fields, ignored");
}

TEST(ScenarioJson, AMistypedFieldNamesTheFieldItProbablyMeant) {
  const LoadedScenario top =
      parse_scenario(replaced(kLifeIsShort, R"("d_model": 3,)", R"("d_model": 3, "num_head": 2,)"), "f.json");
  ASSERT_EQ(top.warnings.size(), 1u);
  EXPECT_EQ(top.warnings[0], "f.json: /num_head: unknown field, ignored; did you mean num_heads?");
  const LoadedScenario nested = parse_scenario(
      replaced(kLifeIsShort, R"("mask": {"causal": true})", R"("mask": {"causal": true, "casual": true})"), "f.json");
  ASSERT_EQ(nested.warnings.size(), 1u);
  EXPECT_EQ(nested.warnings[0], "f.json: /mask/casual: unknown field, ignored; did you mean causal?");
}

TEST(ScenarioJson, MissingFileAndPresetAreInputErrors) {
  EXPECT_THROW(load_scenario("/nonexistent/x.json"), InputError);
  try {
    load_scenario("preset:no-such-thing");
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("korean-restaurant"), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).find("did you mean"), std::string::npos) << e.what();
  }
}

// A 131 KB file of 65,600 nested '[' in "format" overflowed the stack (SIGSEGV in the JSON
// library's serializer, quoting the value in the format check): saved as the autosave it
// crashed the window at every start.
TEST(ScenarioJson, DeepNestingIsRefusedBeforeItIsRead) {
  const std::string deep =
      "{\"format\": " + std::string(65600, '[') + std::string(65600, ']') + ", \"sentence\": \"a\"}";
  const Expected e = error_of(deep);
  EXPECT_EQ(e.pointer, "/format/0/0/0/\u2026");
  EXPECT_NE(e.words.find("nested more than 64 lists or objects deep (line 1, column 75)"), std::string::npos)
      << e.words;
  // Anywhere, in an unknown field too, and unbalanced (the file is cut off).
  expect_error(
      "{\"format\": \"attnviz-scenario/1\", \"sentence\": \"a\", \"later\": {\"x\": " + std::string(100000, '[') + "}",
      "/later/x/0/0/\u2026", "nested more than 64");
  // 64 levels are fine for a field this version does not know.
  const std::string nested = std::string(62, '[') + std::string(62, ']');
  const LoadedScenario ok =
      parse_scenario("{\"format\": \"attnviz-scenario/1\", \"sentence\": \"a\", \"later\": " + nested + "}", "f.json");
  EXPECT_EQ(ok.warnings.size(), 1u);
  // Brackets inside strings are text.
  EXPECT_NO_THROW(parse_scenario(
      "{\"format\": \"attnviz-scenario/1\", \"sentence\": \"" + std::string(100, '[') + "\"}", "f.json"));
}

// A 200 KB "format" value was echoed whole in the error; a 20,000-character unknown key whole in
// the warning. Messages quote at most 60 characters of any value or key.
TEST(ScenarioJson, LongValuesAreQuotedAsShortExcerpts) {
  const Expected format = error_of("{\"format\": \"" + std::string(200000, 'x') + "\", \"sentence\": \"a\"}");
  EXPECT_EQ(format.pointer, "/format");
  EXPECT_LT(format.words.size(), 200u) << format.words.size();
  EXPECT_NE(format.words.find("(200000 characters)"), std::string::npos) << format.words;
  std::string items;
  for (int i = 0; i < 20000; ++i) items += "\"item\", ";
  const Expected list = error_of("{\"format\": [" + items + "1], \"sentence\": \"a\"}");
  EXPECT_NE(list.words.find("unknown format a list"), std::string::npos) << list.words;
  const Expected number =
      error_of("{\"format\": \"attnviz-scenario/1\", \"sentence\": \"a\", \"d_k\": 1" + std::string(5000, '0') + "}");
  EXPECT_LT(number.words.size(), 200u) << number.words;
  for (const char* field : {"tokenizer", "scale"}) {
    const Expected e = error_of("{\"format\": \"attnviz-scenario/1\", \"sentence\": \"a\", \"" + std::string(field) +
                                "\": \"" + std::string(200000, 'y') + "\"}");
    EXPECT_LT(e.words.size(), 300u) << field;
  }
  const Expected seed = error_of("{\"format\": \"attnviz-scenario/1\", \"sentence\": \"a\", \"seed\": \"" +
                                 std::string(200000, 'z') + "\"}");
  EXPECT_LT(seed.words.size(), 200u);
  const LoadedScenario loaded = parse_scenario(
      "{\"format\": \"attnviz-scenario/1\", \"sentence\": \"a\", \"" + std::string(20000, 'k') + "\": 1}", "f.json");
  ASSERT_EQ(loaded.warnings.size(), 1u);
  EXPECT_LT(loaded.warnings[0].size(), 150u) << loaded.warnings[0].size();
  // A string the JSON library stops in is quoted short too.
  const Expected bad =
      error_of("{\"format\": \"attnviz-scenario/1\", \"sentence\": \"" + std::string(200000, 'q') + "\u0001\"}");
  EXPECT_LT(bad.words.size(), 400u) << bad.words.substr(0, 400);
}

// An empty "tokens" with an empty "embeddings" was reported as a problem of /embeddings.
TEST(ScenarioJson, EmptyTokensAreNamedBeforeTheEmbeddings) {
  expect_error(R"({"format": "attnviz-scenario/1", "tokens": [], "embeddings": []})", "/tokens", "is empty");
  expect_error(R"({"format": "attnviz-scenario/1", "sentence": "a", "source": {"tokens": [], "embeddings": []}})",
               "/source/tokens", "is empty");
}

// num_heads · d_k was multiplied as int before the limits were checked (signed overflow,
// reported by UBSan in the sanitizer build).
TEST(ScenarioJson, HugeDimensionsDoNotOverflow) {
  expect_error(
      R"({"format": "attnviz-scenario/1", "sentence": "a", "d_model": 1, "num_heads": 1000000, "num_kv_heads": 1000000,
                   "d_k": 1000000, "d_v": 1000000, "wq": [[1]], "wo": [[1]]})",
      "/wq", "= 1×1000000000000");
  expect_error(
      R"({"format": "attnviz-scenario/1", "sentence": "a", "d_model": 1, "num_heads": 1000000, "d_k": 1000000, "d_v": 1000000})",
      "/num_heads", "the limit is 64");
}

TEST(ScenarioJson, ALargeListIsRefusedAtItsFirstByte) {
  std::string list = "[";
  for (int i = 0; i < 100000; ++i) list += "0,";
  expect_error(list + "0]", "", "expected a JSON object (an attnviz scenario), got a list");
}

TEST(ScenarioJson, DevZeroIsRefusedNamingTheLimit) {
  try {
    (void)load_scenario("/dev/zero");
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.origin(), "/dev/zero");
    EXPECT_NE(e.problem().find("64 MiB"), std::string::npos) << e.what();
  }
}

bool bit_equal(const Matrix& a, const Matrix& b) {
  return a.rows == b.rows && a.cols == b.cols &&
         std::memcmp(a.data.data(), b.data.data(), a.size() * sizeof(float)) == 0;
}

Matrix random_matrix(std::mt19937& rng, int rows, int cols) {
  std::uniform_int_distribution<std::uint32_t> bits;  // any float bit pattern that is finite
  Matrix m(rows, cols);
  for (float& v : m.data) {
    do {
      const std::uint32_t b = bits(rng);
      std::memcpy(&v, &b, sizeof v);
    } while (!std::isfinite(v));
  }
  return m;
}

TEST(ScenarioJson, SaveThenLoadIsBitExact) {
  std::mt19937 rng(12345);
  Scenario s;
  s.title = "round trip \"quoted\" 한국어";
  s.sentence = "어제 밤에 배가 고파서";
  s.tokens = std::vector<std::string>{"어제", "밤에", "배", "가"};
  s.d_model = 5;
  s.num_heads = 4;
  s.num_kv_heads = 2;
  s.d_k = 3;
  s.d_v = 2;
  s.seed = 18446744073709551615ULL;
  s.embeddings = random_matrix(rng, 4, 5);
  s.wq = random_matrix(rng, 5, 12);
  s.wk = random_matrix(rng, 5, 6);
  s.wv = random_matrix(rng, 5, 4);
  s.wo = random_matrix(rng, 8, 5);
  s.scale = {ScaleSetting::Kind::Value, 0.1 + 0.2};
  s.mask = {true, 2, {0, 3}};
  s.source = SourceSetting{"Last night", TokenizerMode::Chars, std::nullopt, random_matrix(rng, 9, 5)};

  const std::filesystem::path path = std::filesystem::temp_directory_path() / "attnviz_round_trip.json";
  save_scenario(s, path);
  const Scenario back = load_scenario(path.string()).scenario;
  std::filesystem::remove(path);
  EXPECT_EQ(back, s);
  EXPECT_TRUE(bit_equal(*back.embeddings, *s.embeddings));
  EXPECT_TRUE(bit_equal(*back.wq, *s.wq));
  EXPECT_TRUE(bit_equal(*back.wo, *s.wo));
  EXPECT_TRUE(bit_equal(*back.source->embeddings, *s.source->embeddings));
  EXPECT_EQ(scenario_to_json(back), scenario_to_json(s));
}

TEST(ScenarioJson, WrittenFileIsReadableWithOneMatrixRowPerLine) {
  const std::string text = scenario_to_json(parse_scenario(kLifeIsShort, "life.json").scenario);
  EXPECT_NE(text.find("    [0.3374, -0.1778, -0.3035],\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\"mask\": {\"causal\": true}"), std::string::npos) << text;
}

}  // namespace
}  // namespace attnviz
