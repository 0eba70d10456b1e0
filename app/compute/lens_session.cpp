#include "app/compute/lens_session.h"

#include <utility>

#include "core/heads/stream_pass.h"
#include "core/heads/unembedding.h"

namespace attnviz::compute {

LensSession::~LensSession() = default;

void LensSession::request(std::shared_ptr<const model::Model> model, std::shared_ptr<const model::ForwardResult> result,
                          const model::ModelEdits& edits, std::uint64_t source) {
  requested_ = source;
  if (!model || !result) return;
  latest_.submit(source, [model = std::move(model), result = std::move(result), edits, source](std::stop_token stop) {
    return compute(*model, *result, edits, source, std::move(stop));
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

void LensSession::clear() {
  latest_.clear(requested_);
  requested_ = {};
}

}  // namespace attnviz::compute
