#include "core/scenario/scenario_json.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "core/assets/embedded.h"
#include "core/common/error.h"
#include "core/common/float_text.h"
#include "core/common/json_depth.h"
#include "core/common/nearest_name.h"
#include "core/common/text_excerpt.h"
#include "core/scenario/json_error_pointer.h"
#include "core/scenario/positions.h"
#include "core/scenario/scenario_checks.h"
#include "core/text/utf8.h"

namespace attnviz {
namespace {

using nlohmann::json;

constexpr std::string_view kFormat = "attnviz-scenario/1";
constexpr std::string_view kPresetPrefix = "preset:";

std::string type_name(const json& value) {
  if (value.is_number_integer() || value.is_number_unsigned()) return "an integer";
  if (value.is_number()) return "a number";
  if (value.is_array()) return "a list";
  if (value.is_object()) return "an object";
  return std::string("a ") + value.type_name();
}

// A value quoted in a message: strings and numbers as they are, at most kQuoteChars
// characters, structured values by their type (never serialised whole: they are unchecked and
// may be huge or nested thousands deep).
constexpr std::size_t kQuoteChars = 60;
std::string quoted(const json& value) {
  if (value.is_string()) return quoted_excerpt(value.get_ref<const std::string&>(), kQuoteChars);
  if (value.is_structured()) return type_name(value);
  return value.dump();
}

// A key inside a JSON pointer of a message: ~ and / escaped, at most kQuoteChars characters.
std::string pointer_key(const std::string& key) {
  std::string out;
  for (const char c : key) out += c == '~' ? "~0" : c == '/' ? "~1" : std::string(1, c);
  return cut_text(out, kQuoteChars);
}

// A whole number written as a float ("d_model": 4.0, as Python's json writes floats) counts as
// that integer.
std::optional<std::int64_t> as_integer(const json& value) {
  if (value.is_number_integer()) return value.get<std::int64_t>();
  if (value.is_number_float()) {
    const double d = value.get<double>();
    if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) <= 9.0e15) return static_cast<std::int64_t>(d);
  }
  return std::nullopt;
}

// Reads typed fields of one JSON object, naming the field's JSON pointer in every error and
// remembering which fields it saw so the rest can be reported as unknown.
class ObjectReader {
 public:
  ObjectReader(const json& object, std::string pointer, const std::string& origin)
      : object_(object), pointer_(std::move(pointer)), origin_(origin) {
    if (!object_.is_object()) {
      fail(pointer_, std::string("expected a JSON object") + (pointer_.empty() ? " (an attnviz scenario)" : "") +
                         ", got " + type_name(object_));
    }
  }

  [[nodiscard]] const json* find(const std::string& key) {
    known_.insert(key);
    const auto it = object_.find(key);
    return it == object_.end() ? nullptr : &*it;
  }
  [[nodiscard]] std::string at(const std::string& key) const { return pointer_ + "/" + pointer_key(key); }

  [[noreturn]] void fail(const std::string& pointer, const std::string& problem) const {
    throw InputError(origin_, pointer, problem);
  }

  std::optional<std::string> string(const std::string& key) {
    const json* value = find(key);
    if (!value) return std::nullopt;
    if (!value->is_string()) fail(at(key), "expected a string, got " + type_name(*value));
    return value->get<std::string>();
  }

  std::optional<bool> boolean(const std::string& key) {
    const json* value = find(key);
    if (!value) return std::nullopt;
    if (!value->is_boolean()) fail(at(key), "expected true or false, got " + type_name(*value));
    return value->get<bool>();
  }

