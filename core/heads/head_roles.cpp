#include "core/heads/head_roles.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <string>

#include "core/common/error.h"

namespace attnviz::heads {
namespace {

// SplitMix64 (Steele et al. 2014): the same ids from the same seed on every platform, which
// std::uniform_int_distribution does not promise.
struct SplitMix64 {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, count): the draws past the last whole multiple of count are drawn again.
  std::uint64_t below(std::uint64_t count) {
    const std::uint64_t limit = UINT64_MAX - UINT64_MAX % count;
    std::uint64_t x = next();
    while (x >= limit) x = next();
    return x % count;
  }
};

// The ids the tokenizer puts before any text: the common start of two encodings.
std::vector<int> special_prefix(const tokenizers::Tokenizer& tokenizer) {
  const std::vector<int> empty = tokenizer.encode("", "--repeat").ids;
  const std::vector<int> word = tokenizer.encode("a", "--repeat").ids;
  std::vector<int> prefix;
  for (std::size_t i = 0; i < std::min(empty.size(), word.size()) && empty[i] == word[i]; ++i)
    prefix.push_back(word[i]);
  return prefix;
}

// Special tokens: those the tokenizer adds around a text, the end-of-text ids, and the usual
// names of the rest (unknown, padding, mask).
std::set<int> special_ids(const model::Model& model) {
  const tokenizers::Tokenizer& tokenizer = model.tokenizer();
  std::set<int> ids;
  for (const int id : tokenizer.encode("", "--repeat").ids) ids.insert(id);
  for (const int id : model.config().end_of_text_ids) ids.insert(id);
  for (const char* name :
       {"<unk>", "<s>", "</s>", "<pad>", "<|endoftext|>", "[UNK]", "[PAD]", "[CLS]", "[SEP]", "[MASK]"}) {
    if (const int id = tokenizer.find(name); id >= 0) ids.insert(id);
  }
  return ids;
}

}  // namespace

RepeatProbe make_repeat_probe(const model::Model& model, int repeat, std::uint64_t seed) {
  const model::ModelConfig& c = model.config();
  const std::string option = "--repeat";
  if (repeat < 1) throw InputError("<command line>", option, "must be at least 1 (random tokens, then again)");
  RepeatProbe probe;
  probe.ids = special_prefix(model.tokenizer());
  probe.prefix = static_cast<int>(probe.ids.size());
  probe.repeat = repeat;
  const long long length = probe.prefix + 2LL * repeat;
  const int limit = std::min(c.position_limit().value_or(tokenizers::kMaxModelTokens), tokenizers::kMaxModelTokens);
  if (length > limit) {
    throw InputError("<command line>", option,
                     std::to_string(repeat) + " makes a probe of " + std::to_string(length) + " tokens (" +
                         std::to_string(probe.prefix) + " special + 2 × " + std::to_string(repeat) +
                         ") but the model takes at most " + std::to_string(limit) + ": use --repeat " +
                         std::to_string(std::max(1, (limit - probe.prefix) / 2)) + " or less");
  }
  const std::set<int> special = special_ids(model);
  std::vector<int> candidates;
  candidates.reserve(static_cast<std::size_t>(c.vocab_size));
  for (int id = 0; id < c.vocab_size; ++id) {
    if (!special.contains(id)) candidates.push_back(id);
  }
  if (candidates.empty()) throw InputError(model.path(), option, "the vocabulary has no tokens besides special ones");
  SplitMix64 random{seed};
  for (int m = 0; m < repeat; ++m) probe.ids.push_back(candidates[random.below(candidates.size())]);
  for (int m = 0; m < repeat; ++m) probe.ids.push_back(probe.ids[static_cast<std::size_t>(probe.prefix + m)]);
  return probe;
}

int default_repeat(const model::Model& model) {
  constexpr int kRepeat = 32;
  const int limit = model.config().position_limit().value_or(tokenizers::kMaxModelTokens);
  return std::max(1, std::min(kRepeat, (limit - 1) / 2));
}

tokenizers::Encoding probe_encoding(const model::Model& model, const RepeatProbe& probe) {
  tokenizers::Encoding encoding;
  encoding.ids = probe.ids;
  encoding.tokens = model.tokenizer().labels(probe.ids);
  encoding.type_ids.assign(probe.ids.size(), 0);
  return encoding;
}

HeadScores score_head(const Matrix& a, const RepeatProbe* probe) {
  const int n = a.rows;
  HeadScores s;
  double previous = 0.0, first = 0.0, self = 0.0, entropy = 0.0, distance = 0.0;
  for (int i = 0; i < n; ++i) {
    const float* row = a.row(i);
    for (int j = 0; j < a.cols; ++j) {
      const double w = row[j];
      if (w > 0.0) entropy -= w * std::log(w);
      distance += w * (i - j);
    }
    if (i == 0) continue;
    previous += row[i - 1];
    first += row[0];
    self += row[i];
  }
  const double later_rows = n > 1 ? n - 1 : std::numeric_limits<double>::quiet_NaN();
  s.previous_token = previous / later_rows;
  s.first_token = first / later_rows;
  s.self = self / later_rows;
  s.entropy = entropy / n;
  s.mean_distance = distance / n;
  if (probe) {
    const int p = probe->prefix, k = probe->repeat;
    double induction = 0.0, duplicate = 0.0;
    for (int i = p + k; i < p + 2 * k && i < n; ++i) {
      induction += a.at(i, i - k + 1);
      duplicate += a.at(i, i - k);
    }
    s.induction = induction / k;
    s.duplicate = duplicate / k;
  }
  return s;
}

std::vector<std::vector<HeadScores>> head_roles(const model::ForwardResult& result, const RepeatProbe* probe) {
  std::vector<std::vector<HeadScores>> layers;
  for (const model::LayerAttention& layer : result.layers) {
    std::vector<HeadScores>& heads = layers.emplace_back();
    for (const HeadResult& head : layer.attention.heads) heads.push_back(score_head(head.weights, probe));
  }
  return layers;
}

}  // namespace attnviz::heads
