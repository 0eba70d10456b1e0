#include "core/tokenizers/tokenizer_files.h"

#include <algorithm>

#include "core/common/error.h"
#include "core/common/input_file.h"
#include "core/tokenizers/bpe_tokenizer.h"
#include "core/tokenizers/json_input.h"
#include "core/tokenizers/wordpiece_tokenizer.h"

namespace attnviz::tokenizers {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

// Field access naming the file and the JSON pointer on error.
class Fields {
 public:
  explicit Fields(std::string origin) : origin_(std::move(origin)) {}
  [[noreturn]] void fail(const std::string& where, const std::string& problem) const {
    throw InputError(origin_, where, problem);
  }
  const std::string& origin() const { return origin_; }

  std::string string(const json& object, const std::string& parent, const char* key,
                     const std::string& fallback) const {
    if (!object.is_object() || !object.contains(key) || object[key].is_null()) return fallback;
    if (!object[key].is_string()) fail(json_field(parent, key), "must be a string");
    return object[key].get<std::string>();
  }
  bool boolean(const json& object, const std::string& parent, const char* key, bool fallback) const {
    if (!object.is_object() || !object.contains(key) || object[key].is_null()) return fallback;
    if (!object[key].is_boolean()) fail(json_field(parent, key), "must be true or false");
    return object[key].get<bool>();
  }
  // Ids index a table: bounded well above any vocabulary (Gemma's 256,000) and well below what
  // would take much memory.
  int id(const json& value, const std::string& where) const {
    if (!value.is_number_integer() || value.get<std::int64_t>() < 0 || value.get<std::int64_t>() >= (1 << 21)) {
      fail(where, "must be a token id from 0 to 2097151");
    }
    return value.get<int>();
  }

