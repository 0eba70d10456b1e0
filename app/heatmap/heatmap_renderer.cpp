#include "app/heatmap/heatmap_renderer.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>

#include "app/heatmap/heatmap_image.h"
#include "app/window/device_idle.h"
#include "core/scenario/mask_expression_check.h"
#include "core/vk/buffer.h"
#include "core/vk/check.h"
#include "core/vk/context.h"
#include "core/vk/descriptors.h"
#include "core/vk/image.h"

namespace attnviz::heatmap {
namespace {

constexpr std::uint32_t kMaxSets = 1024;
constexpr std::size_t kTrimSetsAbove = 768;    // never run out within one frame
constexpr std::uint64_t kKeepGenerations = 2;  // unused mask tables survive this many recomputes
// A frame's command buffer may still run while the next two frames are built (two frames in
// flight, and the UI is built before the oldest frame's fence is waited for).
constexpr std::uint64_t kFramesUntilFree = 3;
constexpr std::uint64_t kDropUnusedUploadsAfter = 240;  // frames
constexpr std::size_t kKeepUploads = 8;
// A heatmap no frame drew for this many frames (a closed panel, another view) gives its image
// back; drawn again, it gets a new one.
constexpr std::uint64_t kDropUnusedImagesAfter = 120;
constexpr std::uint32_t kMaxImages = 256;

VkDeviceSize align_down(VkDeviceSize value, VkDeviceSize alignment) { return value / alignment * alignment; }

}  // namespace

// What a cached image holds: its cells are drawn again only when this changes.
struct ImageContent {
  HeatmapRenderer::SetKey set{};   // the values, the mask table, the kept set (descriptor_set)
  std::uint32_t background = 0;    // the colour where no cell is
  std::uint64_t data_version = 0;  // the request's (a generation, a revision, an upload's version)
  std::uint64_t generation = 0;    // the compute session's: a recompute rewrites result buffers
  HeatmapPush push{};              // range, colours, mask, zoom, and the cells' place in the image

  friend bool operator==(const ImageContent& a, const ImageContent& b) {
    return a.set == b.set && a.background == b.background && a.data_version == b.data_version &&
           a.generation == b.generation && std::memcmp(&a.push, &b.push, sizeof(HeatmapPush)) == 0;
  }
};

struct HeatmapRenderer::Cached {
  std::unique_ptr<HeatmapImage> image;
  std::optional<ImageContent> content;  // what the image holds (none yet: never drawn)
  bool due = false;                     // its cells are to be drawn this frame
  std::uint64_t frame_used = 0;
  VkDescriptorSet values_set = VK_NULL_HANDLE;  // for this frame's image pass
};

struct HeatmapRenderer::Pending {
  HeatmapRenderer* renderer = nullptr;
  Cached* cached = nullptr;
  int x = 0;  // the image's place in framebuffer pixels
  int y = 0;
};

struct HeatmapRenderer::Upload {
  vk::Buffer buffer;
  const float* data = nullptr;
  int rows = 0;
  int cols = 0;
  std::uint64_t version = 0;
  std::uint64_t frame_used = 0;
};

// A buffer over a host matrix's own pages (VK_EXT_external_memory_host): no copy.
struct HeatmapRenderer::Import {
  vk::Buffer buffer;
  const std::byte* base = nullptr;  // the first page
  VkDeviceSize bytes = 0;           // whole pages
};

struct HeatmapRenderer::MaskTable {
  std::uint64_t mask_id = 0;  // the MaskCache mask it was uploaded from
  vk::Buffer buffer;
  vk::BufferView view;
  std::uint64_t generation_used = 0;
};

HeatmapRenderer::HeatmapRenderer(const vk::Context& context, VkRenderPass render_pass, VkPipelineCache cache)
    : context_(&context),
      device_(context.device()),
      image_pass_(create_image_pass(context.device())),
      pipelines_(make_heatmap_pipelines(context.device(), image_pass_.get(), cache)),
      image_pipeline_(make_image_pipeline(context.device(), render_pass, cache)),
      sampler_(vk::create_nearest_sampler(context.device())) {
  const VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, 4 * kMaxSets};
  pool_ = vk::create_descriptor_pool(device_, kMaxSets, {&size, 1});
  const VkDescriptorPoolSize image_size{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, kMaxImages};
  image_pool_ = vk::create_descriptor_pool(device_, kMaxImages, {&image_size, 1},
                                           VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT);

