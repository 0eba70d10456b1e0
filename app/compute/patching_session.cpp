#include "app/compute/patching_session.h"

#include <utility>

#include "core/cpu/cpu_backend.h"
#include "core/heads/stream_pass.h"

namespace attnviz::compute {

PatchingSession::~PatchingSession() = default;

void PatchingSession::request(std::shared_ptr<const model::Model> model,
                              std::shared_ptr<const model::ForwardResult> result, const model::ModelEdits& edits,
                              const PatchingAsk& ask) {
  requested_ = ask;
  if (!model || !result) return;
  latest_.submit(ask.source, [model = std::move(model), result = std::move(result), edits, ask](std::stop_token stop) {
    return compute(*model, *result, edits, ask, std::move(stop));
  });
}

// On the CPU: the window's Vulkan device is the model session's.
HeadPatching PatchingSession::compute(const model::Model& model, const model::ForwardResult& result,
                                      const model::ModelEdits& edits, const PatchingAsk& ask, std::stop_token stop) {
  const tokenizers::Encoding clean = heads::encoding_of(result);
  const tokenizers::Encoding corrupted = model.tokenizer().encode(ask.corrupted, "--corrupted-text");
  heads::PatchingRequest request;
  request.target = ask.target;
  request.patched_position = ask.patched_position;
  request.edits = edits;
  request.stop = std::move(stop);
  const auto backend = make_cpu_backend();
  HeadPatching out;
  out.patching = heads::patch_every_head(model, *backend, clean, corrupted, request);
  out.clean = clean;
  out.corrupted = corrupted;
  out.ask = ask;
  return out;
}

void PatchingSession::clear() {
  latest_.clear(requested_.source);
  requested_ = {};
}

}  // namespace attnviz::compute
