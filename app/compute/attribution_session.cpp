#include "app/compute/attribution_session.h"

#include <utility>

#include "core/heads/stream_pass.h"

namespace attnviz::compute {

AttributionSession::~AttributionSession() = default;

void AttributionSession::request(std::shared_ptr<const model::Model> model,
                                 std::shared_ptr<const model::ForwardResult> result, const model::ModelEdits& edits,
                                 const AttributionAsk& ask) {
  requested_ = ask;
  if (!model || !result) return;
  latest_.submit(ask.source, [model = std::move(model), result = std::move(result), edits, ask](std::stop_token stop) {
    return compute(*model, *result, edits, ask, std::move(stop));
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

void AttributionSession::clear() {
  latest_.clear(requested_.source);
  requested_ = {};
}

}  // namespace attnviz::compute