  const auto table = shader_table();
  const VkDeviceSize bytes = table.size_bytes();
  colormaps_ = vk::Buffer(context, bytes, VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT, vk::MemoryKind::HostUpload);
  colormaps_.write(0, table.data(), bytes);
  colormaps_view_ = vk::create_buffer_view(device_, colormaps_.handle(), VK_FORMAT_R32G32B32A32_SFLOAT);
  allocations_ += 2;
}

HeatmapRenderer::~HeatmapRenderer() { window::wait_idle_or_report(device_, "heatmap renderer"); }

VkDeviceSize HeatmapRenderer::image_bytes() const {
  VkDeviceSize bytes = 0;
  for (const auto& [id, cached] : images_) bytes += cached->image ? cached->image->bytes() : 0;
  return bytes;
}

void HeatmapRenderer::begin_frame(std::uint64_t generation, float ui_scale) {
  pending_.clear();
  ui_scale_ = ui_scale;
  ++frame_;
  release_old_images();
  if (generation != generation_) {
    generation_ = generation;
    release_unused();
  }
  // A recompute of the same shape rewrites the same buffers: the cached views and sets stay
  // valid, so an edit allocates nothing. Once any buffer is destroyed (results that grew, a
  // dropped upload), a cached handle may name a dead buffer or a new one that reuses the
  // handle: start afresh.
  const std::uint64_t destroyed = vk::destroyed_buffer_count();
  if (destroyed != destroyed_buffers_seen_ || sets_.size() > kTrimSetsAbove) {
    vk::check(vkQueueWaitIdle(context_->queue()), "vkQueueWaitIdle");
    reset_descriptors();
    destroyed_buffers_seen_ = destroyed;
  }
}

// Mask tables of older results and uploads nobody drew for a long time go, once frames in
// flight no longer read them.
void HeatmapRenderer::release_unused() {
  auto stale_mask = [&](const auto& m) { return m->generation_used + kKeepGenerations < generation_; };
  auto stale_upload = [&](const auto& u) { return u->frame_used + kDropUnusedUploadsAfter < frame_; };
  const bool masks = std::any_of(mask_tables_.begin(), mask_tables_.end(), stale_mask);
  const bool uploads = uploads_.size() > kKeepUploads && std::any_of(uploads_.begin(), uploads_.end(), stale_upload);
  if (!masks && !uploads) return;
  vk::check(vkQueueWaitIdle(context_->queue()), "vkQueueWaitIdle");
  reset_descriptors();  // sets may point at the views about to go
  std::erase_if(mask_tables_, stale_mask);
  if (uploads) std::erase_if(uploads_, stale_upload);
}

void HeatmapRenderer::reset_descriptors() {
  vk::check(vkResetDescriptorPool(device_, pool_.get(), 0), "vkResetDescriptorPool");
  sets_.clear();
  value_views_.clear();
  device_tables_.clear();
}

// Images no frame drew for a while are retired; retired ones go once no frame in flight
// samples them.
void HeatmapRenderer::release_old_images() {
  std::erase_if(retired_, [&](const auto& entry) { return entry.first + kFramesUntilFree <= frame_; });
  for (auto it = images_.begin(); it != images_.end();) {
    if (it->second->frame_used + kDropUnusedImagesAfter < frame_) {
      if (it->second->image) retired_.emplace_back(frame_, std::move(it->second->image));
      it = images_.erase(it);
    } else {
      ++it;
    }
  }
}

