#include "app/document/document.h"

namespace attnviz::document {
namespace {

std::size_t matrix_bytes(const std::optional<Matrix>& m) { return m ? m->data.size() * sizeof(float) : 0; }

std::size_t tokens_bytes(const std::optional<std::vector<std::string>>& tokens) {
  std::size_t bytes = 0;
  if (tokens) {
    for (const std::string& token : *tokens) bytes += sizeof(std::string) + token.size();
  }
  return bytes;
}

// What a scenario holds beyond its fixed fields: texts, token lists, index lists and matrices.
std::size_t footprint(const Scenario& s) {
  std::size_t bytes = sizeof(Scenario) + s.title.size() + s.sentence.size() + tokens_bytes(s.tokens) +
                      matrix_bytes(s.embeddings) + matrix_bytes(s.wq) + matrix_bytes(s.wk) + matrix_bytes(s.wv) +
                      matrix_bytes(s.wo) + s.mask.expression.size() +
                      (s.mask.global.size() + s.mask.documents.size()) * sizeof(int);
  if (s.source)
    bytes += s.source->sentence.size() + tokens_bytes(s.source->tokens) + matrix_bytes(s.source->embeddings);
  return bytes;
}

}  // namespace

Document::Document(Scenario initial, std::optional<std::filesystem::path> path, std::size_t max_undo_bytes)
    : current_(std::move(initial)), titled_(current_), max_undo_bytes_(max_undo_bytes), path_(std::move(path)) {}

bool Document::title_matches() const {
  if (title_checked_revision_ != revision_) {
    Scenario content = current_;
    content.title = titled_.title;
    title_matches_ = content == titled_;
    title_checked_revision_ = revision_;
  }
  return title_matches_;
}

Scenario Document::scenario_for_saving() const {
  Scenario saved = current_;
  if (!title_matches()) saved.title.clear();
  return saved;
}

void Document::change_to(Scenario next) {
  current_ = std::move(next);
  ++revision_;
}

void Document::apply(Scenario next, const std::string& label, const std::string& merge_key) {
  if (next == current_) return;
  const bool merges = !merge_key.empty() && merge_key == merge_key_ && !undo_.empty();
  if (!merges) {
    push_undo(make_step(current_, label));
    ++recorded_steps_;
  }
  merge_key_ = merge_key;
  redo_.clear();
  const bool retitled = next.title != current_.title;
  change_to(std::move(next));
  if (retitled) confirm_title();  // a new title describes what is there now
}

Document::Step Document::make_step(Scenario before, std::string label) {
  const std::size_t bytes = footprint(before);
  return Step{std::move(before), std::move(label), bytes};
}

// The oldest steps go first: past kMaxUndoSteps, or past max_undo_bytes_ unless only the newest
// is left (one step back is always there).
void Document::push_undo(Step step) {
  undo_bytes_ += step.bytes;
  undo_.push_back(std::move(step));
  std::size_t drop = 0;
  std::size_t bytes = undo_bytes_;
  while (undo_.size() - drop > 1 && (undo_.size() - drop > kMaxUndoSteps || bytes > max_undo_bytes_)) {
    bytes -= undo_[drop].bytes;
    ++drop;
  }
  undo_.erase(undo_.begin(), undo_.begin() + static_cast<std::ptrdiff_t>(drop));
  undo_bytes_ = bytes;
}

Document::Step Document::pop_undo() {
  Step step = std::move(undo_.back());
  undo_.pop_back();
  undo_bytes_ -= step.bytes;
  return step;
}

bool Document::undo() {
  if (undo_.empty()) return false;
  Step step = pop_undo();
  redo_.push_back(make_step(current_, step.label));
  merge_key_.clear();
  change_to(std::move(step.before));
  return true;
}

bool Document::redo() {
  if (redo_.empty()) return false;
  Step step = std::move(redo_.back());
  redo_.pop_back();
  push_undo(make_step(current_, step.label));
  merge_key_.clear();
  change_to(std::move(step.before));
  return true;
}

void Document::reset(Scenario scenario, std::optional<std::filesystem::path> path) {
  undo_.clear();
  undo_bytes_ = 0;
  redo_.clear();
  merge_key_.clear();
  path_ = std::move(path);
  change_to(std::move(scenario));
  confirm_title();
  saved_revision_ = revision_;
}

void Document::set_saved(std::filesystem::path path) {
  path_ = std::move(path);
  saved_revision_ = revision_;
}

namespace {

// What the tokens are made from: an edit of a weight or the mask leaves them as they were.
Document::TokensKey tokens_key(const Scenario& s) {
  Document::TokensKey key{s.sentence, s.tokenizer, s.tokens, std::nullopt};
  if (s.source) key.source = SourceSetting{s.source->sentence, s.source->tokenizer, s.source->tokens, std::nullopt};
  return key;
}

}  // namespace

std::shared_ptr<const ScenarioTokens> Document::tokens() const {
  if (tokens_ && tokens_revision_ == revision_) return tokens_;
  TokensKey key = tokens_key(current_);
  if (!tokens_ || key != tokens_key_) {
    tokens_ = std::make_shared<const ScenarioTokens>(scenario_tokens(current_));
    tokens_key_ = std::move(key);
  }
  tokens_revision_ = revision_;
  return tokens_;
}

}  // namespace attnviz::document
