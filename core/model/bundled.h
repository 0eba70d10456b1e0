#pragma once
// The trained models attnviz ships (assets/models/, made by scripts/train-bundled-models.sh),
// so that a first start on an offline machine shows learned attention. Wherever a model path is
// taken (Model::open: --model, File > Open model, train --init), "bundled:NAME" names one.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attnviz::model {

inline constexpr std::string_view kBundledPrefix = "bundled:";

struct BundledModel {
  std::string name;            // "kjv-chars"
  std::string description;     // its about.txt's first line
  std::string description_ko;  // its about.ko.txt's first line (empty: none): the window in Korean
  std::string sample_text;     // its sample.txt: a text to open it with (empty: none)
  std::filesystem::path folder;
};

// Where the bundled models are: $ATTNVIZ_MODELS_DIR when set, else the first of
// BINARY/../share/attnviz/models (the build tree and an install under any prefix) and the
// install's datadir that holds any model folder.
std::optional<std::filesystem::path> bundled_models_dir();

// The bundled models there are, by name.
std::vector<BundledModel> bundled_models();

// "bundled:NAME" as its folder; any other path as given. Throws InputError naming the path for an
// unknown name (and the names there are) or when no bundled model is installed.
std::string resolve_model_path(const std::string& path);

}  // namespace attnviz::model