// The image of heatmap `id`, made anew (and to be drawn) when it has none of this size.
HeatmapRenderer::Cached& HeatmapRenderer::cached_image(std::uint64_t id, int width, int height) {
  std::unique_ptr<Cached>& slot = images_[id];
  if (!slot) slot = std::make_unique<Cached>();
  Cached& cached = *slot;
  if (!cached.image || cached.image->width() != width || cached.image->height() != height) {
    // A frame in flight may still sample the old one.
    if (cached.image) retired_.emplace_back(frame_, std::move(cached.image));
    cached.image = std::make_unique<HeatmapImage>(*context_, image_pass_.get(), image_pool_.get(),
                                                  image_pipeline_.set_layout(), sampler_.get(), width, height);
    cached.content.reset();
    allocations_ += 4;  // image, memory, view, framebuffer (and its set)
  }
  return cached;
}

void HeatmapRenderer::release_host_imports() {
  if (imports_.empty()) return;
  vk::check(vkQueueWaitIdle(context_->queue()), "vkQueueWaitIdle");
  imports_.clear();
}

// The matrix's pages as a buffer, when it is host storage that stays put, large enough to be
// worth it (a copy of a small one costs nothing), and the device imports host memory.
std::optional<DeviceMatrix> HeatmapRenderer::import(const Matrix& matrix) {
  constexpr std::size_t kImportFrom = std::size_t{1} << 20;
  const VkDeviceSize alignment = context_->host_import_alignment();
  const std::size_t bytes = matrix.size() * sizeof(float);
  if (alignment == 0 || bytes < kImportFrom ||
      std::find(host_storage_.begin(), host_storage_.end(), &matrix) == host_storage_.end()) {
    return std::nullopt;
  }
  const auto* data = reinterpret_cast<const std::byte*>(matrix.data.data());
  const auto address = reinterpret_cast<std::uintptr_t>(data);
  const std::uintptr_t first = address / alignment * alignment;
  const std::uintptr_t end = (address + bytes + alignment - 1) / alignment * alignment;
  const auto* base = reinterpret_cast<const std::byte*>(first);
  auto same = [&](const std::unique_ptr<Import>& i) { return i->base == base && i->bytes == end - first; };
  auto found = std::find_if(imports_.begin(), imports_.end(), same);
  if (found == imports_.end()) {
    auto fresh = std::make_unique<Import>();
    try {
      // The device only reads it (uniform texel buffer); the pages all hold the live matrix.
      fresh->buffer = vk::Buffer::import_host(*context_, const_cast<std::byte*>(base), end - first,
                                              VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT);
    } catch (const vk::VulkanError&) {
      return std::nullopt;  // this memory cannot be imported: copy it as any other matrix
    }
    fresh->base = base;
    fresh->bytes = end - first;
    allocations_ += 2;
    found = imports_.insert(imports_.end(), std::move(fresh));
  }
  DeviceMatrix out;
  out.buffer = (*found)->buffer.handle();
  out.offset = static_cast<VkDeviceSize>(address - first);
  out.range = bytes;
  out.rows = matrix.rows;
  out.cols = matrix.cols;
  out.row_pitch = matrix.cols;
  return out;
}

DeviceMatrix HeatmapRenderer::upload(const Matrix& matrix, std::uint64_t version) {
  DeviceMatrix out;
  if (matrix.empty()) return out;
  if (const std::optional<DeviceMatrix> imported = import(matrix)) return *imported;
  const auto bytes = static_cast<VkDeviceSize>(matrix.size() * sizeof(float));
  auto same = [&](const Upload& u) {
    return u.data == matrix.data.data() && u.rows == matrix.rows && u.cols == matrix.cols && u.version == version;
  };
  Upload* slot = nullptr;
  for (auto& u : uploads_) {
    if (same(*u)) slot = u.get();
  }
  if (slot == nullptr) {
    // A buffer no frame in flight reads can be rewritten.
    for (auto& u : uploads_) {
      if (u->frame_used + kFramesUntilFree <= frame_ && u->buffer.size() >= bytes) {
        slot = u.get();
        break;
      }
    }
    if (slot == nullptr) {
      auto fresh = std::make_unique<Upload>();
      fresh->buffer =
          vk::Buffer(*context_, bytes, VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT, vk::MemoryKind::HostUpload);
      ++allocations_;
      slot = uploads_.emplace_back(std::move(fresh)).get();
    }
    slot->buffer.write(0, matrix.data.data(), bytes);
    slot->data = matrix.data.data();
    slot->rows = matrix.rows;
    slot->cols = matrix.cols;
    slot->version = version;
  }
  slot->frame_used = frame_;
  out.buffer = slot->buffer.handle();
  out.offset = 0;
  out.range = bytes;
  out.rows = matrix.rows;
  out.cols = matrix.cols;
  out.row_pitch = matrix.cols;
  return out;
}

