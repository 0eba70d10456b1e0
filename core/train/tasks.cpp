#include "core/train/tasks.h"

#include <algorithm>
#include <set>
#include <sstream>
#include <stdexcept>

namespace attnviz::train {

Batch::Batch(int b, int t)
    : batch(b),
      context(t),
      inputs(static_cast<std::size_t>(b) * static_cast<std::size_t>(t)),
      targets(inputs.size()),
      repeat(inputs.size()) {}

std::string Task::random_state() const {
  std::ostringstream out;
  out << rng_;
  return out.str();
}

void Task::restore_random_state(const std::string& state) {
  std::istringstream in(state);
  in >> rng_;
  if (!in) throw std::invalid_argument("the saved random state is unreadable");
}

std::vector<int> readable_byte_ids(int count) {
  if (count < 2 || count > kReadableTokens) throw std::invalid_argument("readable_byte_ids: count out of range");
  std::vector<int> ids;
  for (char c = 'a'; c <= 'z'; ++c) ids.push_back(c);
  for (char c = 'A'; c <= 'Z'; ++c) ids.push_back(c);
  for (char c = '0'; c <= '9'; ++c) ids.push_back(c);
  for (int c = '!'; c <= '~'; ++c) {
    if (std::find(ids.begin(), ids.end(), c) == ids.end()) ids.push_back(c);
  }
  ids.resize(static_cast<std::size_t>(count));
  return ids;
}

InductionTask::InductionTask(int vocab, int context, std::uint64_t seed)
    : Task(seed), ids_(readable_byte_ids(vocab)), sequence_(static_cast<std::size_t>(context) + 1) {
  if (context < 8) throw std::invalid_argument("InductionTask: the context must hold a repeat of 4 twice");
}

void InductionTask::fill(Batch& batch, long /*step*/) {
  const std::size_t T = static_cast<std::size_t>(batch.context);
  std::uniform_int_distribution<std::size_t> token(0, ids_.size() - 1);
  for (std::size_t b = 0; b < static_cast<std::size_t>(batch.batch); ++b) {
    const std::size_t k = std::uniform_int_distribution<std::size_t>(4, T / 2)(rng_);
    const std::size_t s = std::uniform_int_distribution<std::size_t>(0, T + 1 - 2 * k)(rng_);
    for (std::size_t i = 0; i <= T; ++i) {
      const bool second_copy = i >= s + k && i < s + 2 * k;
      sequence_[i] = second_copy ? sequence_[i - k] : ids_[token(rng_)];
    }
    const std::size_t row = b * T;
    for (std::size_t t = 0; t < T; ++t) {
      batch.inputs[row + t] = sequence_[t];
      batch.targets[row + t] = sequence_[t + 1];
      const std::size_t target = t + 1;  // its index in the sequence
      batch.repeat[row + t] = target > s + k && target < s + 2 * k ? 1 : 0;
    }
  }
}

TextTask::TextTask(std::vector<std::int32_t> ids, Sampling sampling, std::uint64_t seed)
    : Task(seed), ids_(std::move(ids)), sampling_(sampling) {}

void TextTask::fill(Batch& batch, long step) {
  const long T = batch.context;
  const long n = static_cast<long>(ids_.size());
  const long windows = (n - 1) / T;  // windows of T inputs and their T targets, at stride T
  for (int b = 0; b < batch.batch; ++b) {
    long start = 0;
    if (sampling_ == Sampling::Sequential) {
      start = ((step * batch.batch + b) % windows) * T;
    } else {
      start = std::uniform_int_distribution<long>(0, n - T - 1)(rng_);
    }
    const long row = b * T;
    std::copy_n(ids_.begin() + start, T, batch.inputs.begin() + row);
    std::copy_n(ids_.begin() + start + 1, T, batch.targets.begin() + row);
  }
}

std::vector<int> TextTask::token_ids() const {
  const std::set<int> distinct(ids_.begin(), ids_.end());
  return {distinct.begin(), distinct.end()};
}

}  // namespace attnviz::train
