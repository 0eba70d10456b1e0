#include "app/heatmap/heatmap_renderer.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "app/window/device_idle.h"
#include "core/vk/check.h"
#include "core/vk/context.h"
#include "core/vk/descriptors.h"

namespace attnviz::heatmap {
namespace {

constexpr std::uint32_t kMaxSets = 1024;
constexpr std::size_t kTrimSetsAbove = 768;  // never run out within one frame
constexpr std::uint64_t kKeepGenerations = 2;  // unused mask tables survive this many recomputes
// A frame's command buffer may still run while the next two frames are built (two frames in
// flight, and the UI is built before the oldest frame's fence is waited for).
constexpr std::uint64_t kFramesUntilFree = 3;
constexpr std::uint64_t kDropUnusedUploadsAfter = 240;  // frames
constexpr std::size_t kKeepUploads = 8;

VkDeviceSize align_down(VkDeviceSize value, VkDeviceSize alignment) { return value / alignment * alignment; }

}  // namespace

struct HeatmapRenderer::Pending {
  HeatmapRenderer* renderer = nullptr;
  DrawRequest request;
  VkDescriptorSet set = VK_NULL_HANDLE;
  HeatmapPush push{};
};

struct HeatmapRenderer::Upload {
  vk::Buffer buffer;
  const float* data = nullptr;
  int rows = 0;
  int cols = 0;
  std::uint64_t version = 0;
  std::uint64_t frame_used = 0;
};

struct HeatmapRenderer::MaskTable {
  vk::Buffer buffer;
  vk::BufferView view;
  std::uint64_t generation_used = 0;
};

HeatmapRenderer::HeatmapRenderer(const vk::Context& context, VkRenderPass render_pass)
    : context_(&context), device_(context.device()), pipeline_(context.device(), render_pass) {
  const VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, 4 * kMaxSets};
  pool_ = vk::create_descriptor_pool(device_, kMaxSets, {&size, 1});

  const auto table = shader_table();
  const VkDeviceSize bytes = table.size_bytes();
  colormaps_ = vk::Buffer(context, bytes, VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT, vk::MemoryKind::HostUpload);
  colormaps_.write(0, table.data(), bytes);
  colormaps_view_ = vk::create_buffer_view(device_, colormaps_.handle(), VK_FORMAT_R32G32B32A32_SFLOAT);
  allocations_ += 2;
}

HeatmapRenderer::~HeatmapRenderer() { window::wait_idle_or_report(device_, "heatmap renderer"); }

void HeatmapRenderer::begin_frame(std::uint64_t generation, float ui_scale) {
  pending_.clear();
  ui_scale_ = ui_scale;
  ++frame_;
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
  auto stale_mask = [&](const auto& m) { return m.second->generation_used + kKeepGenerations < generation_; };
  auto stale_upload = [&](const auto& u) { return u->frame_used + kDropUnusedUploadsAfter < frame_; };
  const bool masks = std::any_of(masks_.begin(), masks_.end(), stale_mask);
  const bool uploads = uploads_.size() > kKeepUploads && std::any_of(uploads_.begin(), uploads_.end(), stale_upload);
  if (!masks && !uploads) return;
  vk::check(vkQueueWaitIdle(context_->queue()), "vkQueueWaitIdle");
  reset_descriptors();  // sets may point at the views about to go
  std::erase_if(masks_, stale_mask);
  if (uploads) std::erase_if(uploads_, stale_upload);
}

void HeatmapRenderer::reset_descriptors() {
  vk::check(vkResetDescriptorPool(device_, pool_.get(), 0), "vkResetDescriptorPool");
  sets_.clear();
  value_views_.clear();
  device_tables_.clear();
}

