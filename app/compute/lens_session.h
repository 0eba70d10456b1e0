#pragma once
// LensSession: the Model view's logit lens (core/heads/logit_lens.h), computed off the window's
// thread on a Worker of its own, below the window's priority. The window's pass keeps no
// residual stream, so an ask runs the model again on the shown result's tokens with the same
// edits, on the CPU, keeping the stream, and reads every layer's top tokens from it. A newer ask
// stops the one in flight; the last lens stays until a new one has finished, and a failure (BERT
// without its masked-LM head: no unembedding to read the stream through) leaves it, with the
// reason.
//
//   lens.request(session.shared_model(), session.shared_result(), session.shown_edits(),
//                session.generation());
//   // later frames: poll(), busy(), lens(), error()

#include <cstdint>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "app/compute/latest_result.h"
#include "core/heads/logit_lens.h"
#include "core/model/forward.h"
#include "core/model/model.h"

namespace attnviz::compute {

struct LensTable {
  heads::LogitLens lens;            // cells[layer 0..L][position]
  std::vector<std::string> tokens;  // the text's tokens, one per position
  std::uint64_t source = 0;         // the model session's generation the lens was read from
};

class LensSession {
 public:
  static constexpr int kTopTokens = 5;  // per cell: the tooltip's list

  LensSession() = default;
  ~LensSession();  // stops the work in flight and waits for it
  LensSession(const LensSession&) = delete;
  LensSession& operator=(const LensSession&) = delete;

  // Reads the lens of `result`'s tokens through `model` with `edits`; `source` names the result
  // (ModelSession::generation()). Work in flight gives way.
  void request(std::shared_ptr<const model::Model> model, std::shared_ptr<const model::ForwardResult> result,
               const model::ModelEdits& edits, std::uint64_t source);
  // The source asked for last (0: none).
  [[nodiscard]] std::uint64_t requested() const { return requested_; }
  // The frame loop's: takes finished work; true when what is shown changed.
  bool poll() { return latest_.poll(); }
  // Waits until the worker is idle, then poll()s (tests, screenshots).
  void wait() { latest_.wait(); }
  [[nodiscard]] bool busy() const { return latest_.busy(); }
  // The last lens finished (null before any).
  [[nodiscard]] const LensTable* lens() const { return latest_.shown(); }
  // Why the last ask failed ("" when it did not).
  [[nodiscard]] const std::string& error() const { return latest_.error(); }
  // Forgets the lens and the ask (the model was closed).
  void clear();

 private:
  static LensTable compute(const model::Model& model, const model::ForwardResult& result,
                           const model::ModelEdits& edits, std::uint64_t source, std::stop_token stop);

  std::uint64_t requested_ = 0;
  LatestResult<LensTable> latest_;  // last: its worker stops before the rest goes
};

}  // namespace attnviz::compute
