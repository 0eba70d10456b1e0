#pragma once
// A Hugging Face model folder: config.json's architecture and sizes, and the names its
// safetensors give each weight (GPT2LMHeadModel, LlamaForCausalLM / MistralForCausalLM /
// Qwen2ForCausalLM, BertModel / BertForMaskedLM).

#include <string>

#include "core/model/model_config.h"
#include "core/model/weight_builder.h"
#include "core/model/weights.h"

namespace attnviz::model {

// Throws InputError(config path, field, problem): an unknown architecture, a missing or
// impossible size, a setting attnviz does not compute (another activation, a RoPE scaling it
// does not know).
ModelConfig parse_hf_config(std::string_view json_text, const std::string& path);

// The weights under their Hugging Face names (with or without the "transformer." / "bert." /
// "model." prefix the saved class adds); the configuration gains what only the tensors tell
// (a BertModel has no masked-LM head, GPT-2's lm_head is tied).
ModelWeights build_hf_weights(WeightBuilder& builder, ModelConfig& config);

}  // namespace attnviz::model
