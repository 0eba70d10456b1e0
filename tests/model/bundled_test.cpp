// The bundled models (core/model/bundled.h): "bundled:NAME" found in the models folder, unknown
// names and a missing folder refused by name, and the shipped character-level model opened and
// run as any model is, predicting what a model trained on its text must.

#include "core/model/bundled.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include "core/common/error.h"
#include "core/cpu/cpu_backend.h"
#include "core/model/forward.h"
#include "core/model/model.h"

namespace attnviz::model {
namespace {

namespace fs = std::filesystem;

// Points ATTNVIZ_MODELS_DIR at `folder` for its lifetime.
class ModelsDir {
 public:
  explicit ModelsDir(const fs::path& folder) { ::setenv("ATTNVIZ_MODELS_DIR", folder.c_str(), 1); }
  ~ModelsDir() { ::unsetenv("ATTNVIZ_MODELS_DIR"); }
  ModelsDir(const ModelsDir&) = delete;
  ModelsDir& operator=(const ModelsDir&) = delete;
};

std::string error_of(const std::string& path) {
  try {
    (void)resolve_model_path(path);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(BundledModels, ANameIsItsFolderAndOtherPathsStayAsGiven) {
  const fs::path root = fs::temp_directory_path() / ("attnviz-bundled-" + std::to_string(::getpid()));
  fs::remove_all(root);
  fs::create_directories(root);
  fs::copy(fs::path(ATTNVIZ_TEST_MODELS) / "gpt2", root / "tiny");
  const ModelsDir chosen(root);
  EXPECT_EQ(resolve_model_path("bundled:tiny"), (root / "tiny").string());
  EXPECT_EQ(resolve_model_path("models/gpt2"), "models/gpt2");
  const std::string unknown = error_of("bundled:huge");
  EXPECT_NE(unknown.find("bundled:huge"), std::string::npos) << unknown;
  EXPECT_NE(unknown.find("the bundled models are: tiny"), std::string::npos) << unknown;
  EXPECT_EQ(Model::open("bundled:tiny")->config().num_layers, 2);
  fs::remove_all(root);
  const std::string none = error_of("bundled:tiny");
  EXPECT_NE(none.find("no bundled model is installed"), std::string::npos) << none;
}

TEST(BundledModels, TheKingJamesModelHasLearnedItsText) {
  const ModelsDir shipped(fs::path(ATTNVIZ_SOURCE_DIR) / "assets" / "models");
  const std::vector<BundledModel> models = bundled_models();
  ASSERT_FALSE(models.empty());
  EXPECT_EQ(models.front().name, "kjv-chars");
  EXPECT_FALSE(models.front().description.empty());
  EXPECT_FALSE(models.front().description_ko.empty());
  EXPECT_EQ(models.front().sample_text, "And God said, Let there be light: and there was light.");

  const auto model = Model::open("bundled:kjv-chars");
  const auto backend = make_cpu_backend();
  ForwardPass pass(*model, *backend);
  // After "the eart" a model of the King James text all but knows the next byte.
  const ForwardResult& result = pass.run(model->tokenizer().encode("God created the heaven and the eart"), {});
  ASSERT_FALSE(result.next_tokens.empty());
  EXPECT_EQ(result.next_tokens.front().token, "h");
  EXPECT_GT(result.next_tokens.front().p, 0.8);
}

}  // namespace
}  // namespace attnviz::model
