#include "app/document/document.h"

namespace attnviz::document {

Document::Document(Scenario initial, std::optional<std::filesystem::path> path)
    : current_(std::move(initial)), titled_(current_), path_(std::move(path)) {}

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
    undo_.push_back(Step{current_, label});
    if (undo_.size() > kMaxUndoSteps) undo_.erase(undo_.begin());
  }
  merge_key_ = merge_key;
  redo_.clear();
  const bool retitled = next.title != current_.title;
  change_to(std::move(next));
  if (retitled) confirm_title();  // a new title describes what is there now
}

bool Document::undo() {
  if (undo_.empty()) return false;
  Step step = std::move(undo_.back());
  undo_.pop_back();
  redo_.push_back(Step{current_, step.label});
  merge_key_.clear();
  change_to(std::move(step.before));
  return true;
}

bool Document::redo() {
  if (redo_.empty()) return false;
  Step step = std::move(redo_.back());
  redo_.pop_back();
  undo_.push_back(Step{current_, step.label});
  merge_key_.clear();
  change_to(std::move(step.before));
  return true;
}

void Document::reset(Scenario scenario, std::optional<std::filesystem::path> path) {
  undo_.clear();
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

std::shared_ptr<const overview::ScenarioTokens> Document::tokens() const {
  if (tokens_ && tokens_revision_ == revision_) return tokens_;
  TokensKey key = tokens_key(current_);
  if (!tokens_ || key != tokens_key_) {
    tokens_ = std::make_shared<const overview::ScenarioTokens>(overview::scenario_tokens(current_));
    tokens_key_ = std::move(key);
  }
  tokens_revision_ = revision_;
  return tokens_;
}

}  // namespace attnviz::document
