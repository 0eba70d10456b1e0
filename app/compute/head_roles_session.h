#pragma once
// HeadRolesSession: the Model view's head roles (core/heads/head_roles.h), computed off the
// window's thread on a Worker of its own, below the window's priority. The shown result's heads
// give the roles read on the user's text (previous token, first token, self, entropy, mean
// distance); induction and duplicate are read on the repeated random probe (docs/design.md "What
// the heads do"), so an ask also runs the model on the probe with the same edits. That probe's
// scores are kept while the model and its edits stay: a new text reads only the shown result.
// A newer ask stops the one in flight; the last roles stay until new ones have finished, and a
// failure leaves them, with the reason.
//
//   roles.request(session.shared_model(), session.shared_result(), session.shown_edits(),
//                 session.generation());
//   // later frames: poll(), busy(), roles(), error()

#include <cstdint>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "app/compute/latest_result.h"
#include "core/heads/role_ranking.h"
#include "core/model/forward.h"
#include "core/model/model.h"

namespace attnviz::compute {

struct HeadRoles {
  heads::LayerRoles roles;   // [kept layer][head]
  std::vector<int> layers;   // the kept layers' numbers
  int probe_repeat = 0;      // the probe's K (0: no probe, induction and duplicate have no value)
  std::string probe_error;   // why there is no probe ("" when there is one)
  std::uint64_t source = 0;  // the model session's generation the roles were read from
};

class HeadRolesSession {
 public:
  HeadRolesSession() = default;
  ~HeadRolesSession();  // stops the work in flight and waits for it
  HeadRolesSession(const HeadRolesSession&) = delete;
  HeadRolesSession& operator=(const HeadRolesSession&) = delete;

  // Reads every head's roles off `result` (the model's pass with `edits`) and the probe's pass;
  // `source` names the result (ModelSession::generation()). Work in flight gives way.
  void request(std::shared_ptr<const model::Model> model, std::shared_ptr<const model::ForwardResult> result,
               const model::ModelEdits& edits, std::uint64_t source);
  // The source asked for last (0: none).
  [[nodiscard]] std::uint64_t requested() const { return requested_; }
  // The frame loop's: takes finished work; true when what is shown changed.
  bool poll() { return latest_.poll(); }
  // Waits until the worker is idle, then poll()s (tests, screenshots).
  void wait() { latest_.wait(); }
  [[nodiscard]] bool busy() const { return latest_.busy(); }
  // The last roles finished (null before any).
  [[nodiscard]] const HeadRoles* roles() const { return latest_.shown(); }
  // Why the last ask failed ("" when it did not).
  [[nodiscard]] const std::string& error() const { return latest_.error(); }
  // Forgets the roles and the ask (the model was closed).
  void clear();

 private:
  // The worker's: the probe's scores for a model and its edits, kept for the next ask.
  struct ProbeScores {
    std::shared_ptr<const model::Model> model;
    model::ModelEdits edits;
    heads::LayerRoles roles;
    int repeat = 0;
  };

  HeadRoles compute(const std::shared_ptr<const model::Model>& model, const model::ForwardResult& result,
                    const model::ModelEdits& edits, std::uint64_t source, std::stop_token stop);
  const ProbeScores& probe_scores(const std::shared_ptr<const model::Model>& model, const model::ModelEdits& edits,
                                  std::stop_token stop);

  std::optional<ProbeScores> probe_;  // the worker's own
  std::uint64_t requested_ = 0;
  LatestResult<HeadRoles> latest_;  // last: its worker stops before the rest goes
};

}  // namespace attnviz::compute