const HeatmapRenderer::MaskTable& HeatmapRenderer::mask_table(const MaskCache::Found& mask) {
  auto found = std::find_if(mask_tables_.begin(), mask_tables_.end(),
                            [&](const std::unique_ptr<MaskTable>& t) { return t->mask_id == mask.id; });
  if (found == mask_tables_.end()) {
    auto entry = std::make_unique<MaskTable>();
    entry->mask_id = mask.id;
    const std::vector<std::uint32_t> texels = mask.mask->table();
    const auto bytes = static_cast<VkDeviceSize>(texels.size() * sizeof(std::uint32_t));
    entry->buffer = vk::Buffer(*context_, bytes, VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT, vk::MemoryKind::HostUpload);
    entry->buffer.write(0, texels.data(), bytes);
    entry->view = vk::create_buffer_view(device_, entry->buffer.handle(), VK_FORMAT_R32G32B32A32_UINT);
    allocations_ += 2;
    found = mask_tables_.insert(mask_tables_.end(), std::move(entry));
  }
  (*found)->generation_used = generation_;
  return **found;
}

VkBufferView HeatmapRenderer::device_table_view(const DeviceMatrix& table) {
  const auto key = std::make_tuple(table.buffer, table.offset, table.range);
  auto found = device_tables_.find(key);
  if (found == device_tables_.end()) {
    found = device_tables_
                .emplace(key, vk::create_buffer_view(device_, table.buffer, VK_FORMAT_R32G32B32A32_UINT, table.offset,
                                                     table.range))
                .first;
    ++allocations_;
  }
  return found->second.get();
}

VkDescriptorSet HeatmapRenderer::descriptor_set(const SetKey& key) {
  if (auto found = sets_.find(key); found != sets_.end()) return found->second;
  const VkDescriptorSet set = vk::allocate_descriptor_set(device_, pool_.get(), pipelines_.set_layout());
  ++allocations_;

  const VkBufferView values = value_views_
                                  .emplace_back(vk::create_buffer_view(device_, std::get<0>(key), VK_FORMAT_R32_SFLOAT,
                                                                       std::get<1>(key), std::get<2>(key)))
                                  .get();
  const bool same = std::get<4>(key) == std::get<0>(key) && std::get<5>(key) == std::get<1>(key) &&
                    std::get<6>(key) == std::get<2>(key);
  const VkBufferView kept =
      same ? values
           : value_views_
                 .emplace_back(vk::create_buffer_view(device_, std::get<4>(key), VK_FORMAT_R32_SFLOAT, std::get<5>(key),
                                                      std::get<6>(key)))
                 .get();
  const VkBufferView views[4] = {values, std::get<3>(key), colormaps_view_.get(), kept};
  allocations_ += same ? 1 : 2;
  const VkDescriptorType types[4] = {VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER,
                                     VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER};
  vk::write_texel_buffer_views(device_, set, types, views);
  sets_.emplace(key, set);
  return set;
}

