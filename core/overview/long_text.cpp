#include "core/overview/long_text.h"

#include <algorithm>
#include <limits>

#include "core/common/error.h"
#include "core/common/input_file.h"
#include "core/overview/overview.h"
#include "core/text/tokenizer.h"

namespace attnviz::overview {

std::string read_text_file(const std::string& path) {
  ReadOptions options;
  options.max_file_bytes = kMaxTextFileBytes;
  options.max_stream_bytes = kMaxTextFileBytes;
  options.kind = "text file";
  std::string text = read_input_file(path, options);
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) throw InputError(path, "", "the text file has no words");
  return text;
}

Scenario with_sentence(Scenario scenario, std::string text) {
  scenario.sentence = std::move(text);
  scenario.tokens.reset();
  scenario.embeddings.reset();
  return scenario;
}

ProblemLimits overview_limits() {
  ProblemLimits limits;
  limits.max_tokens = kMaxOverviewTokens;
  limits.max_attention_cells = std::numeric_limits<long long>::max();
  return limits;
}

Problem build_overview_problem(const Scenario& scenario, const std::string& origin) {
  return build_problem(scenario, origin, overview_limits());
}

bool fits_materialised(int n, int m) {
  const ProblemLimits dense;
  return n <= dense.max_tokens && m <= dense.max_tokens;
}

int TextTokens::count() const { return error.empty() ? static_cast<int>(tokens.size()) : limit + 1; }

TextTokens text_tokens(std::string_view text, TokenizerMode mode, const std::optional<std::vector<std::string>>& listed,
                       int limit) {
  TextTokens out;
  out.limit = limit;
  if (listed) {
    out.tokens = *listed;
    out.explicit_tokens = true;
    return out;
  }
  try {
    out.tokens = tokenize(text, mode, limit);
  } catch (const TokenizerError& e) {
    out.error = e.what();
    out.error_offset = e.byte_offset();
    out.too_long = e.kind() == TokenizerError::Kind::TooManyTokens;
  }
  return out;
}

std::string_view overview_part(std::string_view text, const TextTokens& tokens) {
  if (!tokens.too_long) return text;
  std::string_view part = text.substr(0, std::min(tokens.error_offset, text.size()));
  while (!part.empty() && (part.back() == ' ' || part.back() == '\t' || part.back() == '\r' || part.back() == '\n')) {
    part.remove_suffix(1);
  }
  return part;
}

namespace {

// 'path' for a shell: single quotes, a quote inside written '\''.
std::string shell_quoted(const std::string& path) {
  std::string out = "'";
  for (const char c : path) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace

std::string keep_first_tokens_command(std::string_view text, const TextTokens& tokens, const std::string& path) {
  return "head -c " + std::to_string(overview_part(text, tokens).size()) + " " + shell_quoted(path) +
         " > first-part.txt";
}

void require_overview_length(const Scenario& scenario, const std::string& path) {
  const TextTokens tokens = text_tokens(scenario.sentence, scenario.tokenizer, scenario.tokens);
  if (!tokens.too_long) return;
  const std::string bytes = std::to_string(overview_part(scenario.sentence, tokens).size());
  throw InputError(path, "",
                   tokens.error + ": its first " + std::to_string(kMaxOverviewTokens) + " tokens are its first " +
                       bytes + " bytes (" + keep_first_tokens_command(scenario.sentence, tokens, path) +
                       " keeps them; in the window File \u25B8 Open text\u2026 offers to open just them)");
}

bool ScenarioTokens::only_the_overview_shows() const {
  const int n = query_count();
  const int m = key_count();
  return !fits_materialised(n, m) && n <= kMaxOverviewTokens && m <= kMaxOverviewTokens;
}

ScenarioTokens scenario_tokens(const Scenario& scenario) {
  ScenarioTokens out;
  out.queries = text_tokens(scenario.sentence, scenario.tokenizer, scenario.tokens);
  if (scenario.source)
    out.source = text_tokens(scenario.source->sentence, scenario.source->tokenizer, scenario.source->tokens);
  return out;
}

bool only_the_overview_shows(const Scenario& scenario) { return scenario_tokens(scenario).only_the_overview_shows(); }

}  // namespace attnviz::overview