  std::optional<std::int64_t> integer(const std::string& key) {
    const json* value = find(key);
    if (!value || value->is_null()) return std::nullopt;
    const std::optional<std::int64_t> number = as_integer(*value);
    if (!number || (value->is_number_unsigned() && value->get<std::uint64_t>() > 1'000'000'000ULL)) {
      if (value->is_number()) fail(at(key), "expected a whole number of at most 1000000000, got " + quoted(*value));
      fail(at(key), "expected an integer, got " + type_name(*value));
    }
    if (*number > 1'000'000'000) fail(at(key), "is too large: " + quoted(*value) + " (at most 1000000000)");
    return number;
  }

  std::optional<int> dimension(const std::string& key) {
    const std::optional<std::int64_t> value = integer(key);
    if (!value) return std::nullopt;
    if (*value < 1) fail(at(key), "expected a positive integer, got " + std::to_string(*value));
    if (*value > 1'000'000) fail(at(key), "is too large: " + std::to_string(*value) + " (attnviz computes up to 4096)");
    return static_cast<int>(*value);
  }

  std::optional<std::vector<std::string>> string_list(const std::string& key) {
    const json* value = find(key);
    if (!value) return std::nullopt;
    if (!value->is_array()) fail(at(key), "expected a list of strings, got " + type_name(*value));
    std::vector<std::string> items;
    for (std::size_t i = 0; i < value->size(); ++i) {
      const json& item = (*value)[i];
      if (!item.is_string()) fail(at(key) + "/" + std::to_string(i), "expected a string, got " + type_name(item));
      if (item.get<std::string>().empty())
        fail(at(key) + "/" + std::to_string(i), "is an empty token; every token needs text");
      items.push_back(item.get<std::string>());
    }
    return items;
  }

  std::optional<Matrix> matrix(const std::string& key) {
    const json* value = find(key);
    if (!value || value->is_null()) return std::nullopt;
    return read_matrix(*value, at(key));
  }

  // Unknown keys, as warnings: new fields from a later attnviz must not break this one. A file
  // of a million stray keys gets a handful of lines and a count, not a million lines.
  void collect_unknown(std::vector<std::string>& warnings) const {
    constexpr std::size_t kNamedAtMost = 20;
    const std::vector<std::string> known(known_.begin(), known_.end());
    std::size_t unknown = 0;
    for (const auto& [key, value] : object_.items()) {
      if (known_.contains(key)) continue;
      if (++unknown <= kNamedAtMost)
        warnings.push_back(origin_ + ": " + at(key) + ": unknown field, ignored" + did_you_mean(key, known));
    }
    if (unknown > kNamedAtMost) {
      warnings.push_back(origin_ + ": " + (pointer_.empty() ? "" : pointer_ + ": ") +
                         group_thousands(static_cast<long long>(unknown - kNamedAtMost)) +
                         " more unknown fields, ignored");
    }
  }

 private:
  Matrix read_matrix(const json& value, const std::string& pointer) const {
    if (!value.is_array() || value.empty()) fail(pointer, "expected a matrix as a non-empty list of rows");
    const json& first = value[0];
    if (!first.is_array() || first.empty()) fail(pointer + "/0", "expected a row as a non-empty list of numbers");
    Matrix m(static_cast<int>(value.size()), static_cast<int>(first.size()));
    for (int r = 0; r < m.rows; ++r) {
      const json& row = value[static_cast<std::size_t>(r)];
      const std::string row_pointer = pointer + "/" + std::to_string(r);
      if (!row.is_array()) fail(row_pointer, "expected a row as a list of numbers, got " + type_name(row));
      if (static_cast<int>(row.size()) != m.cols) {
        fail(row_pointer, "has " + std::to_string(row.size()) + " values but row 0 has " + std::to_string(m.cols) +
                              " (every row needs the same length)");
      }
      for (int c = 0; c < m.cols; ++c) {
        const json& cell = row[static_cast<std::size_t>(c)];
        if (!cell.is_number()) fail(row_pointer + "/" + std::to_string(c), "expected a number, got " + type_name(cell));
        m.at(r, c) = static_cast<float>(cell.get<double>());
      }
    }
    return m;
  }

  const json& object_;
  std::string pointer_;
  const std::string& origin_;
  std::set<std::string> known_;
};

TokenizerMode read_tokenizer(ObjectReader& reader) {
  const std::optional<std::string> name = reader.string("tokenizer");
  if (!name) return TokenizerMode::Words;
  const std::optional<TokenizerMode> mode = tokenizer_mode_from_string(*name);
  if (!mode)
    reader.fail(reader.at("tokenizer"), "unknown tokenizer " + quoted_excerpt(*name, kQuoteChars) +
                                            "; expected words, words-no-punct or chars");
  return *mode;
}

ScaleSetting read_scale(ObjectReader& reader) {
  const json* value = reader.find("scale");
  ScaleSetting scale;
  if (!value) return scale;
  if (value->is_string()) {
    const std::string name = value->get<std::string>();
    if (name == "inv_sqrt_dk") return scale;
    if (name == "none") {
      scale.kind = ScaleSetting::Kind::None;
      return scale;
    }
    reader.fail(reader.at("scale"), "unknown scale " + quoted_excerpt(name, kQuoteChars) +
                                        "; expected \"inv_sqrt_dk\", \"none\" or a number");
  }
  if (!value->is_number())
    reader.fail(reader.at("scale"), "expected \"inv_sqrt_dk\", \"none\" or a number, got " + type_name(*value));
  scale.kind = ScaleSetting::Kind::Value;
  scale.value = value->get<double>();
  return scale;
}

MaskSetting read_mask(ObjectReader& parent, const std::string& origin, std::vector<std::string>& warnings) {
  MaskSetting mask;
  const json* value = parent.find("mask");
  if (!value || value->is_null()) return mask;
  ObjectReader reader(*value, parent.at("mask"), origin);
  mask.causal = reader.boolean("causal").value_or(false);
  if (const std::optional<std::int64_t> window = reader.integer("window")) {
    if (*window < 0) reader.fail(reader.at("window"), "must be 0 or more, got " + std::to_string(*window));
    mask.window = static_cast<int>(*window);
  }
  if (const json* global = reader.find("global")) {
    if (!global->is_array())
      reader.fail(reader.at("global"), "expected a list of token indices, got " + type_name(*global));
    for (std::size_t i = 0; i < global->size(); ++i) {
      const json& index = (*global)[i];
      const std::string pointer = reader.at("global") + "/" + std::to_string(i);
      const std::optional<std::int64_t> token = as_integer(index);
      if (!token) reader.fail(pointer, "expected a token index (a whole number), got " + type_name(index));
      if (*token < 0 || *token > 1'000'000) reader.fail(pointer, "token index out of range: " + quoted(index));
      mask.global.push_back(static_cast<int>(*token));
    }
  }
  if (const std::optional<std::string> expression = reader.string("expression")) mask.expression = *expression;
  if (const json* documents = reader.find("documents")) {
    if (!documents->is_array()) {
      reader.fail(reader.at("documents"), "expected a list of document start indices, got " + type_name(*documents));
    }
    for (std::size_t i = 0; i < documents->size(); ++i) {
      const json& index = (*documents)[i];
      const std::string pointer = reader.at("documents") + "/" + std::to_string(i);
      const std::optional<std::int64_t> start = as_integer(index);
      if (!start) reader.fail(pointer, "expected a token index (a whole number), got " + type_name(index));
      if (*start < 0 || *start > 1'000'000) reader.fail(pointer, "token index out of range: " + quoted(index));
      mask.documents.push_back(static_cast<int>(*start));
    }
  }
  reader.collect_unknown(warnings);
  return mask;
}

SourceSetting read_source(const json& value, const std::string& pointer, const std::string& origin,
                          std::vector<std::string>& warnings) {
  ObjectReader reader(value, pointer, origin);
  SourceSetting source;
  source.sentence = reader.string("sentence").value_or("");
  source.tokenizer = read_tokenizer(reader);
  source.tokens = reader.string_list("tokens");
  if (source.tokens && source.tokens->empty()) reader.fail(reader.at("tokens"), "is empty; give at least one token");
  source.embeddings = reader.matrix("embeddings");
  if (source.sentence.empty() && !source.tokens)
    reader.fail(pointer, "a source needs a \"sentence\" or a list of \"tokens\"");
  reader.collect_unknown(warnings);
  return source;
}

std::uint64_t read_seed(ObjectReader& reader) {
  const json* value = reader.find("seed");
  if (!value) return 1;
  // nlohmann stores non-negative integers as unsigned: anything else is not a valid seed.
  if (!value->is_number_unsigned())
    reader.fail(reader.at("seed"), "expected an integer 0 or more, got " + quoted(*value));
  return value->get<std::uint64_t>();
}

PositionalKind read_positional(ObjectReader& reader) {
  const std::optional<std::string> name = reader.string("positional");
  if (!name) return PositionalKind::None;
  const std::optional<PositionalKind> kind = positional_kind_from_string(*name);
  if (!kind) {
    reader.fail(reader.at("positional"), "unknown positional kind " + quoted_excerpt(*name, kQuoteChars) +
                                             "; expected \"none\", \"sinusoidal\", \"rope\" or \"alibi\"");
  }
  return *kind;
}

double read_number(ObjectReader& reader, const std::string& key, double fallback, const char* expected) {
  const json* value = reader.find(key);
  if (!value || value->is_null()) return fallback;
  if (!value->is_number())
    reader.fail(reader.at(key), std::string("expected ") + expected + ", got " + type_name(*value));
  return value->get<double>();
}

std::optional<DropoutSetting> read_dropout(ObjectReader& parent, const std::string& origin,
                                           std::vector<std::string>& warnings) {
  const json* value = parent.find("dropout");
  if (!value || value->is_null()) return std::nullopt;
  ObjectReader reader(*value, parent.at("dropout"), origin);
  DropoutSetting dropout;
  if (!reader.find("p"))
    reader.fail(parent.at("dropout"), "needs \"p\", the probability of dropping a weight (e.g. 0.1)");
  dropout.p = read_number(reader, "p", dropout.p, "a probability from 0 up to (not including) 1");
  dropout.seed = read_seed(reader);
  reader.collect_unknown(warnings);
  return dropout;
}

void check_format(ObjectReader& reader) {
  const json* format = reader.find("format");
  if (!format) reader.fail("/format", "missing; an attnviz scenario starts with \"format\": \"attnviz-scenario/1\"");
  if (!format->is_string() || format->get<std::string>() != kFormat)
    reader.fail("/format", "unknown format " + quoted(*format) + "; expected \"attnviz-scenario/1\"");
}

Scenario read_scenario(const json& root, const std::string& origin, std::vector<std::string>& warnings) {
  ObjectReader reader(root, "", origin);
  check_format(reader);
  Scenario s;
  s.title = reader.string("title").value_or("");
  s.sentence = reader.string("sentence").value_or("");
  s.tokenizer = read_tokenizer(reader);
  s.tokens = reader.string_list("tokens");
  if (s.tokens && s.tokens->empty()) reader.fail("/tokens", "is empty; give at least one token");
  if (s.sentence.empty() && !s.tokens) {
    reader.fail("/sentence", std::string(root.contains("sentence") ? "is empty" : "missing") +
                                 "; give a \"sentence\" or a list of \"tokens\"");
  }
  s.d_model = reader.dimension("d_model").value_or(s.d_model);
  s.embeddings = reader.matrix("embeddings");
  s.seed = read_seed(reader);
  s.num_heads = reader.dimension("num_heads").value_or(1);
  s.num_kv_heads = reader.dimension("num_kv_heads").value_or(s.num_heads);
  const int per_head = std::max(1, s.d_model / s.num_heads);
  s.d_k = reader.dimension("d_k").value_or(per_head);
  s.d_v = reader.dimension("d_v").value_or(per_head);
  s.wq = reader.matrix("wq");
  s.wk = reader.matrix("wk");
  s.wv = reader.matrix("wv");
  s.wo = reader.matrix("wo");
  s.generate_wo = reader.boolean("generate_wo").value_or(false);
  s.scale = read_scale(reader);
  s.mask = read_mask(reader, origin, warnings);
  if (const json* source = reader.find("source"); source && !source->is_null())
    s.source = read_source(*source, "/source", origin, warnings);
  s.positional = read_positional(reader);
  s.rope_theta = read_number(reader, "rope_theta", s.rope_theta, "a number above 0 (RoPE's base, 10000 by default)");
  if (const std::optional<std::int64_t> offset = reader.integer("position_offset")) {
    if (*offset < 0 || *offset > kMaxPositionOffset) {
      reader.fail(reader.at("position_offset"),
                  "must be from 0 to " + std::to_string(kMaxPositionOffset) + ", got " + std::to_string(*offset));
    }
    s.position_offset = static_cast<int>(*offset);
  }
  s.dropout = read_dropout(reader, origin, warnings);
  reader.collect_unknown(warnings);
  return s;
}

// A file saved in another encoding (Latin-1, UTF-16) fails here with the place of the first
// bad byte, not deep inside the JSON parser with the raw byte echoed to the terminal.
void check_utf8(std::string_view text, const std::string& origin) {
  for (std::size_t offset = 0; offset < text.size();) {
    const std::optional<utf8::Decoded> decoded = utf8::decode_at(text, offset);
    if (decoded) {
      offset += decoded->length;
      continue;
    }
    char byte[8];
    std::snprintf(byte, sizeof byte, "0x%02X", static_cast<unsigned>(static_cast<unsigned char>(text[offset])));
    throw InputError(origin, json_error_pointer(text.substr(0, offset)),
                     "is not valid UTF-8: byte " + std::string(byte) + " at byte offset " + std::to_string(offset) +
                         " (" + line_and_column(text, offset) + "); save the file as UTF-8");
  }
}

// nlohmann quotes the text it read last ("last read: '...'", "number overflow parsing '...'"),
// which may be a whole 200 KB string: the quote is cut to kQuoteChars characters.
std::string bounded_library_message(std::string message) {
  for (const std::string_view opening : {std::string_view("last read: '"), std::string_view("parsing '")}) {
    const std::size_t start = message.find(opening);
    if (start == std::string::npos) continue;
    const std::size_t from = start + opening.size();
    const std::size_t end = message.rfind('\'');
    if (end == std::string::npos || end < from) continue;
    message = message.substr(0, from) + cut_text(std::string_view(message).substr(from, end - from), kQuoteChars) +
              message.substr(end);
  }
  return message;
}

// nlohmann's message without its "[json.exception.parse_error.101] parse error at" prefix.
std::string describe_parse_error(std::string_view text, const json::parse_error& e) {
  if (e.byte > text.size())
    return "the file ends too early (" + line_and_column(text, text.size()) + "); is it cut off?";
  std::string message = e.what();
  const std::size_t colon = message.find(": ", message.find("parse error"));
  if (colon != std::string::npos) message = message.substr(colon + 2);
  return bounded_library_message(message) + " (" + line_and_column(text, e.byte > 0 ? e.byte - 1 : 0) + ")";
}

// The first few fields of a (long) pointer, "/format/0/0/…".
std::string shortened_pointer(const std::string& pointer) {
  std::size_t end = 0;
  for (int segment = 0; segment < 4; ++segment) {
    end = pointer.find('/', end + 1);
    if (end == std::string::npos) return pointer;
  }
  return pointer.substr(0, end) + "/\u2026";
}

void check_depth(std::string_view text, const std::string& origin) {
  const std::optional<std::size_t> at = json_too_deep_at(text, kMaxJsonDepth);
  if (!at) return;
  throw InputError(origin, shortened_pointer(json_error_pointer(text.substr(0, *at))),
                   "is nested more than " + std::to_string(kMaxJsonDepth) + " lists or objects deep (" +
                       line_and_column(text, *at) + "); an attnviz scenario needs at most 4");
}

// What stops a parse early: a cancelled read, or a root that is not an object (a large JSON
// list is refused at its first byte instead of being read whole).
struct StopParse {
  std::string type;  // "a list", or "" when cancelled
};

json parse_json(std::string_view text, const std::atomic<bool>* cancel) {
  const json::parser_callback_t callback = [cancel](int depth, json::parse_event_t event, json& parsed) {
    if (cancel != nullptr && cancel->load(std::memory_order_relaxed)) throw StopParse{};
    if (depth == 0 && event == json::parse_event_t::array_start) throw StopParse{"a list"};
    (void)parsed;
    return true;
  };
  return json::parse(text, callback);
}

}  // namespace

LoadedScenario parse_scenario(std::string_view json_text, const std::string& origin) {
  return parse_scenario(json_text, origin, nullptr);
}

LoadedScenario parse_scenario(std::string_view json_text, const std::string& origin, const std::atomic<bool>* cancel) {
  if (json_text.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    throw InputError(origin, "",
                     "is empty; an attnviz scenario is a JSON object starting with \"format\": \"attnviz-scenario/1\"");
  }
  check_utf8(json_text, origin);
  check_depth(json_text, origin);
  json root;
  try {
    root = parse_json(json_text, cancel);
  } catch (const StopParse& stop) {
    if (stop.type.empty()) throw ReadCancelled();
    throw InputError(origin, "", "expected a JSON object (an attnviz scenario), got " + stop.type);
  } catch (const json::parse_error& e) {
    // A file cut short has no field to blame: the error is where it ends.
    const bool cut_short = e.byte > json_text.size();
    throw InputError(origin, cut_short ? "" : json_error_pointer(json_text),
                     "is not valid JSON: " + describe_parse_error(json_text, e));
  } catch (const json::out_of_range& e) {
    // nlohmann refuses numbers beyond the double range ("1e999"): an infinite value.
    throw InputError(origin, json_error_pointer(json_text),
                     "must be a finite number (" + bounded_library_message(e.what()) + ")");
  }
  LoadedScenario loaded;
  for (const std::string& pointer : duplicate_key_pointers(json_text)) {
    loaded.warnings.push_back(origin + ": " + pointer + ": appears twice in the same object; the last value is used");
  }
  loaded.scenario = read_scenario(root, origin, loaded.warnings);
  check_scenario(loaded.scenario, origin);
  return loaded;
}

LoadedScenario load_scenario(const std::string& path_or_preset) { return load_scenario(path_or_preset, ReadOptions{}); }

LoadedScenario load_scenario(const std::string& path_or_preset, const ReadOptions& options) {
  if (path_or_preset.starts_with(kPresetPrefix)) {
    const std::string name = path_or_preset.substr(kPresetPrefix.size());
    const std::optional<std::string_view> bytes = assets::find("presets/" + name + ".json");
    if (!bytes) {
      std::string available;
      for (const std::string& preset : preset_names()) available += (available.empty() ? "" : ", ") + preset;
      throw InputError(
          cut_text(path_or_preset, kQuoteChars), "",
          "no such preset; the presets are: " + available + did_you_mean(name, preset_names(), kPresetPrefix));
    }
    return parse_scenario(*bytes, path_or_preset, options.cancel);
  }
  return parse_scenario(read_input_file(path_or_preset, options), path_or_preset, options.cancel);
}

std::vector<std::string> preset_names() {
  std::vector<std::string> names;
  for (const assets::EmbeddedFile& file : assets::embedded_files()) {
    const std::string_view name = file.name;
    if (name.starts_with("presets/") && name.ends_with(".json"))
      names.emplace_back(name.substr(8, name.size() - 8 - 5));
  }
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace attnviz
