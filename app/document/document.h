#pragma once
// The scenario being edited in the window: the current Scenario, its file, and undo/redo.
// Every edit goes through apply(), so undo, autosave and recompute all see the same changes.

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/scenario/scenario_tokens.h"
#include "core/scenario/scenario.h"

namespace attnviz::document {

class Document {
 public:
  // The history keeps at most kMaxUndoSteps steps and, past its newest one, about
  // kMaxUndoBytes of them: each step holds the whole scenario before it, and a 20 MB text (or
  // explicit 1024 × 1024 weights) kept 500 times would take gigabytes.
  static constexpr std::size_t kMaxUndoSteps = 500;
  static constexpr std::size_t kMaxUndoBytes = std::size_t{256} << 20;

  explicit Document(Scenario initial = {}, std::optional<std::filesystem::path> path = std::nullopt,
                    std::size_t max_undo_bytes = kMaxUndoBytes);

  [[nodiscard]] const Scenario& scenario() const { return current_; }
  // Increases on every change (edit, undo, redo, load): the window recomputes when it moves.
  [[nodiscard]] std::uint64_t revision() const { return revision_; }

  // The sentence's tokens and the source's, worked out once per revision and shared: splitting a
  // 65,536-token text takes about 10 ms, and the panels and the compute session all ask.
  [[nodiscard]] std::shared_ptr<const ScenarioTokens> tokens() const;

  // Records `next` as an edit named `label` ("Edit W_Q[1][0]"). Edits that share a non-empty
  // merge_key while the merge stays open (a slider being dragged) become one undo step.
  void apply(Scenario next, const std::string& label, const std::string& merge_key = "");
  // Closes the open merge: the next edit starts a new undo step (call when a drag ends).
  void end_merge() { merge_key_.clear(); }

  bool undo();
  bool redo();
  [[nodiscard]] bool can_undo() const { return !undo_.empty(); }
  [[nodiscard]] bool can_redo() const { return !redo_.empty(); }
  [[nodiscard]] std::string undo_label() const { return can_undo() ? undo_.back().label : ""; }
  [[nodiscard]] std::string redo_label() const { return can_redo() ? redo_.back().label : ""; }
  // How many steps apply() ever recorded (a merge adds none): the window's one undo timeline
  // (app/ui/undo_timeline.h) sees a new one by it.
  [[nodiscard]] std::uint64_t recorded_steps() const { return recorded_steps_; }
  // A new step elsewhere in the window's timeline: what was undone here can no longer be redone.
  void discard_redo() { redo_.clear(); }

  // Replaces everything (File > New/Open, presets): a new document with an empty history.
  void reset(Scenario scenario, std::optional<std::filesystem::path> path);

  [[nodiscard]] const std::optional<std::filesystem::path>& path() const { return path_; }
  void set_saved(std::filesystem::path path);  // after Save / Save As
  [[nodiscard]] bool modified() const { return revision_ != saved_revision_; }

  // Whether the title still describes the content: nothing but the title changed since the
  // title was set (by opening, by File > New, by an edit of the title, or confirm_title()).
  // A preset's "Korean worked example, one head" is not shown as if it described four
  // English heads.
  [[nodiscard]] bool title_matches() const;
  // The scenario as it is written anywhere (autosave, Save, exported figures): a title that
  // no longer describes the content is left out, so it never comes back after a restart or
  // heads a figure of something else.
  [[nodiscard]] Scenario scenario_for_saving() const;
  // The user saw the title with the current content and kept it (the Save As dialog).
  void confirm_title() {
    titled_ = current_;
    title_checked_revision_ = 0;  // work it out again
  }

  // What the undo history holds now, by the estimate that bounds it.
  [[nodiscard]] std::size_t undo_bytes() const { return undo_bytes_; }

  // The parts of a scenario its tokens are made from (the source's embeddings left out).
  struct TokensKey {
    std::string sentence;
    TokenizerMode tokenizer = TokenizerMode::Words;
    std::optional<std::vector<std::string>> tokens;
    std::optional<SourceSetting> source;
    friend bool operator==(const TokensKey&, const TokensKey&) = default;
  };

 private:
  struct Step {
    Scenario before;
    std::string label;
    std::size_t bytes = 0;  // footprint(before)
  };
  static Step make_step(Scenario before, std::string label);
  void push_undo(Step step);
  Step pop_undo();
  void change_to(Scenario next);

  Scenario current_;
  Scenario titled_;                                   // the content the title was written for
  mutable std::uint64_t title_checked_revision_ = 0;  // title_matches() is worked out once per revision
  mutable bool title_matches_ = true;
  mutable std::uint64_t tokens_revision_ = 0;  // tokens() of this revision are in tokens_
  mutable std::shared_ptr<const ScenarioTokens> tokens_;
  mutable TokensKey tokens_key_;  // what tokens_ were made from
  std::vector<Step> undo_;
  std::size_t undo_bytes_ = 0;  // the steps' bytes together
  std::size_t max_undo_bytes_;
  std::vector<Step> redo_;
  std::uint64_t recorded_steps_ = 0;
  std::string merge_key_;
  std::optional<std::filesystem::path> path_;
  std::uint64_t revision_ = 1;
  std::uint64_t saved_revision_ = 1;
};

}  // namespace attnviz::document