 private:
  std::string origin_;
};

// A vocabulary object {"token": id, ...} (plus added tokens) as a list by id.
std::vector<std::string> tokens_by_id(const json& vocab, const json& added, const Fields& fields,
                                      const std::string& where) {
  if (!vocab.is_object()) fields.fail(where, "must be an object of tokens and their ids");
  std::vector<std::string> tokens;
  auto place = [&](const std::string& token, int id) {
    if (static_cast<std::size_t>(id) >= tokens.size()) tokens.resize(static_cast<std::size_t>(id) + 1);
    tokens[static_cast<std::size_t>(id)] = token;
  };
  for (const auto& [token, id] : vocab.items()) place(token, fields.id(id, json_field(where, token)));
  if (added.is_array()) {
    for (std::size_t i = 0; i < added.size(); ++i) {
      const std::string item = "/added_tokens/" + std::to_string(i);
      if (!added[i].is_object() || !added[i].contains("id") || !added[i].contains("content") ||
          !added[i]["content"].is_string()) {
        fields.fail(item, "must be an object with an id and a content");
      }
      place(added[i]["content"].get<std::string>(), fields.id(added[i]["id"], item + "/id"));
    }
  }
  return tokens;
}

std::vector<std::pair<std::string, std::string>> merges_from_json(const json& merges, const Fields& fields) {
  std::vector<std::pair<std::string, std::string>> out;
  if (merges.is_null()) return out;
  if (!merges.is_array()) fields.fail("/model/merges", "must be a list of merges");
  out.reserve(merges.size());
  for (std::size_t i = 0; i < merges.size(); ++i) {
    const json& merge = merges[i];
    const std::string where = "/model/merges/" + std::to_string(i);
    if (merge.is_string()) {
      const std::string text = merge.get<std::string>();
      const std::size_t space = text.find(' ', 1);
      if (space == std::string::npos || space + 1 >= text.size()) {
        fields.fail(where, "must be two tokens separated by a space");
      }
      out.emplace_back(text.substr(0, space), text.substr(space + 1));
    } else if (merge.is_array() && merge.size() == 2 && merge[0].is_string() && merge[1].is_string()) {
      out.emplace_back(merge[0].get<std::string>(), merge[1].get<std::string>());
    } else {
      fields.fail(where, "must be \"A B\" or [\"A\", \"B\"]");
    }
  }
  return out;
}

// The pre-tokenizer's and normalizer's settings, through Sequences.
void read_pre_tokenizer(const json& node, const std::string& where, const Fields& fields, BpeSettings& settings) {
  if (node.is_null()) return;
  const std::string type = fields.string(node, where, "type", "");
  if (type == "Sequence") {
    const json& list = node.contains("pretokenizers") ? node["pretokenizers"] : json();
    if (!list.is_array()) fields.fail(where + "/pretokenizers", "must be a list");
    for (std::size_t i = 0; i < list.size(); ++i)
      read_pre_tokenizer(list[i], where + "/pretokenizers/" + std::to_string(i), fields, settings);
  } else if (type == "ByteLevel") {
    settings.byte_level = true;
    settings.add_prefix_space = fields.boolean(node, where, "add_prefix_space", false);
    if (fields.boolean(node, where, "use_regex", true)) settings.split = SplitPattern::Gpt2;
  } else if (type == "Split") {
    const json& pattern = node.contains("pattern") ? node["pattern"] : json();
    const std::string regex = fields.string(pattern, where + "/pattern", "Regex", "");
    const auto split = split_pattern_from_regex(regex);
    if (!split) {
      fields.fail(where + "/pattern/Regex",
                  "this split pattern is not one attnviz knows (it knows GPT-2's, Llama 3's and Qwen2's)");
    }
    settings.split = *split;
  } else if (type == "Metaspace") {
    settings.byte_level = false;
    settings.metaspace = true;
    const std::string scheme = fields.string(
        node, where, "prepend_scheme", fields.boolean(node, where, "add_prefix_space", true) ? "always" : "never");
    settings.prepend_metaspace = scheme != "never";
    settings.metaspace_split = fields.boolean(node, where, "split", true);
  } else {
    fields.fail(where + "/type",
                "the pre-tokenizer \"" + type + "\" is not one attnviz reads for BPE (ByteLevel, Split, Metaspace)");
  }
}

void read_normalizer(const json& node, const std::string& where, const Fields& fields, BpeSettings& settings) {
  if (node.is_null()) return;
  const std::string type = fields.string(node, where, "type", "");
  if (type == "Sequence") {
    const json& list = node.contains("normalizers") ? node["normalizers"] : json();
    if (!list.is_array()) fields.fail(where + "/normalizers", "must be a list");
    for (std::size_t i = 0; i < list.size(); ++i)
      read_normalizer(list[i], where + "/normalizers/" + std::to_string(i), fields, settings);
  } else if (type == "NFC") {
    settings.nfc = true;
  } else if (type == "Prepend") {
    if (fields.string(node, where, "prepend", "") != "\u2581") fields.fail(where + "/prepend", "only ▁ is read");
    settings.prepend_metaspace = true;
  } else if (type == "Replace") {
    const json& pattern = node.contains("pattern") ? node["pattern"] : json();
    if (fields.string(pattern, where + "/pattern", "String", "") != " " ||
        fields.string(node, where, "content", "") != "\u2581") {
      fields.fail(where, "only the replacement of spaces by ▁ is read");
    }
    settings.byte_level = false;
    settings.metaspace = true;
  } else {
    fields.fail(where + "/type",
                "the normalizer \"" + type + "\" is not one attnviz reads for BPE (NFC, Prepend, Replace)");
  }
}

// The special tokens a TemplateProcessing (or BertProcessing) puts around a single text.
void read_post_processor(const json& node, const std::string& where, const Fields& fields, const BpeTokenizer& probe,
                         BpeSettings& settings) {
  if (node.is_null()) return;
  const std::string type = fields.string(node, where, "type", "");
  if (type == "Sequence") {
    const json& list = node.contains("processors") ? node["processors"] : json();
    if (!list.is_array()) fields.fail(where + "/processors", "must be a list");
    for (std::size_t i = 0; i < list.size(); ++i)
      read_post_processor(list[i], where + "/processors/" + std::to_string(i), fields, probe, settings);
    return;
  }
  if (type != "TemplateProcessing") return;  // ByteLevel and others add no tokens
  const json& single = node.contains("single") ? node["single"] : json();
  if (!single.is_array()) fields.fail(where + "/single", "must be a list");
  bool after_text = false;
  for (std::size_t i = 0; i < single.size(); ++i) {
    const json& piece = single[i];
    if (piece.is_object() && piece.contains("Sequence")) {
      after_text = true;
      continue;
    }
    const std::string token = piece.is_object() && piece.contains("SpecialToken")
                                  ? fields.string(piece["SpecialToken"], where, "id", "")
                                  : "";
    const int id = probe.find(token);
    if (id < 0) fields.fail(where + "/single/" + std::to_string(i), "names a special token the vocabulary lacks");
    (after_text ? settings.suffix_ids : settings.prefix_ids).push_back(id);
  }
}

std::unique_ptr<Tokenizer> wordpiece_from_json(const json& root, const Fields& fields) {
  const json& model = root["model"];
  std::vector<std::string> tokens =
      tokens_by_id(model.contains("vocab") ? model["vocab"] : json(),
                   root.contains("added_tokens") ? root["added_tokens"] : json(), fields, "/model/vocab");
  WordPieceSettings settings;
  settings.unk = fields.string(model, "/model", "unk_token", "[UNK]");
  settings.continuing_prefix = fields.string(model, "/model", "continuing_subword_prefix", "##");
  if (model.contains("max_input_chars_per_word") && model["max_input_chars_per_word"].is_number_integer()) {
    settings.max_chars_per_word = std::clamp(model["max_input_chars_per_word"].get<int>(), 1, 10000);
  }
  const json& normalizer = root.contains("normalizer") ? root["normalizer"] : json();
  if (normalizer.is_object() && fields.string(normalizer, "/normalizer", "type", "") == "BertNormalizer") {
    settings.lower_case = fields.boolean(normalizer, "/normalizer", "lowercase", true);
    settings.strip_accents = fields.boolean(normalizer, "/normalizer", "strip_accents", settings.lower_case);
    settings.split_cjk = fields.boolean(normalizer, "/normalizer", "handle_chinese_chars", true);
  }
  return std::make_unique<WordPieceTokenizer>(std::move(tokens), settings, fields.origin());
}

std::unique_ptr<Tokenizer> bpe_from_json(const json& root, const Fields& fields) {
  const json& model = root["model"];
  const json added = root.contains("added_tokens") ? root["added_tokens"] : json();
  BpeVocabulary vocabulary;
  vocabulary.tokens = tokens_by_id(model.contains("vocab") ? model["vocab"] : json(), added, fields, "/model/vocab");
  vocabulary.merges = merges_from_json(model.contains("merges") ? model["merges"] : json(), fields);
  if (added.is_array()) {
    for (const json& token : added) vocabulary.special_ids.push_back(token["id"].get<int>());
  }
  BpeSettings settings;
  settings.byte_level = false;
  settings.byte_fallback = fields.boolean(model, "/model", "byte_fallback", false);
  read_normalizer(root.contains("normalizer") ? root["normalizer"] : json(), "/normalizer", fields, settings);
  read_pre_tokenizer(root.contains("pre_tokenizer") ? root["pre_tokenizer"] : json(), "/pre_tokenizer", fields,
                     settings);
  const std::string unk = fields.string(model, "/model", "unk_token", "");
  // A probe without settings resolves the post-processor's and the unknown token's names.
  const BpeTokenizer probe(BpeVocabulary{vocabulary.tokens, {}, std::vector<float>(vocabulary.tokens.size()), {}}, {},
                           fields.origin());
  if (!unk.empty()) {
    settings.unk_id = probe.find(unk);
    if (*settings.unk_id < 0) fields.fail("/model/unk_token", "names a token the vocabulary lacks");
  }
  read_post_processor(root.contains("post_processor") ? root["post_processor"] : json(), "/post_processor", fields,
                      probe, settings);
  return std::make_unique<BpeTokenizer>(std::move(vocabulary), settings, fields.origin());
}

std::string read_text(const fs::path& path) { return read_input_file(path.string(), {.kind = "tokenizer file"}); }

std::unique_ptr<Tokenizer> gpt2_vocab_and_merges(const fs::path& folder) {
  const std::string vocab_path = (folder / "vocab.json").string();
  const std::string merges_path = (folder / "merges.txt").string();
  const Fields fields(vocab_path);
  const json vocab = parse_model_json(read_text(vocab_path), vocab_path);
  BpeVocabulary vocabulary;
  vocabulary.tokens = tokens_by_id(vocab, json(), fields, "");
  const std::string merges = read_text(merges_path);
  std::size_t line_number = 0;
  for (std::size_t start = 0; start < merges.size();) {
    std::size_t end = merges.find('\n', start);
    if (end == std::string::npos) end = merges.size();
    std::string_view line(merges.data() + start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    ++line_number;
    start = end + 1;
    if (line.empty() || (line_number == 1 && line.starts_with("#version"))) continue;
    const std::size_t space = line.find(' ', 1);
    if (space == std::string_view::npos || space + 1 >= line.size()) {
      throw InputError(merges_path, "line " + std::to_string(line_number), "must be two tokens separated by a space");
    }
    vocabulary.merges.emplace_back(std::string(line.substr(0, space)), std::string(line.substr(space + 1)));
  }
  BpeSettings settings;
  settings.byte_level = true;
  settings.split = SplitPattern::Gpt2;
  const auto end_of_text = std::find(vocabulary.tokens.begin(), vocabulary.tokens.end(), "<|endoftext|>");
  if (end_of_text != vocabulary.tokens.end())
    vocabulary.special_ids.push_back(static_cast<int>(end_of_text - vocabulary.tokens.begin()));
  return std::make_unique<BpeTokenizer>(std::move(vocabulary), settings, merges_path);
}

std::unique_ptr<Tokenizer> bert_vocab_txt(const fs::path& folder) {
  const std::string path = (folder / "vocab.txt").string();
  const std::string text = read_text(path);
  std::vector<std::string> tokens;
  for (std::size_t start = 0; start < text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string token = text.substr(start, end - start);
    if (!token.empty() && token.back() == '\r') token.pop_back();
    tokens.push_back(std::move(token));
    start = end + 1;
  }
  WordPieceSettings settings;
  const fs::path config = folder / "tokenizer_config.json";
  if (fs::exists(config)) {
    const json root = parse_model_json(read_text(config), config.string());
    const Fields fields(config.string());
    settings.lower_case = fields.boolean(root, "", "do_lower_case", true);
    settings.strip_accents = root.is_object() && root.contains("strip_accents") && root["strip_accents"].is_boolean()
                                 ? root["strip_accents"].get<bool>()
                                 : settings.lower_case;
    settings.split_cjk = fields.boolean(root, "", "tokenize_chinese_chars", true);
  }
  return std::make_unique<WordPieceTokenizer>(std::move(tokens), settings, path);
}

}  // namespace

std::unique_ptr<Tokenizer> parse_tokenizer_json(std::string_view text, const std::string& origin) {
  const json root = parse_model_json(text, origin);
  const Fields fields(origin);
  if (!root.is_object() || !root.contains("model") || !root["model"].is_object())
    fields.fail("/model", "missing or not an object");
  const std::string type = fields.string(root["model"], "/model", "type", "");
  if (type == "WordPiece") return wordpiece_from_json(root, fields);
  if (type == "BPE" || (type.empty() && root["model"].contains("merges"))) return bpe_from_json(root, fields);
  fields.fail("/model/type", "the tokenizer model \"" + type.substr(0, 40) + "\" is not read (BPE and WordPiece are)");
}

std::unique_ptr<Tokenizer> load_tokenizer_folder(const fs::path& folder, TokenizerHint hint) {
  const fs::path json_path = folder / "tokenizer.json";
  if (fs::exists(json_path)) return parse_tokenizer_json(read_text(json_path), json_path.string());
  if (hint != TokenizerHint::WordPiece && fs::exists(folder / "vocab.json") && fs::exists(folder / "merges.txt")) {
    return gpt2_vocab_and_merges(folder);
  }
  if (hint == TokenizerHint::WordPiece && fs::exists(folder / "vocab.txt")) return bert_vocab_txt(folder);
  std::string wanted = hint == TokenizerHint::WordPiece      ? "tokenizer.json or vocab.txt"
                       : hint == TokenizerHint::ByteLevelBpe ? "tokenizer.json or vocab.json + merges.txt"
                                                             : "tokenizer.json";
  if (fs::exists(folder / "tokenizer.model")) wanted += " (tokenizer.model, SentencePiece's own format, is not read)";
  throw InputError(folder.string(), "tokenizer", "the folder has no tokenizer: attnviz needs " + wanted);
}

std::unique_ptr<Tokenizer> make_gguf_tokenizer(GgufTokenizerData data, const std::string& origin) {
  BpeVocabulary vocabulary;
  BpeSettings settings;
  const std::size_t count = data.tokens.size();
  if (count == 0) throw InputError(origin, "tokenizer.ggml.tokens", "missing or empty: the file carries no vocabulary");
  if (!data.token_types.empty() && data.token_types.size() != count) {
    throw InputError(
        origin, "tokenizer.ggml.token_type",
        "has " + std::to_string(data.token_types.size()) + " entries for " + std::to_string(count) + " tokens");
  }
  for (std::size_t id = 0; id < data.token_types.size(); ++id) {
    if (data.token_types[id] == 3 || data.token_types[id] == 4) vocabulary.special_ids.push_back(static_cast<int>(id));
  }
  if (data.model == "gpt2") {
    settings.byte_level = true;
    if (data.pre.empty() || data.pre == "default" || data.pre == "gpt-2" || data.pre == "gpt2")
      settings.split = SplitPattern::Gpt2;
    else if (data.pre == "llama-bpe" || data.pre == "llama3" || data.pre == "smaug-bpe")
      settings.split = SplitPattern::Llama3;
    else if (data.pre == "qwen2")
      settings.split = SplitPattern::Qwen2;
    else
      throw InputError(
          origin, "tokenizer.ggml.pre",
          "the split pattern \"" + data.pre.substr(0, 40) + "\" is not one attnviz knows (gpt-2, llama-bpe, qwen2)");
    settings.nfc = data.pre == "qwen2";
    for (std::size_t i = 0; i < data.merges.size(); ++i) {
      const std::string& merge = data.merges[i];
      const std::size_t space = merge.find(' ', 1);
      if (space == std::string::npos || space + 1 >= merge.size()) {
        throw InputError(origin, "tokenizer.ggml.merges/" + std::to_string(i),
                         "must be two tokens separated by a space");
      }
      vocabulary.merges.emplace_back(merge.substr(0, space), merge.substr(space + 1));
    }
    if (vocabulary.merges.empty())
      throw InputError(origin, "tokenizer.ggml.merges", "missing: a byte-level BPE vocabulary needs its merges");
  } else if (data.model == "llama") {
    settings.byte_level = false;
    settings.metaspace = true;
    settings.prepend_metaspace = data.add_space_prefix.value_or(true);
    settings.byte_fallback = true;
    if (data.scores.size() != count) {
      throw InputError(
          origin, "tokenizer.ggml.scores",
          "has " + std::to_string(data.scores.size()) + " entries for " + std::to_string(count) + " tokens");
    }
    vocabulary.scores = std::move(data.scores);
    settings.unk_id = data.unk;
  } else {
    throw InputError(origin, "tokenizer.ggml.model",
                     "the tokenizer \"" + data.model.substr(0, 40) + "\" is not read (gpt2 and llama are)");
  }
  const bool add_bos = data.add_bos.value_or(data.model == "llama");
  if (add_bos) {
    if (!data.bos)
      throw InputError(origin, "tokenizer.ggml.bos_token_id",
                       "missing, but the tokenizer adds a beginning-of-text token");
    settings.prefix_ids.push_back(*data.bos);
  }
  if (data.add_eos.value_or(false) && data.eos) settings.suffix_ids.push_back(*data.eos);
  vocabulary.tokens = std::move(data.tokens);
  return std::make_unique<BpeTokenizer>(std::move(vocabulary), settings, origin);
}

}  // namespace attnviz::tokenizers
