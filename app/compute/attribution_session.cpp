#include "app/compute/attribution_session.h"

#include <exception>
#include <utility>

#include "app/compute/model_messages.h"
#include "core/common/error.h"
#include "core/heads/stream_pass.h"
#include "core/model/cancelled.h"

namespace attnviz::compute {

AttributionSession::~AttributionSession() = default;

void AttributionSession::request(std::shared_ptr<const model::Model> model,
                                 std::shared_ptr<const model::ForwardResult> result, const model::ModelEdits& edits,
                                 const AttributionAsk& ask) {
  requested_ = ask;
  if (!model || !result) return;
  worker_.submit([this, model = std::move(model), result = std::move(result), edits, ask](const TaskContext& task) {
    Outcome outcome;
    outcome.source = ask.source;
    try {
      outcome.attribution = compute(*model, *result, edits, ask, task.stop);
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

// The shown result's tokens run again keeping the stream (no attention kept, no top tokens), on
// the CPU: the window's Vulkan device is the model session's.
LogitAttribution AttributionSession::compute(const model::Model& model, const model::ForwardResult& result,
                                             const model::ModelEdits& edits, const AttributionAsk& ask,
                                             std::stop_token stop) {
  heads::StreamPassOptions options;
  options.edits = edits;
  options.stop = std::move(stop);
  const auto streamed = heads::run_keeping_stream(model, heads::encoding_of(result), options);
  LogitAttribution out;
  out.attribution = heads::attribute_logit(model, *streamed, heads::AttributionRequest{ask.target, ask.position});
  out.ask = ask;
  return out;
}

bool AttributionSession::poll() {
  std::optional<Outcome> outcome;
  {
    const std::lock_guard lock(mutex_);
    outcome = std::exchange(finished_, std::nullopt);
  }
  if (!outcome || outcome->source < first_source_) return false;  // none, or an ask from before clear()
  if (outcome->attribution) {
    attribution_ = std::move(outcome->attribution);
    error_.clear();
  } else {
    error_ = std::move(outcome->error);
  }
  return true;
}

void AttributionSession::wait() {
  worker_.wait_idle();
  poll();
}

void AttributionSession::clear() {
  worker_.cancel();
  first_source_ = requested_.source + 1;
  requested_ = {};
  attribution_.reset();
  error_.clear();
}

}  // namespace attnviz::compute
