#pragma once
// A GGUF file as a model: the "llama" and "gpt2" architectures' metadata keys, tensor names
// (token_embd, blk.N.attn_q, ...) and tokenizer (tokenizer.ggml.*).

#include <string>

#include "core/model/gguf.h"
#include "core/model/model_config.h"
#include "core/model/weight_builder.h"
#include "core/model/weights.h"
#include "core/tokenizers/tokenizer_files.h"

namespace attnviz::model {

// Throws InputError(path, key, problem) for an architecture other than llama and gpt2, a missing
// or impossible size.
ModelConfig gguf_config(const GgufFile& gguf, const std::string& path);

// Q and K of a llama are stored in llama.cpp's row order for its RoPE; they come back in
// Hugging Face's, so the same model in both formats gives the same numbers.
ModelWeights build_gguf_weights(WeightBuilder& builder, ModelConfig& config);

tokenizers::GgufTokenizerData gguf_tokenizer_data(const GgufFile& gguf, const std::string& path);

}  // namespace attnviz::model
