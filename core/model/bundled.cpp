#include "core/model/bundled.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <system_error>

#include "core/common/binary_dir.h"
#include "core/common/error.h"

namespace attnviz::model {
namespace fs = std::filesystem;

namespace {

bool is_model_folder(const fs::path& folder) {
  std::error_code error;
  return fs::is_regular_file(folder / "config.json", error) && fs::is_regular_file(folder / "model.safetensors", error);
}

bool holds_models(const fs::path& directory) {
  std::error_code error;
  if (!fs::is_directory(directory, error)) return false;
  for (const fs::directory_entry& entry : fs::directory_iterator(directory, error)) {
    if (is_model_folder(entry.path())) return true;
  }
  return false;
}

std::string first_line(const fs::path& file) {
  std::ifstream in(file);
  std::string line;
  std::getline(in, line);
  return line;
}

}  // namespace

std::optional<fs::path> bundled_models_dir() {
  if (const char* chosen = std::getenv("ATTNVIZ_MODELS_DIR"); chosen != nullptr && *chosen != '\0') return chosen;
  std::vector<fs::path> candidates;
  if (const fs::path here = binary_dir(); !here.empty()) {
    candidates.push_back(here.parent_path() / "share" / "attnviz" / "models");  // build/release/app, PREFIX/bin
  }
  candidates.emplace_back(ATTNVIZ_INSTALL_MODELSDIR);
  for (const fs::path& directory : candidates) {
    if (holds_models(directory)) return directory.lexically_normal();
  }
  return std::nullopt;
}

std::vector<BundledModel> bundled_models() {
  std::vector<BundledModel> models;
  const std::optional<fs::path> directory = bundled_models_dir();
  if (!directory) return models;
  std::error_code error;
  for (const fs::directory_entry& entry : fs::directory_iterator(*directory, error)) {
    if (!is_model_folder(entry.path())) continue;
    models.push_back({entry.path().filename().string(), first_line(entry.path() / "about.txt"),
                      first_line(entry.path() / "about.ko.txt"), first_line(entry.path() / "sample.txt"),
                      entry.path()});
  }
  std::sort(models.begin(), models.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return models;
}

std::string resolve_model_path(const std::string& path) {
  if (!path.starts_with(kBundledPrefix)) return path;
  const std::string name = path.substr(kBundledPrefix.size());
  const std::vector<BundledModel> models = bundled_models();
  if (models.empty()) {
    throw InputError(path, "",
                     "no bundled model is installed here (looked in BINARY/../share/attnviz/models and " +
                         std::string(ATTNVIZ_INSTALL_MODELSDIR) + "; ATTNVIZ_MODELS_DIR chooses another folder)");
  }
  std::string names;
  for (const BundledModel& model : models) {
    if (model.name == name) return model.folder.string();
    names += (names.empty() ? "" : ", ") + model.name;
  }
  throw InputError(path, "", "no bundled model is called \"" + name + "\"; the bundled models are: " + names);
}

}  // namespace attnviz::model