DeviceMatrix HeatmapRenderer::upload(const Matrix& matrix, std::uint64_t version) {
  DeviceMatrix out;
  if (matrix.empty()) return out;
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
      fresh->buffer = vk::Buffer(*context_, bytes, VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT, vk::MemoryKind::HostUpload);
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

const HeatmapRenderer::MaskTable& HeatmapRenderer::mask_table(const MaskSetting& setting, const Mask& mask) {
  // Without global tokens the shader never reads the table: one shared (empty) table serves.
  const bool globals = mask.has_globals();
  MaskKey key = globals ? MaskKey{mask.rows(), mask.cols(), setting.global} : MaskKey{};
  auto found = masks_.find(key);
  if (found == masks_.end()) {
    const std::vector<std::uint32_t> texels = globals ? mask.globals_table() : Mask().globals_table();
    auto entry = std::make_unique<MaskTable>();
    const auto bytes = static_cast<VkDeviceSize>(texels.size() * sizeof(std::uint32_t));
    entry->buffer = vk::Buffer(*context_, bytes, VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT, vk::MemoryKind::HostUpload);
    entry->buffer.write(0, texels.data(), bytes);
    entry->view = vk::create_buffer_view(device_, entry->buffer.handle(), VK_FORMAT_R32G32B32A32_UINT);
    allocations_ += 2;
    found = masks_.emplace(std::move(key), std::move(entry)).first;
  }
  found->second->generation_used = generation_;
  return *found->second;
}

VkBufferView HeatmapRenderer::device_table_view(const DeviceMatrix& table) {
  const auto key = std::make_tuple(table.buffer, table.offset, table.range);
  auto found = device_tables_.find(key);
  if (found == device_tables_.end()) {
    found = device_tables_
                .emplace(key, vk::create_buffer_view(device_, table.buffer, VK_FORMAT_R32G32B32A32_UINT, table.offset, table.range))
                .first;
    ++allocations_;
  }
  return found->second.get();
}

VkDescriptorSet HeatmapRenderer::descriptor_set(const SetKey& key) {
  if (auto found = sets_.find(key); found != sets_.end()) return found->second;
  const VkDescriptorSet set = vk::allocate_descriptor_set(device_, pool_.get(), pipeline_.set_layout());
  ++allocations_;

  const VkBufferView values =
      value_views_
          .emplace_back(vk::create_buffer_view(device_, std::get<0>(key), VK_FORMAT_R32_SFLOAT, std::get<1>(key), std::get<2>(key)))
          .get();
  const bool same = std::get<4>(key) == std::get<0>(key) && std::get<5>(key) == std::get<1>(key) && std::get<6>(key) == std::get<2>(key);
  const VkBufferView kept =
      same ? values
           : value_views_
                 .emplace_back(vk::create_buffer_view(device_, std::get<4>(key), VK_FORMAT_R32_SFLOAT, std::get<5>(key), std::get<6>(key)))
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
  const Mask built = computed_under != nullptr ? Mask() : Mask(setting, m.rows, m.cols);
  const Mask& mask = computed_under != nullptr ? computed_under->mask : built;
  const VkBufferView table =
      computed_under != nullptr ? device_table_view(computed_under->table) : mask_table(setting, mask).view.get();
  // Dropout's kept set: hatched cells where it is 0, when it has the matrix's shape and pitch.
  const DeviceMatrix& k = request.kept;
  const bool with_kept = k.buffer != VK_NULL_HANDLE && k.rows == m.rows && k.cols == m.cols && k.row_pitch == m.row_pitch;
  const VkDeviceSize kept_base =
      with_kept ? align_down(k.offset, std::max<VkDeviceSize>(limits.min_texel_buffer_offset_alignment, 4)) : base;
  const VkDeviceSize kept_range = with_kept ? k.offset + k.range - kept_base : range;
  Pending& p = pending_.emplace_back();
  p.renderer = this;
  p.request = request;
  p.set = descriptor_set(SetKey{m.buffer, base, range, table, with_kept ? k.buffer : m.buffer, kept_base, kept_range});
  HeatmapPush& push = p.push;
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
  push.flags = (is_diverging(request.colormap) ? kFlagDiverging : 0) | (request.log_scale ? kFlagLog : 0);
  push.mask = mask.params();
  if (request.mask != nullptr) push.flags |= kFlagMaskCells;
  if (with_kept) push.flags |= kFlagDroppedCells;
  push.distance_bias = request.distance_bias;
  push.kept_first = with_kept ? static_cast<std::int32_t>((k.offset - kept_base) / 4) : 0;
  push.hatch = std::round(8.0f * ui_scale_);
  push.max_samples = std::clamp(request.max_samples, 1, 3);
  list->AddCallback(&HeatmapRenderer::draw_callback, &p);
  list->AddCallback(ImDrawCallback_ResetRenderState, nullptr);
  return true;
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
  auto fb_x = [&](float x) { return (x - display_pos_[0]) * framebuffer_scale_[0]; };
  auto fb_y = [&](float y) { return (y - display_pos_[1]) * framebuffer_scale_[1]; };
  const DrawRequest& r = pending.request;
  HeatmapPush push = pending.push;
  push.rect[0] = fb_x(r.x0);
  push.rect[1] = fb_y(r.y0);
  push.rect[2] = fb_x(r.x1);
  push.rect[3] = fb_y(r.y1);
  push.framebuffer[0] = framebuffer_size_[0];
  push.framebuffer[1] = framebuffer_size_[1];

  // Scissor: the clip rectangle ∩ the heatmap, inside the framebuffer.
  const float x0 = std::clamp(std::max(fb_x(cmd.ClipRect.x), push.rect[0]), 0.0f, framebuffer_size_[0]);
  const float y0 = std::clamp(std::max(fb_y(cmd.ClipRect.y), push.rect[1]), 0.0f, framebuffer_size_[1]);
  const float x1 = std::clamp(std::min(fb_x(cmd.ClipRect.z), push.rect[2]), 0.0f, framebuffer_size_[0]);
  const float y1 = std::clamp(std::min(fb_y(cmd.ClipRect.w), push.rect[3]), 0.0f, framebuffer_size_[1]);
  if (x1 - x0 < 1.0f || y1 - y0 < 1.0f) return;
  VkRect2D scissor{};
  scissor.offset = {static_cast<std::int32_t>(x0), static_cast<std::int32_t>(y0)};
  scissor.extent = {static_cast<std::uint32_t>(x1 - std::floor(x0)), static_cast<std::uint32_t>(y1 - std::floor(y0))};
  const VkViewport viewport{0.0f, 0.0f, framebuffer_size_[0], framebuffer_size_[1], 0.0f, 1.0f};

  vkCmdBindPipeline(target_, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline_.pipeline());
  vkCmdBindDescriptorSets(target_, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline_.layout(), 0, 1, &pending.set, 0, nullptr);
  vkCmdSetViewport(target_, 0, 1, &viewport);
  vkCmdSetScissor(target_, 0, 1, &scissor);
  vkCmdPushConstants(target_, pipeline_.layout(), VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0,
                     sizeof(HeatmapPush), &push);
  vkCmdDraw(target_, 6, 1, 0, 0);
}

}  // namespace attnviz::heatmap
