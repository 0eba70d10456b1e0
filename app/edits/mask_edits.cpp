#include "app/edits/mask_edits.h"

#include <algorithm>
#include <charconv>

#include "app/i18n/translate.h"
#include "core/scenario/mask_expression_check.h"

namespace attnviz::edits {
namespace {

// Globals stay when an expression may read them (global(i)) even without a window.
void normalise(MaskSetting& mask) {
  std::sort(mask.global.begin(), mask.global.end());
  mask.global.erase(std::unique(mask.global.begin(), mask.global.end()), mask.global.end());
  if (!mask.window && !has_expression(mask)) mask.global.clear();
}

bool ends_sentence(const std::string& token) {
  return token == "." || token == "!" || token == "?" || token == "\u3002" || token == "\uff01" || token == "\uff1f";
}

int at_least(int value, int low) { return std::max(value, low); }

// √tokens rounded, at least 2: the stride and block of the Sparse Transformer's patterns.
int root_of(int tokens) {
  int r = 1;
  while ((r + 1) * (r + 1) <= tokens) ++r;
  if (tokens - r * r > r) ++r;  // nearer to r + 1
  return at_least(r, 2);
}

}  // namespace

MaskSetting toggle_global(MaskSetting mask, int index) {
  if (index < 0) return mask;
  const auto found = std::find(mask.global.begin(), mask.global.end(), index);
  if (found != mask.global.end()) {
    mask.global.erase(found);
  } else {
    if (!mask.window) mask.window = kDefaultLongformerRadius;
    mask.global.push_back(index);
  }
  normalise(mask);
  return mask;
}

MaskSetting set_window(MaskSetting mask, std::optional<int> radius) {
  if (radius && *radius < 0) radius = 0;
  mask.window = radius;
  normalise(mask);
  return mask;
}

const char* mask_preset_name(MaskPreset preset) {
  switch (preset) {
    case MaskPreset::None: return N_("None");
    case MaskPreset::Causal: return N_("Causal");
    case MaskPreset::SlidingWindow: return N_("Sliding window");
    case MaskPreset::Longformer: return "Longformer";  // not translated: a name
  }
  return "?";
}

MaskSetting apply_mask_preset(const MaskSetting& current, MaskPreset preset) {
  MaskSetting mask;  // a preset is the whole mask: no expression, no documents
  switch (preset) {
    case MaskPreset::None: break;
    case MaskPreset::Causal: mask.causal = true; break;
    case MaskPreset::SlidingWindow:
      mask.causal = true;
      mask.window = current.window.value_or(kDefaultSlidingRadius);
      break;
    case MaskPreset::Longformer:
      mask.window = current.window.value_or(kDefaultLongformerRadius);
      mask.global = current.global.empty() ? std::vector<int>{0} : current.global;
      break;
  }
  normalise(mask);
  return mask;
}

std::optional<MaskPreset> matching_preset(const MaskSetting& mask) {
  if (has_expression(mask)) return std::nullopt;
  if (!mask.window) return mask.causal ? MaskPreset::Causal : MaskPreset::None;
  if (mask.causal && mask.global.empty()) return MaskPreset::SlidingWindow;
  if (!mask.causal && !mask.global.empty()) return MaskPreset::Longformer;
  return std::nullopt;
}

MaskSetting prune_globals(MaskSetting mask, int token_count) {
  std::erase_if(mask.global, [&](int g) { return g < 0 || g >= token_count; });
  normalise(mask);
  return mask;
}

ParsedGlobals parse_global_list(std::string_view text, int token_count) {
  std::vector<int> indices;
  std::size_t pos = 0;
  const auto is_separator = [](char c) { return c == ' ' || c == ',' || c == '\t' || c == ';'; };
  while (pos < text.size()) {
    if (is_separator(text[pos])) {
      ++pos;
      continue;
    }
    std::size_t end = pos;
    while (end < text.size() && !is_separator(text[end])) ++end;
    const std::string_view part = text.substr(pos, end - pos);
    int value = 0;
    const auto [ptr, ec] = std::from_chars(part.data(), part.data() + part.size(), value);
    if (ec != std::errc() || ptr != part.data() + part.size() || value < 0) {
      return {std::nullopt,
              i18n::format(i18n::tr("\"%s\" is not a token index (0, 1, 2, ...)"), std::string(part).c_str())};
    }
    if (value >= token_count) {
      return {std::nullopt, token_count > 0
                                ? i18n::format(i18n::tr("%d is past the last token (%d)"), value, token_count - 1)
                                : i18n::format(i18n::tr("%d is past the last token (there are none)"), value)};
    }
    indices.push_back(value);
    pos = end;
  }
  std::sort(indices.begin(), indices.end());
  indices.erase(std::unique(indices.begin(), indices.end()), indices.end());
  return {std::move(indices), ""};
}

std::string format_global_list(const std::vector<int>& indices) {
  std::string out;
  for (const int i : indices) {
    if (!out.empty()) out += ", ";
    out += std::to_string(i);
  }
  return out;
}

std::string window_summary(const MaskSetting& mask) {
  if (has_expression(mask)) {
    const bool fields = mask.causal || mask.window;
    return fields ? i18n::tr("the expression above decides, together with (AND) the causal / window settings")
                  : i18n::tr("the expression above decides which keys each query sees");
  }
  if (!mask.window) {
    return mask.causal ? i18n::tr("each token sees itself and all before it")
                       : i18n::tr("every token sees every token");
  }
  const int r = *mask.window;
  const int keys = mask.causal ? r + 1 : 2 * r + 1;
  const auto count = static_cast<unsigned long>(keys);
  std::string text =
      mask.causal
          ? i18n::format(i18n::trn("each token sees %d key (itself and %d before)",
                                   "each token sees %d keys (itself and %d before)", count),
                         keys, r)
          : i18n::format(i18n::trn("each token sees %d key (\u00B1%d)", "each token sees %d keys (\u00B1%d)", count),
                         keys, r);
  if (!mask.global.empty()) text += i18n::tr("; globals see and are seen by all");
  return text;
}

std::vector<NamedPattern> named_patterns(int tokens) {
  const int n = at_least(tokens, 1);
  const int r = std::clamp(n / 8, 1, 64);
  const int s = root_of(n);
  const int sinks = std::clamp(n / 8, 1, 4);
  const int sink_window = std::clamp(n / 4, 2, 64);
  const int prefix = at_least(n / 3, 1);
  const std::string rs = std::to_string(r);
  const std::string ss = std::to_string(s);
  // Names and descriptions in the window's language (app/i18n); the expressions are the same
  // in every language.
  using i18n::format;
  using i18n::tr;
  const std::string kDocuments = "doc(q) == doc(k)";                       // not translated: an expression
  const std::string kDilated = "abs(q - k) <= 2 * 2 && (q - k) % 2 == 0";  // not translated: an expression
  return {
      {tr("Causal"), "k <= q", tr("each query sees itself and every key before it (GPT)"), false},
      {format(tr("Sliding window, r = %d"), r), "k <= q && q - k <= " + rs, tr("causal, the last r + 1 keys (Mistral)"),
       false},
      {format(tr("Longformer, r = %d"), r), "abs(q - k) <= " + rs + " || global(q) || global(k)",  // not translated
       tr("a band of 2r + 1 keys, and global tokens that see and are seen by all (Beltagy et al. 2020)"), false},
      {format(tr("Strided, s = %d"), s), "k <= q && (q - k < " + ss + " || (q - k) % " + ss + " == 0)",
       tr("the last s keys and every s-th before them (Sparse Transformer, Child et al. 2019)"), false},
      {format(tr("Sinks %d + window %d"), sinks, sink_window),
       "k <= q && (k < " + std::to_string(sinks) + " || q - k <= " + std::to_string(sink_window) + ")",
       tr("the first tokens stay visible beside a sliding window (StreamingLLM, Xiao et al. 2023)"), false},
      {format(tr("Prefix-LM, p = %d"), prefix), "k < " + std::to_string(prefix) + " || k <= q",
       tr("the prefix is seen by everyone, the rest is causal (T5, UniLM)"), false},
      {format(tr("Block-local, B = %d"), s), "q / " + ss + " == k / " + ss,
       tr("queries see the keys of their own block"), false},
      {tr("Dilated window, r = 2, d = 2"), kDilated,
       tr("r keys on each side, every d-th (Longformer's dilated window)"), false},
      {tr("Documents"), kDocuments, tr("packed sequences: a token sees only its own document"), true},
      {tr("Documents, causal"), kDocuments + " && k <= q", tr("packed sequences in a decoder"), true},
  };
}

namespace {

// The expression without white space, and with each number as '#' when `numbers` is false:
// what is left of a pattern once its parameters are set aside.
std::string compact(const std::string& expression, bool numbers) {
  std::string shape;
  for (const char c : expression) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') continue;
    if (!numbers && c >= '0' && c <= '9') {
      if (shape.empty() || shape.back() != '#') shape += '#';
      continue;
    }
    shape += c;
  }
  return shape;
}

}  // namespace