bool HeatmapRenderer::add_draw(ImDrawList* list, const DrawRequest& request) {
  const DeviceMatrix& m = request.matrix;
  if (m.buffer == VK_NULL_HANDLE || m.rows <= 0 || m.cols <= 0) return false;
  if (!drawing_) return true;
  // View from an aligned offset; the shader starts `first` floats in.
  const vk::DeviceLimits& limits = context_->limits();
  const VkDeviceSize base = align_down(m.offset, std::max<VkDeviceSize>(limits.min_texel_buffer_offset_alignment, 4));
  const VkDeviceSize range = m.offset + m.range - base;
  if (range / 4 > limits.max_texel_buffer_elements) return false;

  // Cells are hatched by the mask a device result was computed under, with the table the
  // backend wrote for its shaders; for other matrices by a Mask of the request's setting.
  const MaskSetting no_mask;
  const MaskSetting& setting = request.mask != nullptr ? *request.mask : no_mask;
  const DeviceMask* computed_under = request.mask != nullptr ? m.mask : nullptr;
  if (computed_under != nullptr && (computed_under->mask.rows() != m.rows || computed_under->mask.cols() != m.cols)) {
    computed_under = nullptr;
  }
  const MaskCache::Found made =
      computed_under != nullptr ? MaskCache::Found{} : masks_.find(setting, m.rows, m.cols, request.mask_heads);
  const Mask& mask = computed_under != nullptr ? computed_under->mask : *made.mask;
  const VkBufferView table =
      computed_under != nullptr ? device_table_view(computed_under->table) : mask_table(made).view.get();
  // Dropout's kept set: hatched cells where it is 0, when it has the matrix's shape and pitch.
  const DeviceMatrix& k = request.kept;
  const bool with_kept =
      k.buffer != VK_NULL_HANDLE && k.rows == m.rows && k.cols == m.cols && k.row_pitch == m.row_pitch;
  const VkDeviceSize kept_base =
      with_kept ? align_down(k.offset, std::max<VkDeviceSize>(limits.min_texel_buffer_offset_alignment, 4)) : base;
  const VkDeviceSize kept_range = with_kept ? k.offset + k.range - kept_base : range;
  const SetKey key{m.buffer, base, range, table, with_kept ? k.buffer : m.buffer, kept_base, kept_range};
  const VkDescriptorSet set = descriptor_set(key);
  HeatmapPush push{};
  push.view[0] = request.window.first_row;
  push.view[1] = request.window.first_col;
  push.view[2] = request.window.rows;
  push.view[3] = request.window.cols;
  push.range_min = request.range_min;
  push.range_max = request.range_max;
  push.rows = m.rows;
  push.cols = m.cols;
  push.row_pitch = m.row_pitch;
  push.first = static_cast<std::int32_t>((m.offset - base) / 4);
  push.value_scale = request.value_scale;
  push.colormap = static_cast<std::int32_t>(request.colormap);
  push.flags = (is_diverging(request.colormap) ? kFlagDiverging : 0) | (request.log_scale ? kFlagLog : 0) |
               (request.nan_hidden ? kFlagNanHidden : 0);
  push.mask = mask.params(mask.depends_on_head() ? std::clamp(request.mask_head, 0, mask.heads() - 1) : 0);
  if (request.mask != nullptr) push.flags |= kFlagMaskCells;
  if (with_kept) push.flags |= kFlagDroppedCells;
  push.distance_bias = request.distance_bias;
  push.kept_first = with_kept ? static_cast<std::int32_t>((k.offset - kept_base) / 4) : 0;
  push.hatch = std::round(8.0f * ui_scale_);
  push.flags |= std::clamp(request.max_samples, 1, 3) << kSamplesShift;

  // The image covers the heatmap's visible part (its rectangle within the clip rectangle and
  // the framebuffer), in whole framebuffer pixels; the cells keep their exact place in it.
  const ImGuiIO& io = ImGui::GetIO();
  const ImVec2 origin = ImGui::GetMainViewport()->Pos;
  const ImVec2 scale = io.DisplayFramebufferScale;
  const ImVec2 clip_min = list->GetClipRectMin();
  const ImVec2 clip_max = list->GetClipRectMax();
  const float fb_w = std::floor(io.DisplaySize.x * scale.x);
  const float fb_h = std::floor(io.DisplaySize.y * scale.y);
  const float rect[4] = {(request.x0 - origin.x) * scale.x, (request.y0 - origin.y) * scale.y,
                         (request.x1 - origin.x) * scale.x, (request.y1 - origin.y) * scale.y};
  const int x0 =
      static_cast<int>(std::clamp(std::floor(std::max(rect[0], (clip_min.x - origin.x) * scale.x)), 0.0f, fb_w));
  const int y0 =
      static_cast<int>(std::clamp(std::floor(std::max(rect[1], (clip_min.y - origin.y) * scale.y)), 0.0f, fb_h));
  const int x1 =
      static_cast<int>(std::clamp(std::ceil(std::min(rect[2], (clip_max.x - origin.x) * scale.x)), 0.0f, fb_w));
  const int y1 =
      static_cast<int>(std::clamp(std::ceil(std::min(rect[3], (clip_max.y - origin.y) * scale.y)), 0.0f, fb_h));
  if (x1 - x0 < 1 || y1 - y0 < 1) return true;  // scrolled out of sight: nothing to draw
  push.rect[0] = rect[0] - static_cast<float>(x0);
  push.rect[1] = rect[1] - static_cast<float>(y0);
  push.rect[2] = rect[2] - static_cast<float>(x0);
  push.rect[3] = rect[3] - static_cast<float>(y0);
  push.framebuffer[0] = static_cast<float>(x1 - x0);
  push.framebuffer[1] = static_cast<float>(y1 - y0);

  Cached& cached = cached_image(request.image_id, x1 - x0, y1 - y0);
  ImageContent content{key, request.background, request.data_version, generation_, push};
  if (cached.content != content) {
    cached.content = content;
    cached.due = true;
  }
  cached.values_set = set;
  cached.frame_used = frame_;
  Pending& p = pending_.emplace_back();
  p.renderer = this;
  p.cached = &cached;
  p.x = x0;
  p.y = y0;
  list->AddCallback(&HeatmapRenderer::draw_callback, &p);
  list->AddCallback(ImDrawCallback_ResetRenderState, nullptr);
  return true;
}

