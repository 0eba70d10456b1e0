#pragma once
// The model session's words for the window: a refused text's message, the model's caption and
// an undo step's label.

#include <exception>
#include <optional>
#include <string>

#include "core/common/error.h"
#include "core/model/model.h"

namespace attnviz::compute {

// A refused text's error in the window's words: the core writes "<text>: --text: makes 40
// tokens but the model has positions for 32" for the command line; the window says "The text
// makes 40 tokens but the model has positions for 32", its numbers grouped ("180,001 tokens");
// attention too large to keep (model::KeptAttentionTooLarge) is worded from its numbers, without
// the command line's --layers advice (the window keeps every layer). Other errors as they are.
// In the window's language (app/i18n): called on the window's thread only, where the language
// is switched (a worker keeps the error, window_message_of says it when the result is taken).
std::string window_message(const InputError& error);
// A worker's failure said on the window's thread: an InputError as window_message says it, a
// fixed message of the window's (out of memory, one marked N_) translated, any other error as
// it is (the core's, English).
std::string window_message_of(const std::exception_ptr& failure);

// The model as the window title, the menu bar and the status bar name it while it is shown:
// its folder's or file's name, architecture and layers × heads,
//   "gpt2  —  GPT2LMHeadModel, 12 layers × 12 heads".
// `path` as it was opened: a folder (with or without a trailing /), a file inside one
// (config.json, model.safetensors: the folder's name) or a .gguf file (its name).
std::string model_caption(const std::string& path, const std::string& architecture, int layers, int heads);

// The model as the model bar describes it, in the window's language (Model::description in
// English): "GPT2LMHeadModel (GPT-2), 12 layers × 12 heads, d_model 768, 124M parameters,
// safetensors F32".
std::string model_description(const model::Model& model);

// "Layer 3 head 1 off", "Layer 3 head 1 × 0.5", "Layer 3 head 1 on": an undo step's label,
// in the language of the moment it was recorded.
std::string head_switch_label(int layer, int head, std::optional<float> factor);

}  // namespace attnviz::compute