std::optional<NamedPattern> pattern_for_length(const std::string& expression, int tokens) {
  const std::string shape = compact(expression, false);
  if (shape.empty()) return std::nullopt;
  for (NamedPattern& pattern : named_patterns(tokens)) {
    if (compact(pattern.expression, false) != shape) continue;
    if (compact(pattern.expression, true) == compact(expression, true)) return std::nullopt;  // already so
    return std::move(pattern);
  }
  return std::nullopt;
}

std::vector<int> documents_from_tokens(const std::vector<std::string>& tokens) {
  std::vector<int> starts = {0};
  for (std::size_t i = 0; i + 1 < tokens.size(); ++i) {
    if (ends_sentence(tokens[i])) starts.push_back(static_cast<int>(i + 1));
  }
  if (starts.size() == 1 && tokens.size() >= 2) starts.push_back(static_cast<int>(tokens.size() / 2));
  return starts;
}

MaskSetting apply_pattern(const MaskSetting& current, const NamedPattern& pattern,
                          const std::vector<std::string>& tokens) {
  MaskSetting mask;
  mask.expression = pattern.expression;
  mask.global = current.global;
  const bool reads_globals = pattern.expression.find("global(") != std::string::npos;  // not translated: a function
  if (reads_globals && mask.global.empty()) mask.global = {0};
  mask.documents = current.documents;
  if (pattern.needs_documents && mask.documents.empty()) mask.documents = documents_from_tokens(tokens);
  normalise(mask);
  return mask;
}

MaskSetting set_expression(MaskSetting mask, std::string expression) {
  mask.expression = std::move(expression);
  normalise(mask);
  return mask;
}

}  // namespace attnviz::edits
