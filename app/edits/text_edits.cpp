#include "app/edits/text_edits.h"

#include <exception>
#include <system_error>

#include "app/edits/sentence_edits.h"
#include "core/common/number_text.h"
#include "core/scenario/scenario_tokens.h"
#include "core/text/text_file.h"

namespace attnviz::edits {
namespace {

namespace fs = std::filesystem;

std::string limit_text() { return format_grouped(kMaxSentenceTokens); }

// The part of `text` within the limit `tokens` (its tokens) were split to, when they are too many.
std::optional<std::string> first_tokens(const std::string& text, const TextTokens& tokens) {
  if (!tokens.too_long) return std::nullopt;
  return std::string(part_within_limit(text, tokens));
}

OpenedText refused(std::string error, bool too_long = false) {
  OpenedText out;
  out.error = std::move(error);
  out.too_long = too_long;
  return out;
}

}  // namespace

OpenedText open_text(const Scenario& current, const fs::path& path, TextPart part) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) {
    return refused(fs::exists(path, ec) ? path.string() + " is not a regular file"
                                        : "There is no file " + path.string());
  }
  std::string text;
  try {
    text = read_text_file(path.string());
  } catch (const std::exception& error) {
    return refused(error.what());
  }
  const TextTokens tokens = text_tokens(text, current.tokenizer, std::nullopt);
  if (!tokens.error.empty() && !tokens.too_long) return refused(path.string() + ": " + tokens.error);
  const std::string name = path.filename().string();
  if (tokens.too_long && part == TextPart::Whole) {
    return refused(path.string() + ": more than " + limit_text() + " tokens, the most the overview shows (" +
                       first_token_past_limit_text(tokens) + ")",
                   true);
  }
  OpenedText out;
  const std::size_t whole_bytes = text.size();
  if (std::optional<std::string> first = first_tokens(text, tokens)) {
    out.undo_label = "Open the first " + limit_text() + " tokens of " + name;
    out.notice = "The sentence is now the first " + limit_text() + " tokens of " + path.string() + " (" +
                 format_grouped(static_cast<long long>(first->size())) + " of its " +
                 format_grouped(static_cast<long long>(whole_bytes)) + " bytes)";
    out.scenario = with_sentence(current, std::move(*first));
    out.scenario->title = name + " (first " + limit_text() + " tokens)";
  } else {
    out.undo_label = "Open text " + name;
    out.notice = "The sentence is now the text of " + path.string();
    out.scenario = with_sentence(current, std::move(text));
    out.scenario->title = name;
  }
  return out;
}

namespace {

// The text cut to its first `limit` tokens, when it has more.
std::optional<std::string> cut_to_the_limit(const std::string& text, TokenizerMode mode, int limit) {
  return first_tokens(text, text_tokens(text, mode, std::nullopt, limit));
}

}  // namespace

std::string keep_first_tokens_label(int limit) { return "Keep the first " + format_grouped(limit) + " tokens"; }

bool texts_can_be_cut(const Scenario& current) {
  return !current.tokens && !(current.source && current.source->tokens);
}

std::optional<Scenario> keep_first_tokens(const Scenario& current, int limit) {
  if (!texts_can_be_cut(current)) return std::nullopt;
  std::optional<std::string> sentence = cut_to_the_limit(current.sentence, current.tokenizer, limit);
  std::optional<std::string> source;
  if (current.source) source = cut_to_the_limit(current.source->sentence, current.source->tokenizer, limit);
  if (!sentence && !source) return std::nullopt;
  Scenario next = sentence ? with_sentence(current, std::move(*sentence)) : current;
  if (source) {
    next.source->sentence = std::move(*source);
    next.source->embeddings.reset();
  }
  return next;
}

}  // namespace attnviz::edits
