#pragma once
// PatchingSession: the Model view's activation patching between two texts
// (core/heads/patching.h), computed off the window's thread on a Worker of its own, below the
// window's priority. An ask runs the shown result's tokens (the clean text) and a second text of
// the same length in tokens on the CPU with the window's edits, then the clean text again once
// per head with that head's context taken from the second text's run, at every position or at
// one (a rerun from the head's layer, of the rows from the patched one for one position: GPT-2
// small's 144 heads at 64 tokens take seconds at every position, a fraction of one at the last). A newer ask stops the one in
// flight; the last patching stays until a new one has finished, and a failure (a model without
// an unembedding, a target the vocabulary lacks) leaves it, with the reason.
//
//   patching.request(session.shared_model(), session.shared_result(), session.shown_edits(),
//                    {session.generation(), corrupted_text, target});
//   // later frames: poll(), busy(), patching(), error()

#include <cstdint>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "app/compute/latest_result.h"
#include "core/heads/patching.h"
#include "core/model/forward.h"
#include "core/model/model.h"
#include "core/tokenizers/tokenizer.h"

namespace attnviz::compute {

// What a patching is of: the model session's result (the clean text), the second text and the
// target asked.
struct PatchingAsk {
  std::uint64_t source = 0;   // the model session's generation
  std::string corrupted;      // the second text, whose heads' outputs are patched in
  std::optional<int> target;  // nullopt: the clean run's likeliest next token at the last position
  // The one position whose outputs are patched (at most the last); nullopt: every position.
  std::optional<int> patched_position;
  bool operator==(const PatchingAsk&) const = default;
};

struct HeadPatching {
  heads::Patching patching;
  tokenizers::Encoding clean;      // the clean text's tokens
  tokenizers::Encoding corrupted;  // the second text's
  PatchingAsk ask;
};

class PatchingSession {
 public:
  PatchingSession() = default;
  ~PatchingSession();  // stops the work in flight and waits for it
  PatchingSession(const PatchingSession&) = delete;
  PatchingSession& operator=(const PatchingSession&) = delete;

  // Patches every head of `model` (with `edits`) between `result`'s tokens and `ask`'s second
  // text. Work in flight gives way.
  void request(std::shared_ptr<const model::Model> model, std::shared_ptr<const model::ForwardResult> result,
               const model::ModelEdits& edits, const PatchingAsk& ask);
  // The ask made last (source 0: none).
  [[nodiscard]] const PatchingAsk& requested() const { return requested_; }
  // The frame loop's: takes finished work; true when what is shown changed.
  bool poll() { return latest_.poll(); }
  // Waits until the worker is idle, then poll()s (tests, screenshots).
  void wait() { latest_.wait(); }
  [[nodiscard]] bool busy() const { return latest_.busy(); }
  // The last patching finished (null before any).
  [[nodiscard]] const HeadPatching* patching() const { return latest_.shown(); }
  // Why the last ask failed ("" when it did not).
  [[nodiscard]] const std::string& error() const { return latest_.error(); }
  // Forgets the patching and the ask (the model was closed).
  void clear();

 private:
  static HeadPatching compute(const model::Model& model, const model::ForwardResult& result,
                              const model::ModelEdits& edits, const PatchingAsk& ask, std::stop_token stop);

  PatchingAsk requested_;
  LatestResult<HeadPatching> latest_;  // last: its worker stops before the rest goes
};

}  // namespace attnviz::compute
