// The pipeline cache on disk (core/vk/pipeline_cache.h): written after pipelines were built,
// given back to the driver at the next start, and a damaged or foreign file ignored with a
// message (never handed to the driver, never a crash). The attention kernels are the pipelines.

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "core/gpu/kernels.h"
#include "core/vk/pipeline_cache.h"
#include "tests/vk/vk_test_support.h"

namespace attnviz {
namespace {

namespace fs = std::filesystem;

class PipelineCacheFile : public ::testing::Test {
 protected:
  void SetUp() override {
    folder_ = fs::temp_directory_path() / ("attnviz-pipeline-cache-" + std::to_string(::getpid()));
    fs::remove_all(folder_);
  }
  void TearDown() override { fs::remove_all(folder_); }

  std::shared_ptr<vk::Context> context() const {
    vk::ContextOptions options;
    options.pipeline_cache_folder = folder_;
    return testing::validated_context(options);
  }
  fs::path file(const vk::Context& context) const {
    return folder_ / vk::pipeline_cache_file_name(context.properties());
  }
  static std::string read(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  }
  static void write(const fs::path& path, const std::string& bytes) {
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << bytes;
  }
  static std::size_t cache_data_size(const vk::Context& context) {
    std::size_t size = 0;
    EXPECT_EQ(vkGetPipelineCacheData(context.device(), context.pipeline_cache(), &size, nullptr), VK_SUCCESS);
    return size;
  }
  // Builds the attention kernels through the context's cache, then saves it.
  static void build_and_save(vk::Context& context) {
    const gpu::Kernels kernels(context, gpu::choose_tile_config(context));
    EXPECT_NE(kernels.get(gpu::Kernel::Softmax).pipeline(), VK_NULL_HANDLE);
    EXPECT_EQ(context.save_pipeline_cache(), "");
  }

  fs::path folder_;
};

TEST_F(PipelineCacheFile, IsWrittenAfterPipelinesWereBuiltAndReusedAtTheNextStart) {
  {
    const auto first = context();
    EXPECT_FALSE(first->pipeline_cache_store()->reused());
    EXPECT_EQ(first->pipeline_cache_store()->message(), "");  // no file yet: nothing to say
    build_and_save(*first);
    const std::string bytes = read(file(*first));
    ASSERT_GE(bytes.size(), 64u);
    EXPECT_EQ(bytes.substr(0, 16), "attnviz-pipeline");
    EXPECT_EQ(vk::pipeline_cache_file_problem(bytes, first->properties()), std::nullopt);
    testing::expect_no_validation_messages(*first);
  }
  const auto second = context();
  EXPECT_TRUE(second->pipeline_cache_store()->reused());
  EXPECT_EQ(second->pipeline_cache_store()->message(), "");
  build_and_save(*second);
  testing::expect_no_validation_messages(*second);
}

// The model worker saves after every pass: a save with no pipeline built since the last one
// writes nothing; one after a new pipeline (here another workgroup shape) writes again.
TEST_F(PipelineCacheFile, IsWrittenAgainOnlyWhenPipelinesWereBuilt) {
  const auto context = this->context();
  build_and_save(*context);
  ASSERT_TRUE(fs::exists(file(*context)));
  fs::remove(file(*context));
  EXPECT_EQ(context->save_pipeline_cache(), "");
  EXPECT_FALSE(fs::exists(file(*context)));

  gpu::TileConfig other = gpu::choose_tile_config(*context);
  other.softmax_rows_per_workgroup *= 2;
  build_and_save(*context);  // the same pipelines: still nothing written
  EXPECT_FALSE(fs::exists(file(*context)));
  const std::size_t size_before = cache_data_size(*context);
  const gpu::Kernels more(*context, other);
  // lavapipe (Mesa 22.3) keeps no pipelines in its cache data, so there only the first save
  // writes; a driver whose data grew with the new pipelines is written again.
  const bool grew = cache_data_size(*context) > size_before;
  EXPECT_EQ(context->save_pipeline_cache(), "");
  EXPECT_EQ(fs::exists(file(*context)), grew);
  testing::expect_no_validation_messages(*context);
}

TEST_F(PipelineCacheFile, ADamagedFileIsIgnoredWithAMessageAndReplaced) {
  std::string valid;
  {
    const auto first = context();
    build_and_save(*first);
    valid = read(file(*first));
  }
  const std::string damaged[] = {
      "",                                                            // empty
      "not a cache at all",                                          // too short, wrong magic
      valid.substr(0, valid.size() - 1),                             // cut short
      valid.substr(0, 64) + std::string(valid.size() - 64, '\x5a'),  // data overwritten
  };
  for (const std::string& bytes : damaged) {
    write(file(*context()), bytes);
    const auto next = context();
    EXPECT_FALSE(next->pipeline_cache_store()->reused());
    const std::string& message = next->pipeline_cache_store()->message();
    EXPECT_NE(message.find("ignored (damaged"), std::string::npos) << message;
    EXPECT_NE(message.find(file(*next).string()), std::string::npos) << message;
    build_and_save(*next);  // works without it, and writes a whole file again
    EXPECT_EQ(vk::pipeline_cache_file_problem(read(file(*next)), next->properties()), std::nullopt);
    testing::expect_no_validation_messages(*next);
  }
}

TEST_F(PipelineCacheFile, AFileOfAnotherDeviceOrDriverIsIgnored) {
  const auto first = context();
  build_and_save(*first);
  const std::string valid = read(file(*first));
  VkPhysicalDeviceProperties other = first->properties();
  other.driverVersion += 1;  // a driver update
  EXPECT_EQ(vk::pipeline_cache_file_problem(valid, other), "made by another device or driver");
  other = first->properties();
  other.pipelineCacheUUID[0] ^= 0xFF;
  EXPECT_EQ(vk::pipeline_cache_file_problem(valid, other), "made by another device or driver");

  // A file whose header names another driver version: the next start ignores it.
  std::string foreign = valid;
  foreign[28] = static_cast<char>(foreign[28] ^ 0x01);  // driverVersion's low byte
  write(file(*first), foreign);
  const auto next = context();
  EXPECT_FALSE(next->pipeline_cache_store()->reused());
  EXPECT_NE(next->pipeline_cache_store()->message().find("made by another device or driver"), std::string::npos)
      << next->pipeline_cache_store()->message();
  testing::expect_no_validation_messages(*next);
}

TEST_F(PipelineCacheFile, AFolderThatCannotBeWrittenIsReportedNotFatal) {
  write(folder_, "a file where the folder should be");  // create_directories fails under it
  vk::ContextOptions options;
  options.pipeline_cache_folder = folder_ / "attnviz";
  const auto context = testing::validated_context(options);
  const gpu::Kernels kernels(*context, gpu::choose_tile_config(*context));
  const std::string problem = context->save_pipeline_cache();
  // Saving anything at all needs the driver to have something to keep; when it has, the
  // failure is reported as text.
  if (!problem.empty()) {
    EXPECT_NE(problem.find("cannot"), std::string::npos) << problem;
  }
  testing::expect_no_validation_messages(*context);
}

}  // namespace
}  // namespace attnviz
