// The heatmaps' cached images (app/heatmap/heatmap_renderer.h): a heatmap's cells are drawn
// into its image exactly when its data, range, zoom or size changes (or a recompute), and not
// otherwise: not for a steady frame, a hovered token, or a window moved by whole pixels. A
// steady frame allocates nothing; a new size makes a new image; the specialised shaders draw the
// general one's pixels. Real Vulkan (lavapipe in CI) with the validation layer, Dear ImGui
// headless, the window's pass drawn into an image.

#include <gtest/gtest.h>
#include <imgui.h>

#include <algorithm>
#include <limits>
#include <memory>
#include <utility>
#include <vector>

#include "app/heatmap/heatmap_image.h"
#include "app/heatmap/heatmap_pipeline.h"
#include "app/heatmap/heatmap_renderer.h"
#include "app/heatmap/heatmap_widget.h"
#include "app/window/frame_capture.h"
#include "core/vk/commands.h"
#include "core/vk/descriptors.h"
#include "tests/support/headless_imgui.h"
#include "tests/vk/vk_test_support.h"

namespace attnviz::heatmap {
namespace {

constexpr int kWidth = 400;
constexpr int kHeight = 300;

std::size_t differing_pixels(const std::vector<std::uint8_t>& a, const std::vector<std::uint8_t>& b) {
  if (a.size() != b.size()) return std::max(a.size(), b.size()) / 4;
  std::size_t count = 0;
  for (std::size_t p = 0; p + 3 < a.size(); p += 4)
    if (!std::equal(&a[p], &a[p + 4], &b[p])) ++count;
  return count;
}

class CachedImages : public ::testing::Test {
 protected:
  CachedImages()
      : context_(testing::validated_context()),
        window_pass_(create_image_pass(context_->device())),
        display_(make_image_pipeline(context_->device(), window_pass_.get())),
        pool_(vk::create_descriptor_pool(context_->device(), 1, {&kPoolSize, 1},
                                         VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT)),
        sampler_(make_sampler()),
        target_(std::make_unique<HeatmapImage>(*context_, window_pass_.get(), pool_.get(), display_.set_layout(),
                                               sampler_.get(), kWidth, kHeight)),
        renderer_(std::make_unique<HeatmapRenderer>(*context_, window_pass_.get())),
        widget_(*renderer_),
        stream_(*context_),
        matrix_(12, 9) {
    for (std::size_t i = 0; i < matrix_.data.size(); ++i) matrix_.data[i] = static_cast<float>(i % 7) / 7.0f;
    spec_.source.host = &matrix_;
    spec_.source.version = 1;
    spec_.cells_width = 180.0f;
    spec_.cells_height = 240.0f;
    spec_.zoom = &zoom_;
    zoom_ = CellWindow{0.0f, 0.0f, 12.0f, 9.0f};
  }
  ~CachedImages() override {
    renderer_.reset();  // waits for the device
    target_.reset();
    testing::expect_no_validation_messages(*context_);
  }

  // One frame: the UI built with the heatmap at `position`, the image passes, then the
  // window's pass with ImGui's callbacks (the heatmaps' quads) into the target image.
  void frame(ImVec2 position = ImVec2(10.0f, 10.0f)) {
    renderer_->begin_frame(generation_, 1.0f);
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(position);
    ImGui::SetNextWindowSize(ImVec2(260.0f, 280.0f));
    ImGui::Begin("page", nullptr,
                 ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoScrollbar);
    widget_.draw("##cells", spec_);
    ImGui::End();
    ImGui::Render();

    const VkCommandBuffer cmd = stream_.begin();
    renderer_->render_images(cmd);
    VkClearValue clear{};
    VkRenderPassBeginInfo pass{};
    pass.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO;
    pass.renderPass = window_pass_.get();
    pass.framebuffer = target_->framebuffer();
    pass.renderArea.extent = {kWidth, kHeight};
    pass.clearValueCount = 1;
    pass.pClearValues = &clear;
    vkCmdBeginRenderPass(cmd, &pass, VK_SUBPASS_CONTENTS_INLINE);
    const ImDrawData* data = ImGui::GetDrawData();
    renderer_->set_target(cmd, data);
    for (int l = 0; l < data->CmdListsCount; ++l) {
      const ImDrawList* list = data->CmdLists[l];
      for (const ImDrawCmd& draw : list->CmdBuffer) {
        if (draw.UserCallback != nullptr && draw.UserCallback != ImDrawCallback_ResetRenderState)
          draw.UserCallback(list, &draw);
      }
    }
    vkCmdEndRenderPass(cmd);
    stream_.submit_and_wait();
  }

