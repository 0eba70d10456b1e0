#pragma once
// The pass the logit lens and the logit attribution read: the model over a text on the CPU,
// keeping the residual stream after every layer (the window's own pass keeps none). One place
// for the command line (`attnviz lens|attribute|heads`) and the window's sessions.

#include <memory>
#include <stop_token>

#include "core/model/forward.h"
#include "core/model/model.h"
#include "core/tokenizers/tokenizer.h"

namespace attnviz::heads {

struct StreamPassOptions {
  bool keep_attention = false;  // every layer's attention too (head roles read it)
  model::ModelEdits edits;      // heads switched off or scaled, edited weights
  std::stop_token stop;         // model::Cancelled when asked to stop
};

// The result, handed over from the pass (not copied). Throws as ForwardPass::run.
std::shared_ptr<const model::ForwardResult> run_keeping_stream(const model::Model& model,
                                                               const tokenizers::Encoding& text,
                                                               StreamPassOptions options = {});

// The tokens a pass ran on, as a text to run them again (type ids 0 where it had none).
tokenizers::Encoding encoding_of(const model::ForwardResult& result);

}  // namespace attnviz::heads
