#include "app/compute/lens_session.h"

#include <exception>
#include <utility>

#include "app/compute/model_messages.h"
#include "core/common/error.h"
#include "core/heads/stream_pass.h"
#include "core/heads/unembedding.h"
#include "core/model/cancelled.h"

namespace attnviz::compute {

LensSession::~LensSession() = default;

void LensSession::request(std::shared_ptr<const model::Model> model, std::shared_ptr<const model::ForwardResult> result,
                          const model::ModelEdits& edits, std::uint64_t source) {
  requested_ = source;
  if (!model || !result) return;
  worker_.submit([this, model = std::move(model), result = std::move(result), edits, source](const TaskContext& task) {
    Outcome outcome;
    outcome.source = source;
    try {
      outcome.lens = compute(*model, *result, edits, source, task.stop);
    } catch (const model::Cancelled&) {
      return;  // a newer ask stopped it: that one answers
    } catch (const InputError& e) {
      outcome.error = window_message(e);
    } catch (const std::exception& e) {
      outcome.error = e.what();
    }
    const std::lock_guard lock(mutex_);
    finished_ = std::move(outcome);
  });
}

// The shown result's tokens run again keeping the stream (no attention kept, no top tokens: the
// lens reads its own), on the CPU: the window's Vulkan device is the model session's.
LensTable LensSession::compute(const model::Model& model, const model::ForwardResult& result,
                               const model::ModelEdits& edits, std::uint64_t source, std::stop_token stop) {
  heads::require_unembedding(model, "the logit lens");
  heads::StreamPassOptions options;
  options.edits = edits;
  options.stop = std::move(stop);
  const auto streamed = heads::run_keeping_stream(model, heads::encoding_of(result), options);
  LensTable out;
  out.lens = heads::logit_lens(model, *streamed, kTopTokens);
  out.tokens = result.tokens;
  out.source = source;
  return out;
}

bool LensSession::poll() {
  std::optional<Outcome> outcome;
  {
    const std::lock_guard lock(mutex_);
    outcome = std::exchange(finished_, std::nullopt);
  }
  if (!outcome || outcome->source < first_source_) return false;  // none, or an ask from before clear()
  if (outcome->lens) {
    lens_ = std::move(outcome->lens);
    error_.clear();
  } else {
    error_ = std::move(outcome->error);
  }
  return true;
}

void LensSession::wait() {
  worker_.wait_idle();
  poll();
}

void LensSession::clear() {
  worker_.cancel();
  first_source_ = requested_ + 1;
  requested_ = 0;
  lens_.reset();
  error_.clear();
}

}  // namespace attnviz::compute