void HeatmapRenderer::render_images(VkCommandBuffer cmd) {
  for (auto& [id, entry] : images_) {
    Cached& cached = *entry;
    if (!cached.due || cached.frame_used != frame_ || !cached.content) continue;
    const HeatmapImage& image = *cached.image;
    const VkExtent2D extent{static_cast<std::uint32_t>(image.width()), static_cast<std::uint32_t>(image.height())};
    // Where no cell is, the widget's background (ImU32: R in the low byte).
    VkClearValue clear{};
    for (int c = 0; c < 4; ++c) {
      clear.color.float32[c] = static_cast<float>((cached.content->background >> (8 * c)) & 0xFFu) / 255.0f;
    }
    VkRenderPassBeginInfo pass{};
    pass.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO;
    pass.renderPass = image_pass_.get();
    pass.framebuffer = image.framebuffer();
    pass.renderArea.extent = extent;
    pass.clearValueCount = 1;
    pass.pClearValues = &clear;
    vkCmdBeginRenderPass(cmd, &pass, VK_SUBPASS_CONTENTS_INLINE);
    const VkViewport viewport{0.0f, 0.0f, static_cast<float>(extent.width), static_cast<float>(extent.height),
                              0.0f, 1.0f};
    const VkRect2D scissor{{0, 0}, extent};
    const HeatmapVariant variant = only_general_ ? HeatmapVariant{} : variant_for(cached.content->push);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipelines_.pipeline(variant));
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipelines_.layout(), 0, 1, &cached.values_set, 0,
                            nullptr);
    vkCmdSetViewport(cmd, 0, 1, &viewport);
    vkCmdSetScissor(cmd, 0, 1, &scissor);
    vkCmdPushConstants(cmd, pipelines_.layout(), VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0,
                       sizeof(HeatmapPush), &cached.content->push);
    vkCmdDraw(cmd, 6, 1, 0, 0);
    vkCmdEndRenderPass(cmd);
    cached.due = false;
    ++redraws_;
  }
}

