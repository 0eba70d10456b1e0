#pragma once
// AttributionSession: the Model view's direct logit attribution (core/heads/attribution.h),
// computed off the window's thread on a Worker of its own, below the window's priority. As the
// lens, an ask runs the shown result's tokens again on the CPU with the window's edits, keeping
// the residual stream, and splits the chosen target's logit at the chosen position into each
// head's, each MLP's, the embeddings' and the biases' parts. A newer ask stops the one in
// flight; the last attribution stays until a new one has finished, and a failure (BERT: a
// post-norm stream is no sum of parts) leaves it, with the reason.
//
//   attribution.request(session.shared_model(), session.shared_result(), session.shown_edits(),
//                       session.generation(), {target, position});
//   // later frames: poll(), busy(), attribution(), error()

#include <cstdint>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>

#include "app/compute/latest_result.h"
#include "core/heads/attribution.h"
#include "core/model/forward.h"
#include "core/model/model.h"

namespace attnviz::compute {

// What an attribution is of: the model session's result and the target and position asked.
struct AttributionAsk {
  std::uint64_t source = 0;     // the model session's generation
  std::optional<int> target;    // nullopt: the likeliest token at the position
  std::optional<int> position;  // nullopt: the last
  bool operator==(const AttributionAsk&) const = default;
};

struct LogitAttribution {
  heads::Attribution attribution;
  AttributionAsk ask;
};

class AttributionSession {
 public:
  AttributionSession() = default;
  ~AttributionSession();  // stops the work in flight and waits for it
  AttributionSession(const AttributionSession&) = delete;
  AttributionSession& operator=(const AttributionSession&) = delete;

  // Splits the logit of `ask`'s target at its position in `result`'s tokens run through `model`
  // with `edits`. Work in flight gives way.
  void request(std::shared_ptr<const model::Model> model, std::shared_ptr<const model::ForwardResult> result,
               const model::ModelEdits& edits, const AttributionAsk& ask);
  // The ask made last (source 0: none).
  [[nodiscard]] const AttributionAsk& requested() const { return requested_; }
  // The frame loop's: takes finished work; true when what is shown changed.
  bool poll() { return latest_.poll(); }
  // Waits until the worker is idle, then poll()s (tests, screenshots).
  void wait() { latest_.wait(); }
  [[nodiscard]] bool busy() const { return latest_.busy(); }
  // The last attribution finished (null before any).
  [[nodiscard]] const LogitAttribution* attribution() const { return latest_.shown(); }
  // Why the last ask failed ("" when it did not).
  [[nodiscard]] const std::string& error() const { return latest_.error(); }
  // Forgets the attribution and the ask (the model was closed).
  void clear();

 private:
  static LogitAttribution compute(const model::Model& model, const model::ForwardResult& result,
                                  const model::ModelEdits& edits, const AttributionAsk& ask, std::stop_token stop);

  AttributionAsk requested_;
  LatestResult<LogitAttribution> latest_;  // last: its worker stops before the rest goes
};

}  // namespace attnviz::compute
