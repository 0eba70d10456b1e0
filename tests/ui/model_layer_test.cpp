// How the window names a pretrained model (title, menu bar, status bar): the real folder's or
// file's name, its architecture, layers × heads.

#include "app/ui/model_layer.h"

#include <gtest/gtest.h>

namespace attnviz::ui {
namespace {

TEST(ModelCaption, AFolderIsNamedWithOrWithoutItsSlash) {
  EXPECT_EQ(model_caption("/home/t/models/gpt2", "GPT2LMHeadModel", 12, 12),
            "gpt2  \u2014  GPT2LMHeadModel, 12 layers \u00D7 12 heads");
  EXPECT_EQ(model_caption("/home/t/models/gpt2/", "GPT2LMHeadModel", 12, 12),
            "gpt2  \u2014  GPT2LMHeadModel, 12 layers \u00D7 12 heads");
}

TEST(ModelCaption, AFileInsideAFolderNamesTheFolderAndAGgufFileItself) {
  EXPECT_EQ(model_caption("/m/TinyLlama-1.1B/config.json", "LlamaForCausalLM", 22, 32),
            "TinyLlama-1.1B  \u2014  LlamaForCausalLM, 22 layers \u00D7 32 heads");
  EXPECT_EQ(model_caption("/m/qwen/model.safetensors", "Qwen2ForCausalLM", 24, 14),
            "qwen  \u2014  Qwen2ForCausalLM, 24 layers \u00D7 14 heads");
  EXPECT_EQ(model_caption("/m/tinyllama.Q4_K_M.gguf", "llama", 22, 32),
            "tinyllama.Q4_K_M.gguf  \u2014  llama, 22 layers \u00D7 32 heads");
}

}  // namespace
}  // namespace attnviz::ui
