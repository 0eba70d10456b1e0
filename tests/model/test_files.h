#pragma once
// Small files written by the tests themselves: broken safetensors and GGUF files, and copies of
// the generated models with one thing changed.

#include <unistd.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/common/error.h"

namespace attnviz::model::testing {

inline std::filesystem::path scratch_root() {
  return std::filesystem::temp_directory_path() / ("attnviz-model-test-" + std::to_string(::getpid()));
}

// Removes this process's scratch folder when the tests end.
class RemoveScratch : public ::testing::Environment {
 public:
  void TearDown() override { std::filesystem::remove_all(scratch_root()); }
};
inline const auto* const kRemoveScratch = ::testing::AddGlobalTestEnvironment(new RemoveScratch);

inline std::filesystem::path scratch(const std::string& name) {
  std::filesystem::create_directories(scratch_root());
  return scratch_root() / name;
}

inline void write_bytes(const std::filesystem::path& path, const std::string& bytes) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

template <typename T>
std::string little_endian(T value) {
  std::string bytes(sizeof(T), '\0');
  std::memcpy(bytes.data(), &value, sizeof(T));
  return bytes;
}

// A safetensors file: the header as given, then `data` bytes.
inline std::string safetensors(const std::string& header, const std::string& data) {
  return little_endian<std::uint64_t>(header.size()) + header + data;
}

inline std::string gguf_string(const std::string& text) { return little_endian<std::uint64_t>(text.size()) + text; }

// The InputError `action` throws; fails the test when it throws none.
template <typename Action>
InputError input_error(Action action) {
  try {
    action();
  } catch (const InputError& e) {
    return e;
  }
  ADD_FAILURE() << "no InputError";
  return InputError("", "", "");
}

inline std::filesystem::path test_models() { return ATTNVIZ_TEST_MODELS; }

// A copy of the generated model `model` (a folder) named `name` in the scratch folder.
inline std::filesystem::path copy_of(const std::string& model, const std::string& name) {
  const std::filesystem::path copy = scratch(name);
  std::filesystem::remove_all(copy);
  std::filesystem::copy(test_models() / model, copy, std::filesystem::copy_options::recursive);
  return copy;
}

inline std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// The first `from` in the file replaced by `to`.
inline void replace_in_file(const std::filesystem::path& path, const std::string& from, const std::string& to) {
  std::string text = read_text(path);
  const std::size_t at = text.find(from);
  ASSERT_NE(at, std::string::npos) << from;
  text.replace(at, from.size(), to);
  write_bytes(path, text);
}

}  // namespace attnviz::model::testing
