// tokenizer.json and GGUF tokenizer metadata: what is read, and the errors for what is not.

#include "core/tokenizers/tokenizer_files.h"

#include <gtest/gtest.h>

#include "core/common/error.h"

namespace attnviz::tokenizers {
namespace {

// The message of the InputError `parse` throws, or "" when it throws none.
template <typename Parse>
InputError error_of(Parse parse) {
  try {
    parse();
  } catch (const InputError& e) {
    return e;
  }
  return InputError("", "", "no error");
}

TEST(TokenizerFiles, WordPieceTokenizerJsonIsRead) {
  const auto tokenizer = parse_tokenizer_json(R"({"normalizer": {"type": "BertNormalizer", "lowercase": true},
    "model": {"type": "WordPiece", "unk_token": "[UNK]",
              "vocab": {"[PAD]": 0, "[UNK]": 1, "[CLS]": 2, "[SEP]": 3, "hello": 4}}})",
                                              "tokenizer.json");
  EXPECT_EQ(tokenizer->encode("HELLO", "--text").ids, (std::vector<int>{2, 4, 3}));
}

TEST(TokenizerFiles, AnotherTokenizerModelIsRefusedNamingTheField) {
  const InputError e =
      error_of([] { (void)parse_tokenizer_json(R"({"model": {"type": "Unigram", "vocab": []}})", "tokenizer.json"); });
  EXPECT_EQ(e.origin(), "tokenizer.json");
  EXPECT_EQ(e.pointer(), "/model/type");
}

TEST(TokenizerFiles, AnUnknownSplitPatternIsRefusedNamingTheField) {
  const InputError e = error_of([] {
    (void)parse_tokenizer_json(R"({"pre_tokenizer": {"type": "Split", "pattern": {"Regex": "\\w+"}},
      "model": {"type": "BPE", "vocab": {"a": 0}, "merges": []}})",
                               "tokenizer.json");
  });
  EXPECT_EQ(e.pointer(), "/pre_tokenizer/pattern/Regex");
}

TEST(TokenizerFiles, MalformedJsonSaysWhere) {
  const InputError e = error_of([] {
    (void)parse_tokenizer_json("{\"model\": {\"type\": \"BPE\",\n  \"vocab\": {\"a\": }}}", "tokenizer.json");
  });
  EXPECT_NE(e.problem().find("line 2"), std::string::npos) << e.what();
}

TEST(TokenizerFiles, AFolderWithoutTokenizerFilesSaysWhatItNeeds) {
  const InputError e =
      error_of([] { (void)load_tokenizer_folder("/nonexistent-model-folder", TokenizerHint::WordPiece); });
  EXPECT_EQ(e.pointer(), "tokenizer");
  EXPECT_NE(e.problem().find("vocab.txt"), std::string::npos) << e.what();
}

TEST(TokenizerFiles, GgufVocabulariesOfOtherKindsAreRefused) {
  GgufTokenizerData data;
  data.model = "bert";
  data.tokens = {"a"};
  EXPECT_EQ(error_of([&] { (void)make_gguf_tokenizer(data, "m.gguf"); }).pointer(), "tokenizer.ggml.model");
  data.model = "gpt2";
  data.pre = "deepseek-coder";
  data.merges = {"a b"};
  EXPECT_EQ(error_of([&] { (void)make_gguf_tokenizer(data, "m.gguf"); }).pointer(), "tokenizer.ggml.pre");
  data.model = "llama";
  EXPECT_EQ(error_of([&] { (void)make_gguf_tokenizer(data, "m.gguf"); }).pointer(), "tokenizer.ggml.scores");
}

}  // namespace
}  // namespace attnviz::tokenizers
