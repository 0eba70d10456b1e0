#include "core/heads/stream_pass.h"

#include <utility>

#include "core/cpu/cpu_backend.h"

namespace attnviz::heads {

std::shared_ptr<const model::ForwardResult> run_keeping_stream(const model::Model& model,
                                                               const tokenizers::Encoding& text,
                                                               StreamPassOptions options) {
  const auto backend = make_cpu_backend();
  model::ForwardPass pass(model, *backend);
  model::ForwardOptions forward;
  // emplace, not `= std::vector<int>{}`: GCC 12's sanitizer build warns (wrongly) that the
  // optional's empty vector may be read uninitialised when a temporary is moved in.
  if (!options.keep_attention) forward.layers.emplace();
  forward.keep_stream = true;
  forward.predict = false;
  forward.edits = std::move(options.edits);
  forward.stop = std::move(options.stop);
  pass.run(text, forward);
  return pass.share_result();
}

tokenizers::Encoding encoding_of(const model::ForwardResult& result) {
  tokenizers::Encoding encoding;
  encoding.ids = result.ids;
  encoding.tokens = result.tokens;
  encoding.type_ids = result.type_ids;
  if (encoding.type_ids.size() != encoding.ids.size()) encoding.type_ids.assign(encoding.ids.size(), 0);
  return encoding;
}

}  // namespace attnviz::heads