  // Redraws of the image over `frames` frames.
  std::uint64_t redraws_over(int frames, ImVec2 position = ImVec2(10.0f, 10.0f)) {
    const std::uint64_t before = renderer_->image_redraw_count();
    for (int i = 0; i < frames; ++i) frame(position);
    return renderer_->image_redraw_count() - before;
  }

  // The window's pixels after the last frame (RGBA).
  std::vector<std::uint8_t> pixels() {
    window::FrameCapture capture(*context_);
    const VkCommandBuffer cmd = stream_.begin();
    capture.record(cmd, target_->image(), {kWidth, kHeight}, kImageFormat, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
    stream_.submit_and_wait();
    return capture.rgba();
  }

  // The window drawn by the general shader and by the variant the renderer picks.
  std::pair<std::vector<std::uint8_t>, std::vector<std::uint8_t>> general_and_picked() {
    renderer_->set_only_general(true);
    ++generation_;  // a recompute: the image is drawn again
    frame();
    std::vector<std::uint8_t> general = pixels();
    renderer_->set_only_general(false);
    ++generation_;
    frame();
    return {std::move(general), pixels()};
  }

  vk::Sampler make_sampler() const {
    VkSamplerCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO;
    VkSampler sampler = VK_NULL_HANDLE;
    vk::check(vkCreateSampler(context_->device(), &info, nullptr, &sampler), "vkCreateSampler");
    return {context_->device(), sampler};
  }

  static constexpr VkDescriptorPoolSize kPoolSize{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1};
  testing::HeadlessImGui imgui_{ImVec2(kWidth, kHeight)};
  std::shared_ptr<vk::Context> context_;
  vk::RenderPass window_pass_;
  QuadPipeline display_;
  vk::DescriptorPool pool_;
  vk::Sampler sampler_;
  std::unique_ptr<HeatmapImage> target_;
  std::unique_ptr<HeatmapRenderer> renderer_;
  HeatmapWidget widget_;
  vk::CommandStream stream_;
  Matrix matrix_;
  CellWindow zoom_;
  HeatmapSpec spec_;
  std::uint64_t generation_ = 1;
};

TEST_F(CachedImages, AreDrawnOnceAndThenOnlyShown) {
  EXPECT_EQ(redraws_over(1), 1u);
  EXPECT_EQ(renderer_->image_count(), 1u);
  const std::uint64_t allocations = renderer_->allocation_count();
  EXPECT_EQ(redraws_over(5), 0u);
  EXPECT_EQ(renderer_->allocation_count(), allocations) << "a steady frame allocates nothing";

  spec_.highlight_token = 3;  // hover outlines are ImGui's lines over the image
  spec_.pinned_row = 2;
  EXPECT_EQ(redraws_over(3), 0u);
  EXPECT_EQ(redraws_over(3, ImVec2(40.0f, 20.0f)), 0u) << "moved by whole pixels: the same image";
  EXPECT_EQ(renderer_->allocation_count(), allocations);
}

TEST_F(CachedImages, AreRedrawnExactlyWhenDataRangeZoomOrSizeChange) {
  EXPECT_EQ(redraws_over(2), 1u);
  const VkDeviceSize image_bytes = renderer_->image_bytes();

  spec_.range_max = 0.5f;  // range
  EXPECT_EQ(redraws_over(3), 1u);
  spec_.colormap = Colormap::Magma;  // colours
  EXPECT_EQ(redraws_over(3), 1u);
  spec_.log_scale = true;
  EXPECT_EQ(redraws_over(3), 1u);
  zoom_ = CellWindow{2.0f, 1.0f, 6.0f, 4.0f};  // zoom
  EXPECT_EQ(redraws_over(3), 1u);
  matrix_.data[5] = 0.9f;  // data: an edit moves the version on
  spec_.source.version = 2;
  EXPECT_EQ(redraws_over(3), 1u);
  ++generation_;  // a recompute (results rewritten in place)
  EXPECT_EQ(redraws_over(3), 1u);
  MaskSetting causal;
  causal.causal = true;
  spec_.mask = &causal;  // the mask's hatching
  EXPECT_EQ(redraws_over(3), 1u);
  EXPECT_EQ(renderer_->image_bytes(), image_bytes) << "same size: the same image";

  const std::uint64_t before_resize = renderer_->allocation_count();
  spec_.cells_width = 120.0f;  // size: a new image
  EXPECT_EQ(redraws_over(3), 1u);
  EXPECT_GT(renderer_->allocation_count(), before_resize);
  EXPECT_LT(renderer_->image_bytes(), image_bytes);
  EXPECT_EQ(renderer_->image_count(), 1u);
}

// The specialised shaders (HeatmapVariant) draw exactly what the general one draws: a cell per
// pixel or several, no mask, a mask of named fields, an expression's runs, hidden NaN blocks.
TEST_F(CachedImages, TheSpecialisedShadersDrawWhatTheGeneralOneDraws) {
  MaskSetting causal;
  causal.causal = true;
  MaskSetting expression;
  expression.expression = "k <= q && (k < 2 || q - k <= 3)";
  Matrix large(400, 500);
  for (std::size_t i = 0; i < large.data.size(); ++i) large.data[i] = static_cast<float>((i * 37) % 101) / 101.0f;
  struct Case {
    const char* name;
    const Matrix* matrix;
    const MaskSetting* mask;
  };
  for (const Case& c : {Case{"cells, no mask", &matrix_, nullptr}, Case{"cells, causal", &matrix_, &causal},
                        Case{"cells, expression", &matrix_, &expression}, Case{"pooled, causal", &large, &causal},
                        Case{"pooled, expression", &large, &expression}}) {
    spec_.source.host = c.matrix;
    spec_.source.version = c.matrix == &matrix_ ? 1 : 2;
    spec_.mask = c.mask;
    zoom_ = CellWindow{0.0f, 0.0f, static_cast<float>(c.matrix->rows), static_cast<float>(c.matrix->cols)};
    const auto [general, picked] = general_and_picked();
    EXPECT_EQ(differing_pixels(general, picked), 0u) << c.name;
  }
  matrix_.at(3, 4) = std::numeric_limits<float>::quiet_NaN();
  matrix_.at(7, 1) = std::numeric_limits<float>::quiet_NaN();
  spec_.source.host = &matrix_;
  spec_.source.version = 3;
  spec_.mask = nullptr;
  spec_.nan_hidden = true;
  zoom_ = CellWindow{0.0f, 0.0f, 12.0f, 9.0f};
  const auto [general, picked] = general_and_picked();
  EXPECT_EQ(differing_pixels(general, picked), 0u) << "hidden NaN blocks";
}

TEST(HeatmapVariants, AreChosenAsTheShaderWouldSample) {
  HeatmapPush push{};
  push.rect[0] = 10.0f;
  push.rect[1] = 10.0f;
  push.rect[2] = 210.0f;  // 200 x 100 pixels
  push.rect[3] = 110.0f;
  push.view[2] = 100.0f;  // rows
  push.view[3] = 200.0f;  // columns: one cell per pixel
  push.flags = 3 << kSamplesShift;
  EXPECT_EQ(variant_for(push), (HeatmapVariant{true, true}));
  push.view[3] = 201.0f;  // a pixel covers more than one column: the sampling loop
  EXPECT_EQ(variant_for(push), (HeatmapVariant{false, true}));
  push.flags = 1 << kSamplesShift;  // thumbnails read one cell whatever they cover
  EXPECT_EQ(variant_for(push), (HeatmapVariant{true, true}));
  push.mask.runs_offset = 17;  // an expression's runs
  EXPECT_EQ(variant_for(push), (HeatmapVariant{true, false}));
  EXPECT_EQ(HeatmapVariant{}.index(), 0);
  EXPECT_EQ((HeatmapVariant{true, true}).index(), kHeatmapVariants - 1);
}

TEST_F(CachedImages, AHeatmapNoLongerDrawnGivesItsImageBack) {
  EXPECT_EQ(redraws_over(1), 1u);
  EXPECT_GT(renderer_->image_bytes(), 0u);
  for (int i = 0; i < 130; ++i) {  // frames without the heatmap (its panel closed)
    renderer_->begin_frame(generation_, 1.0f);
    ImGui::NewFrame();
    ImGui::Render();
  }
  EXPECT_EQ(renderer_->image_count(), 0u);
  EXPECT_EQ(redraws_over(1), 1u);  // shown again: drawn again
}

}  // namespace
}  // namespace attnviz::heatmap
