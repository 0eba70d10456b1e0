#include "app/edits/text_edits.h"

#include <exception>
#include <system_error>

#include "app/edits/sentence_edits.h"
#include "app/i18n/translate.h"
#include "core/common/number_text.h"
#include "core/scenario/scenario_tokens.h"
#include "core/text/text_file.h"

namespace attnviz::edits {
namespace {

namespace fs = std::filesystem;

std::string limit_text() { return format_grouped(kMaxSentenceTokens); }
constexpr unsigned long kLimit = kMaxSentenceTokens;  // which plural form the limit takes

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
    return refused(fs::exists(path, ec) ? i18n::format(i18n::tr("%s is not a regular file"), path.c_str())
                                        : i18n::format(i18n::tr("There is no file %s"), path.c_str()));
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
    // TRANSLATORS: the file, the limit, then where its tokens pass the limit.
    return refused(i18n::format(i18n::trn("%s: more than %s token, the most the overview shows (%s)",
                                          "%s: more than %s tokens, the most the overview shows (%s)", kLimit),
                                path.c_str(), limit_text().c_str(), first_token_past_limit_text(tokens).c_str()),
                   true);
  }
  OpenedText out;
  const std::size_t whole_bytes = text.size();
  if (std::optional<std::string> first = first_tokens(text, tokens)) {
    out.undo_label = i18n::format(i18n::trn("Open the first %s token of %s", "Open the first %s tokens of %s", kLimit),
                                  limit_text().c_str(), name.c_str());
    // TRANSLATORS: the limit, the file, the bytes kept, the file's bytes.
    out.notice =
        i18n::format(i18n::trn("The sentence is now the first %s token of %s (%s of its %s bytes)",
                               "The sentence is now the first %s tokens of %s (%s of its %s bytes)", kLimit),
                     limit_text().c_str(), path.c_str(), format_grouped(static_cast<long long>(first->size())).c_str(),
                     format_grouped(static_cast<long long>(whole_bytes)).c_str());
    out.scenario = with_sentence(current, std::move(*first));
    // TRANSLATORS: the scenario's title: the file's name and the limit ("book.txt (first 65,536 tokens)").
    out.scenario->title = i18n::format(i18n::trn("%s (first %s token)", "%s (first %s tokens)", kLimit), name.c_str(),
                                       limit_text().c_str());
  } else {
    out.undo_label = i18n::format(i18n::tr("Open text %s"), name.c_str());
    out.notice = i18n::format(i18n::tr("The sentence is now the text of %s"), path.c_str());
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

std::string keep_first_tokens_label(int limit) {
  return i18n::format(
      i18n::trn("Keep the first %s token", "Keep the first %s tokens", static_cast<unsigned long>(limit)),
      format_grouped(limit).c_str());
}

std::string keep_first_tokens_id(int limit) {
  return "Keep the first " + format_grouped(limit) + " tokens";  // not translated: an ImGui ID
}

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
