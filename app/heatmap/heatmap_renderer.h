#pragma once
// Draws heatmaps on the GPU. Each heatmap has a cached image of its own (heatmap_image.h), the
// size of its visible cells in framebuffer pixels: the cells are drawn into it (heatmap.frag
// reading the matrix's buffer, a uniform texel buffer view: on lavapipe texel fetches are vector
// gathers) only when its data, range, colours, mask, zoom or size changed; every frame draws
// the image as one textured quad. So a steady frame costs about what Dear ImGui alone costs,
// however long the sentence.
//
// A widget calls add_draw() while the UI is built: it finds the heatmap's image (by the
// widget's ImGui ID), compares what would be drawn with what the image holds, and adds an
// ImDrawList callback (and ImDrawCallback_ResetRenderState after it). Before the window's
// render pass begins, render_images() records the image passes due this frame; when ImGui's
// Vulkan backend reaches a callback, the image is drawn with scissor from the clip rectangle.
//
// Nothing is allocated per frame when nothing changed: images, views, descriptor sets,
// uploaded host matrices and mask tables are cached; an image is made anew only when its size
// changes. Cached views and sets are dropped when the compute session's generation moves on (a
// recompute may have replaced the result buffers), after the queue went idle; an upload buffer
// is rewritten only once no frame in flight reads it; an image no frame drew for a while is
// released once no frame in flight samples it.

#include <vulkan/vulkan.h>

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <optional>
#include <tuple>
#include <vector>

#include "app/heatmap/colormaps.h"
#include "app/heatmap/heatmap_pipeline.h"
#include "app/heatmap/mask_cache.h"
#include "core/vk/image.h"
#include "core/attention/device_results.h"
#include "core/attention/mask.h"
#include "core/common/matrix.h"
#include "core/scenario/scenario.h"
#include "core/vk/buffer.h"
#include "core/vk/context.h"

struct ImDrawList;
struct ImDrawCmd;
struct ImDrawData;

namespace attnviz::heatmap {

// The part of a matrix that fills the heatmap's rectangle, in (fractional) cells.
struct CellWindow {
  float first_row = 0.0f;
  float first_col = 0.0f;
  float rows = 1.0f;
  float cols = 1.0f;
};

struct DrawRequest {
  std::uint64_t image_id = 0;            // which heatmap (its widget's ImGui ID): one cached image each
  std::uint64_t data_version = 0;        // changes when the values change (a generation, a revision)
  DeviceMatrix matrix;                   // where the values are (a result buffer or an upload)
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;  // the cells' rectangle, ImGui coordinates
  CellWindow window;
  float value_scale = 1.0f;  // shown = value_scale · stored (scale · raw scores)
  float range_min = 0.0f;    // shown values mapped to the colormap's ends
  float range_max = 1.0f;
  Colormap colormap = Colormap::Viridis;
  // The colour where no cell is (the matrix panned past its edge): an opaque ImGui colour
  // (ImU32, as ImGui::GetColorU32 gives it). The image is opaque, so it is drawn without blending
  // and needs nothing under it.
  std::uint32_t background = 0xff000000u;
  // Hatch the cells this mask hides (matrix-sized mask). A result matrix on the device brings
  // the mask it was computed under with its global-token table (matrix.mask): that is used.
  const MaskSetting* mask = nullptr;
  int mask_head = 0;        // the head whose rows a mask expression using h gives (else ignored)
  int mask_heads = 1;       // the problem's query heads
  int max_samples = 3;      // cells read per pixel and axis when pixels cover several
  bool log_scale = false;   // the colormap spans log10 of the range
  bool nan_hidden = false;  // NaN values are hidden blocks: kHiddenShade
  // shown −= distance_bias · |row − col|: ALiBi's bias, so the scaled scores show what the
  // softmax sees.
  float distance_bias = 0.0f;
  // Dropout's kept set (1.0 / 0.0, the matrix's shape and row pitch): cells where it is 0 are
  // hatched as dropped. No buffer: nothing is.
  DeviceMatrix kept;
};

class HeatmapImage;

class HeatmapRenderer {
 public:
  // A cell pass's descriptor set, and what a cached image was drawn from: values buffer, base,
  // range, mask view, kept buffer, base, range (the values again without a kept set).
  using SetKey = std::tuple<VkBuffer, VkDeviceSize, VkDeviceSize, VkBufferView, VkBuffer, VkDeviceSize, VkDeviceSize>;

  // `render_pass`: the window's. `cache`: where pipelines are built through (or none).
  HeatmapRenderer(const vk::Context& context, VkRenderPass render_pass, VkPipelineCache cache = VK_NULL_HANDLE);
  ~HeatmapRenderer();
  HeatmapRenderer(const HeatmapRenderer&) = delete;
  HeatmapRenderer& operator=(const HeatmapRenderer&) = delete;

  // Once per frame, before the UI is built. Cached views and sets are kept while the buffers
  // they point at live (a recompute of the same shape reuses them); a new `generation` (the
  // compute session recomputed) releases mask tables and uploads no longer used.
  void begin_frame(std::uint64_t generation, float ui_scale);

