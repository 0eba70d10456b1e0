// Device-local buffers filled from the host and read back (core/vk/transfer.h), both ways: in
// place (lavapipe maps its device memory) and through staging copies, as on a discrete GPU.

#include "core/vk/transfer.h"

#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "tests/vk/vk_test_support.h"

namespace attnviz::vk {
namespace {

class TransferTest : public ::testing::TestWithParam<Transfer> {};

TEST_P(TransferTest, WhatIsUploadedReadsBackWholeAndTheBufferHasTheUsageAsked) {
  const auto context = testing::validated_context();
  CommandStream stream(*context);
  std::vector<float> values(1000);
  std::iota(values.begin(), values.end(), -3.5f);
  const Buffer buffer =
      upload_buffer(*context, values.data(), values.size() * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, stream, GetParam());
  EXPECT_GE(buffer.size(), values.size() * 4);
  EXPECT_NE(buffer.usage() & VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, 0u);
  // The read-back copies out of the buffer: it must be a transfer source as output buffers are.
  const Buffer out = output_buffer(*context, values.size() * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  EXPECT_NE(out.usage() & VK_BUFFER_USAGE_TRANSFER_SRC_BIT, 0u);

  std::vector<float> back(values.size(), 0.0f);
  Buffer readable =
      upload_buffer(*context, values.data(), values.size() * 4,
                    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT, stream, GetParam());
  read_back(*context, readable, back.data(), back.size() * 4, stream, GetParam());
  EXPECT_EQ(back, values);

  // Fewer bytes than 16 still make a valid buffer.
  const float one = 7.0f;
  const Buffer tiny = upload_buffer(*context, &one, 4, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, stream, GetParam());
  float got = 0.0f;
  read_back(*context, tiny, &got, 4, stream, GetParam());
  EXPECT_EQ(got, one);
  testing::expect_no_validation_messages(*context);
}

INSTANTIATE_TEST_SUITE_P(Ways, TransferTest, ::testing::Values(Transfer::Automatic, Transfer::Staged),
                         [](const ::testing::TestParamInfo<Transfer>& way) {
                           return way.param == Transfer::Staged ? std::string("Staged")
                                                                : std::string("InPlaceWhereMapped");
                         });

}  // namespace
}  // namespace attnviz::vk