void HeatmapRenderer::set_target(VkCommandBuffer cmd, const ImDrawData* draw_data) {
  target_ = cmd;
  display_pos_[0] = draw_data->DisplayPos.x;
  display_pos_[1] = draw_data->DisplayPos.y;
  framebuffer_scale_[0] = draw_data->FramebufferScale.x;
  framebuffer_scale_[1] = draw_data->FramebufferScale.y;
  framebuffer_size_[0] = std::floor(draw_data->DisplaySize.x * framebuffer_scale_[0]);
  framebuffer_size_[1] = std::floor(draw_data->DisplaySize.y * framebuffer_scale_[1]);
}

void HeatmapRenderer::draw_callback(const ImDrawList* /*list*/, const ImDrawCmd* cmd) {
  const auto* pending = static_cast<const Pending*>(cmd->UserCallbackData);
  pending->renderer->record(*pending, *cmd);
}

void HeatmapRenderer::record(const Pending& pending, const ImDrawCmd& cmd) {
  if (target_ == VK_NULL_HANDLE || framebuffer_size_[0] <= 0 || framebuffer_size_[1] <= 0) return;
  const HeatmapImage* image = pending.cached->image.get();
  if (image == nullptr || !pending.cached->content) return;
  auto fb_x = [&](float x) { return (x - display_pos_[0]) * framebuffer_scale_[0]; };
  auto fb_y = [&](float y) { return (y - display_pos_[1]) * framebuffer_scale_[1]; };
  ImagePush push{};
  push.rect[0] = static_cast<float>(pending.x);
  push.rect[1] = static_cast<float>(pending.y);
  push.rect[2] = static_cast<float>(pending.x + image->width());
  push.rect[3] = static_cast<float>(pending.y + image->height());
  push.framebuffer[0] = framebuffer_size_[0];
  push.framebuffer[1] = framebuffer_size_[1];

  // Scissor: the clip rectangle ∩ the image, inside the framebuffer.
  const float x0 = std::clamp(std::max(std::floor(fb_x(cmd.ClipRect.x)), push.rect[0]), 0.0f, framebuffer_size_[0]);
  const float y0 = std::clamp(std::max(std::floor(fb_y(cmd.ClipRect.y)), push.rect[1]), 0.0f, framebuffer_size_[1]);
  const float x1 = std::clamp(std::min(std::ceil(fb_x(cmd.ClipRect.z)), push.rect[2]), 0.0f, framebuffer_size_[0]);
  const float y1 = std::clamp(std::min(std::ceil(fb_y(cmd.ClipRect.w)), push.rect[3]), 0.0f, framebuffer_size_[1]);
  if (x1 - x0 < 1.0f || y1 - y0 < 1.0f) return;
  VkRect2D scissor{};
  scissor.offset = {static_cast<std::int32_t>(x0), static_cast<std::int32_t>(y0)};
  scissor.extent = {static_cast<std::uint32_t>(x1 - x0), static_cast<std::uint32_t>(y1 - y0)};
  const VkViewport viewport{0.0f, 0.0f, framebuffer_size_[0], framebuffer_size_[1], 0.0f, 1.0f};
  const VkDescriptorSet set = image->sample_set();
  vkCmdBindPipeline(target_, VK_PIPELINE_BIND_POINT_GRAPHICS, image_pipeline_.pipeline());
  vkCmdBindDescriptorSets(target_, VK_PIPELINE_BIND_POINT_GRAPHICS, image_pipeline_.layout(), 0, 1, &set, 0, nullptr);
  vkCmdSetViewport(target_, 0, 1, &viewport);
  vkCmdSetScissor(target_, 0, 1, &scissor);
  vkCmdPushConstants(target_, image_pipeline_.layout(), VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0,
                     sizeof(ImagePush), &push);
  vkCmdDraw(target_, 6, 1, 0, 0);
}

}  // namespace attnviz::heatmap