  // The host matrix on the GPU: uploaded when (its data pointer, shape, version) was not seen
  // in recent frames, else the earlier upload. `version` must change whenever the contents
  // change (a Document revision, a counter of the caller's). A large matrix named by
  // set_host_storage() is not copied where the device imports host memory: the buffer is made
  // over the matrix's own storage.
  DeviceMatrix upload(const Matrix& matrix, std::uint64_t version);

  // Matrices whose storage stays put until release_host_imports() is called (the Eigen
  // result, whose session calls it before a recompute may move them).
  void set_host_storage(std::vector<const Matrix*> matrices) { host_storage_ = std::move(matrices); }
  // Lets go of every buffer made over host storage, after the device finished with them.
  void release_host_imports();

  // Queues a heatmap into `list` at its current clip rectangle. False (nothing drawn) when the
  // matrix is empty or larger than one storage-buffer binding allows.
  bool add_draw(ImDrawList* list, const DrawRequest& request);
  // The masks the cells are hatched with, for the overlays to read the same ones (numbers in
  // masked cells, block-sparsity tiles).
  [[nodiscard]] MaskCache& masks() { return masks_; }

  // Off: heatmaps are laid out and labelled but no cells are drawn (measuring what the window
  // costs without them).
  void set_drawing(bool drawing) { drawing_ = drawing; }
  // Tests: every image drawn by the general shader, to compare the variants' pixels with.
  void set_only_general(bool only) { only_general_ = only; }

  // Before the window's render pass begins: draws the cells of every image add_draw() found
  // out of date this frame into it (`cmd` outside any render pass).
  void render_images(VkCommandBuffer cmd);

  // Before ImGui's draw data is recorded: the callbacks record into `cmd`.
  void set_target(VkCommandBuffer cmd, const ImDrawData* draw_data);

  // Buffers, images and descriptor sets created so far (tests: a steady view allocates nothing).
  [[nodiscard]] std::uint64_t allocation_count() const { return allocations_; }
  // Images whose cells were drawn so far (tests: redrawn exactly when something changed).
  [[nodiscard]] std::uint64_t image_redraw_count() const { return redraws_; }
  [[nodiscard]] std::size_t image_count() const { return images_.size(); }
  // Device memory of the cached images (the memory figures).
  [[nodiscard]] VkDeviceSize image_bytes() const;

 private:
  struct Pending;
  struct Upload;
  struct MaskTable;
  struct Cached;
  struct Import;
  static void draw_callback(const ImDrawList* list, const ImDrawCmd* cmd);
  void record(const Pending& pending, const ImDrawCmd& cmd);
  Cached& cached_image(std::uint64_t id, int width, int height);
  void release_old_images();
  const MaskTable& mask_table(const MaskCache::Found& mask);
  VkBufferView device_table_view(const DeviceMatrix& table);
  VkDescriptorSet descriptor_set(const SetKey& key);
  void reset_descriptors();
  void release_unused();
  std::optional<DeviceMatrix> import(const Matrix& matrix);

  const vk::Context* context_;
  VkDevice device_;
  vk::RenderPass image_pass_;
  HeatmapPipelines pipelines_;   // cells into the cached images, one per HeatmapVariant
  QuadPipeline image_pipeline_;  // cached images onto the window
  vk::Sampler sampler_;
  vk::DescriptorPool image_pool_;  // the images' sampling sets, each freed with its image
  vk::DescriptorPool pool_;
  vk::Buffer colormaps_;
  vk::BufferView colormaps_view_;
  std::map<SetKey, VkDescriptorSet> sets_;
  std::vector<vk::BufferView> value_views_;  // the views sets_ point at
  // Views of the global-token tables that results on the device bring (DeviceMask::table).
  std::map<std::tuple<VkBuffer, VkDeviceSize, VkDeviceSize>, vk::BufferView> device_tables_;
  std::vector<std::unique_ptr<Upload>> uploads_;
  std::vector<const Matrix*> host_storage_;
  std::vector<std::unique_ptr<Import>> imports_;
  MaskCache masks_;                                          // the masks drawn, made once (the overlays read them too)
  std::vector<std::unique_ptr<MaskTable>> mask_tables_;      // their uploaded tables, by mask id
  std::deque<Pending> pending_;                              // this frame's draws (stable addresses for the callbacks)
  std::map<std::uint64_t, std::unique_ptr<Cached>> images_;  // by image_id
  // Images replaced or no longer drawn, kept until no frame in flight samples them.
  std::vector<std::pair<std::uint64_t, std::unique_ptr<HeatmapImage>>> retired_;

  std::uint64_t generation_ = 0;
  std::uint64_t frame_ = 0;                   // begin_frame() calls so far
  std::uint64_t destroyed_buffers_seen_ = 0;  // vk::destroyed_buffer_count() when the sets were last reset
  float ui_scale_ = 1.0f;
  VkCommandBuffer target_ = VK_NULL_HANDLE;
  float display_pos_[2] = {0, 0};
  float framebuffer_scale_[2] = {1, 1};
  float framebuffer_size_[2] = {0, 0};
  std::uint64_t allocations_ = 0;
  std::uint64_t redraws_ = 0;
  bool drawing_ = true;
  bool only_general_ = false;
};

}  // namespace attnviz::heatmap
