// The host side of shaders/tiled_attention.comp: uploads Q, K, V (RoPE'd, with RoPE), the
// mask's global-token table and ALiBi's slopes into device-local texel buffers (core/vk/
// transfer.h), dispatches one workgroup per (query block, head), and reads the contexts, m and
// l back.

#include "core/gpu/tiled_kernel.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <map>
#include <span>
#include <stdexcept>
#include <string>

#include "attnviz_compute_shaders.h"
#include "core/common/error.h"
#include "core/gpu/tiled_fp16.h"
#include "core/scenario/dropout.h"
#include "core/scenario/positions.h"
#include "core/tiled/tile_grid.h"
#include "core/vk/barriers.h"
#include "core/vk/buffer.h"
#include "core/vk/commands.h"
#include "core/vk/descriptors.h"
#include "core/vk/pipeline.h"
#include "core/vk/transfer.h"

namespace attnviz::gpu {

std::int64_t tiled_shared_floats(int block_q, int block_k, int d_k, int d_v, bool staged) {
  const auto br = static_cast<std::int64_t>(block_q);
  const auto bc = static_cast<std::int64_t>(block_k);
  const std::int64_t queries = staged ? br * d_k : 0;
  return bc * (d_k + 1 + d_v) + br * (bc + d_v + 2) + queries;  // K rows padded by one float (the shader's k_stride)
}

int key_blocks_per_dispatch(int block_q, int block_k, int d_k, int d_v, int subgroups, int subgroup_size) {
  const auto up = [](int a, int b) { return (a + b - 1) / b; };
  // Per key block, each lane: its keys' dot products, then its columns of O over the keys.
  const std::int64_t per_block =
      static_cast<std::int64_t>(up(block_q, subgroups)) * (static_cast<std::int64_t>(up(block_k, subgroup_size)) * d_k +
                                                           static_cast<std::int64_t>(up(d_v, subgroup_size)) * block_k);
  return static_cast<int>(std::clamp<std::int64_t>(16384 / std::max<std::int64_t>(per_block, 1), 1, 1 << 20));
}

namespace {

constexpr VkDescriptorType kRead = VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER;
constexpr VkDescriptorType kWrite = VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER;
constexpr std::array<VkDescriptorType, 6> kBindings = {kRead, kRead, kRead, kRead, kWrite, kRead};

std::uint32_t shared_floats(const vk::Context& context) { return context.limits().max_shared_memory / 4; }

bool cpu_device(const vk::Context& context) { return context.device_type() == VK_PHYSICAL_DEVICE_TYPE_CPU; }

// On a CPU driver two subgroups' worth of invocations, at least 64; on a GPU eight subgroups (256
// invocations on NVIDIA), so that each multiprocessor has enough warps in flight to hide its
// memory latency; within the device's workgroup limits either way.
std::uint32_t workgroup_size(const vk::Context& context) {
  const vk::DeviceLimits& limits = context.limits();
  std::uint32_t size =
      cpu_device(context) ? std::max(64u, 2 * limits.subgroup_size) : std::min(256u, 8 * limits.subgroup_size);
  while (size > limits.max_workgroup_invocations || size > limits.max_workgroup_size[0]) size /= 2;
  return std::max(size, 1u);
}

// The fp16 kernel needs cooperative matrices; its emulated twin (tests) only shaderFloat16.
void require_fp16_support(const vk::Context& context, bool emulated) {
  const vk::MatrixCoreSupport& support = context.matrix_cores();
  if (emulated ? support.fp16_arithmetic : support.usable) return;
  throw BackendUnavailable(std::string(emulated ? "the emulated fp16 tiled kernel needs shaderFloat16"
                                                : "the fp16 tiled kernel needs fp16 cooperative matrices") +
                           ", which " + context.device_name() + " does not offer here: " + support.reason);
}

class VulkanTiled final : public tiled::TiledRunner {
 public:
  VulkanTiled(std::shared_ptr<vk::Context> context, const tiled::VulkanTiledOptions& options)
      : context_(std::move(context)),
        stream_(*context_),
        invocations_(workgroup_size(*context_)),
        transfer_(options.staged_transfers ? vk::Transfer::Staged : vk::Transfer::Automatic),
        fp16_(options.precision == tiled::TiledPrecision::Float16),
        emulated_(options.emulate_matrix_cores),
        staged_(options.stage_in_shared.value_or(!cpu_device(*context_))) {
    if (fp16_) {
      require_fp16_support(*context_, emulated_);
      return;  // its pipelines are built per tile and head width (pipeline_for)
    }
    vk::SpecializationConstants constants;
    constants.set(0, invocations_).set(1, shared_floats(*context_)).set(2, staged_ ? 1 : 0);
    pipeline_ = vk::ComputePipeline(context_->device(), shaders::tiled_attention_comp(), kBindings, sizeof(TiledPush),
                                    constants, context_->pipeline_cache());
  }

  [[nodiscard]] std::string name() const override { return "vulkan"; }
  [[nodiscard]] int preferred_block(int d_k, int d_v) const override {
    if (fp16_) return std::max(kMatrixTile, default_tiled_fp16_block(*context_, d_k, d_v));
    return std::max(1, default_tiled_block(*context_, d_k, d_v, staged_));
  }

  tiled::TiledResult run(const Problem& p, const tiled::TiledOptions& options) override {
    tiled::check_options(p, options);
    check_fits(p, options);
    const auto start = std::chrono::steady_clock::now();
    const tiled::Projections projections = tiled::project(p);
    const Mask mask(p.mask, p.n(), p.m(), p.num_heads);
    const std::vector<std::uint32_t> globals = mask.table();
    const std::size_t out_floats =
        static_cast<std::size_t>(p.num_heads) * static_cast<std::size_t>(p.n()) * static_cast<std::size_t>(p.d_v + 2);
    check_texels(projections, out_floats);

    // In the device's own memory: the shaders read K and V once per query block, which across
    // the bus would cost far more than the copies.
    const vk::Buffer q = upload(projections.q.data.data(), projections.q.size() * 4);
    const vk::Buffer k = upload(projections.k.data.data(), projections.k.size() * 4);
    const vk::Buffer v = upload(projections.v.data.data(), projections.v.size() * 4);
    const vk::Buffer g = upload(globals.data(), globals.size() * 4);
    const std::vector<float> slopes = head_slopes(p);
    const vk::Buffer slope_buffer = upload(slopes.data(), slopes.size() * 4);
    const vk::Buffer out = vk::output_buffer(*context_, out_floats * 4, VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT);

    const VkDevice device = context_->device();
    const std::array<vk::BufferView, 6> views = {
        vk::create_buffer_view(device, q.handle(), VK_FORMAT_R32_SFLOAT),
        vk::create_buffer_view(device, k.handle(), VK_FORMAT_R32_SFLOAT),
        vk::create_buffer_view(device, v.handle(), VK_FORMAT_R32_SFLOAT),
        vk::create_buffer_view(device, g.handle(), VK_FORMAT_R32G32B32A32_UINT),
        vk::create_buffer_view(device, out.handle(), VK_FORMAT_R32_SFLOAT),
        vk::create_buffer_view(device, slope_buffer.handle(), VK_FORMAT_R32_SFLOAT)};
    const std::array<VkDescriptorPoolSize, 2> sizes = {VkDescriptorPoolSize{kRead, 5}, VkDescriptorPoolSize{kWrite, 1}};
    const vk::DescriptorPool pool = vk::create_descriptor_pool(device, 1, sizes);
    const vk::ComputePipeline& pipeline = pipeline_for(p, options);
    const VkDescriptorSet set = vk::allocate_descriptor_set(device, pool.get(), pipeline.set_layout());
    std::array<VkBufferView, 6> raw_views{};
    std::transform(views.begin(), views.end(), raw_views.begin(),
                   [](const vk::BufferView& view) { return view.get(); });
    vk::write_texel_buffer_views(device, set, kBindings, raw_views);

    const tiled::TileGrid grid(p.n(), p.m(), options.block_q, options.block_k);
    const DropoutRule dropout = dropout_rule(p.dropout);
    TiledPush push{options.block_q,
                   options.block_k,
                   p.d_k,
                   p.d_v,
                   p.wq.cols,
                   p.wk.cols,
                   p.wv.cols,
                   p.num_heads / p.num_kv_heads,
                   p.scale,
                   0,
                   0,
                   dropout.threshold,
                   dropout.seed_low(),
                   dropout.seed_high(),
                   dropout.keep_scale,
                   mask.params()};
    const int step = dispatch_step(p, options, grid);
    const VkCommandBuffer cmd = stream_.begin();
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.pipeline());
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.layout(), 0, 1, &set, 0, nullptr);
    for (int kb = 0; kb < grid.key_blocks(); kb += step) {
      if (kb > 0) vk::barriers::compute_to_compute(cmd);  // the previous dispatch's state
      push.kb_begin = kb;
      push.kb_end = std::min(grid.key_blocks(), kb + step);
      vkCmdPushConstants(cmd, pipeline.layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), &push);
      vkCmdDispatch(cmd, static_cast<std::uint32_t>(grid.query_blocks()), static_cast<std::uint32_t>(p.num_heads), 1);
    }
    vk::barriers::device_to_host(cmd);
    stream_.submit_and_wait();

    tiled::TiledResult result = read_back(p, out, out_floats);
    if (options.trace_head) {
      const tiled::TiledHead& head = result.heads[static_cast<std::size_t>(*options.trace_head)];
      result.trace = tiled::TiledTrace{*options.trace_head,
                                       p.kv_head_of(*options.trace_head),
                                       options.block_q,
                                       options.block_k,
                                       p.scale,
                                       {},
                                       head.context,
                                       head.m,
                                       head.l};
    }
    result.output = tiled::concatenate_heads(p, result.heads);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    result.timing.total_ms = ms;
    result.timing.stages_ms.emplace_back("tiled", ms);
    return result;
  }

 private:
  // Key blocks per dispatch. Only llvmpipe limits a shader's loops (key_blocks_per_dispatch), by
  // the loops the kernel built for these blocks runs: a GPU walks every key block in one dispatch.
  int dispatch_step(const Problem& p, const tiled::TiledOptions& options, const tiled::TileGrid& grid) const {
    if (!cpu_device(*context_)) return grid.key_blocks();
    const int subgroup_size = static_cast<int>(context_->limits().subgroup_size);
    if (!fp16_) {
      return key_blocks_per_dispatch(options.block_q, options.block_k, p.d_k, p.d_v,
                                     static_cast<int>(invocations_) / subgroup_size, subgroup_size);
    }
    const int invocations = static_cast<int>(tiled_fp16_invocations(*context_, options.block_q));
    return key_blocks_per_dispatch(options.block_q, options.block_k, padded_to_matrix_tile(p.d_k),
                                   padded_to_matrix_tile(p.d_v), invocations / subgroup_size, subgroup_size);
  }

  // The fp32 kernel's one pipeline, or the fp16 kernel's for these blocks and head widths
  // (specialisation constants size its shared arrays), built once and kept.
  const vk::ComputePipeline& pipeline_for(const Problem& p, const tiled::TiledOptions& options) {
    if (!fp16_) return pipeline_;
    const std::array<int, 4> key = {options.block_q, options.block_k, padded_to_matrix_tile(p.d_k),
                                    padded_to_matrix_tile(p.d_v)};
    auto found = fp16_pipelines_.find(key);
    if (found != fp16_pipelines_.end()) return found->second;
    vk::SpecializationConstants constants;
    constants.set(0, tiled_fp16_invocations(*context_, options.block_q));
    for (std::uint32_t id = 1; id <= 4; ++id) constants.set(id, static_cast<std::uint32_t>(key[id - 1]));
    const std::span<const std::uint32_t> shader =
        emulated_ ? shaders::tiled_attention_fp16_emulated_comp() : shaders::tiled_attention_fp16_comp();
    return fp16_pipelines_
        .emplace(key, vk::ComputePipeline(context_->device(), shader, kBindings, sizeof(TiledPush), constants,
                                          context_->pipeline_cache()))
        .first->second;
  }

  void check_fits(const Problem& p, const tiled::TiledOptions& options) const {
    if (fp16_) {
      check_fits_fp16(p, options);
      return;
    }
    const std::int64_t need = tiled_shared_floats(options.block_q, options.block_k, p.d_k, p.d_v, staged_);
    if (need > shared_floats(*context_)) {
      throw std::invalid_argument("a tile of " + std::to_string(options.block_q) + " x " +
                                  std::to_string(options.block_k) + " with d_k = " + std::to_string(p.d_k) +
                                  " and d_v = " + std::to_string(p.d_v) + " needs " + std::to_string(need * 4) +
                                  " bytes of shared memory; the device has " +
                                  std::to_string(context_->limits().max_shared_memory) + ": choose smaller blocks");
    }
  }

  void check_fits_fp16(const Problem& p, const tiled::TiledOptions& options) const {
    if (options.block_q % kMatrixTile != 0 || options.block_k % kMatrixTile != 0) {
      throw std::invalid_argument(
          "the fp16 tiled kernel takes blocks that are multiples of 16 (its cooperative matrices "
          "are 16 x 16); " +
          std::to_string(options.block_q) + " x " + std::to_string(options.block_k) + " is not");
    }
    const std::int64_t need = tiled_fp16_shared_bytes(options.block_q, options.block_k, p.d_k, p.d_v);
    if (need > context_->limits().max_shared_memory) {
      throw std::invalid_argument("an fp16 tile of " + std::to_string(options.block_q) + " x " +
                                  std::to_string(options.block_k) + " with d_k = " + std::to_string(p.d_k) +
                                  " and d_v = " + std::to_string(p.d_v) + " needs " + std::to_string(need) +
                                  " bytes of shared memory; the device has " +
                                  std::to_string(context_->limits().max_shared_memory) + ": choose smaller blocks");
    }
  }

  void check_texels(const tiled::Projections& projections, std::size_t out_floats) const {
    const std::size_t most = context_->limits().max_texel_buffer_elements;
    if (std::max({projections.q.size(), projections.k.size(), projections.v.size(), out_floats}) > most) {
      throw std::invalid_argument("the problem is too large for the tiled kernel's buffers on this device (at most " +
                                  std::to_string(most) + " floats each)");
    }
  }

  vk::Buffer upload(const void* data, std::size_t bytes) {
    return vk::upload_buffer(*context_, data, bytes, VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT, stream_, transfer_);
  }

  tiled::TiledResult read_back(const Problem& p, const vk::Buffer& out, std::size_t out_floats) {
    std::vector<float> values(out_floats);
    vk::read_back(*context_, out, values.data(), out_floats * 4, stream_, transfer_);
    tiled::TiledResult result;
    result.backend = "vulkan";
    result.device = context_->device_name() + (fp16_ ? " (fp16 cooperative matrices)" : "");
    const auto n = static_cast<std::size_t>(p.n());
    const auto heads = static_cast<std::size_t>(p.num_heads);
    const auto d_v = static_cast<std::size_t>(p.d_v);
    result.heads.resize(heads);
    for (std::size_t h = 0; h < heads; ++h) {
      tiled::TiledHead& head = result.heads[h];
      head.context = Matrix(p.n(), p.d_v);
      std::copy_n(values.begin() + static_cast<std::ptrdiff_t>(h * n * d_v), n * d_v, head.context.data.begin());
      const auto m_at = static_cast<std::ptrdiff_t>(heads * n * d_v + h * n);
      const auto l_at = static_cast<std::ptrdiff_t>(heads * n * (d_v + 1) + h * n);
      head.m.assign(values.begin() + m_at, values.begin() + m_at + static_cast<std::ptrdiff_t>(n));
      head.l.assign(values.begin() + l_at, values.begin() + l_at + static_cast<std::ptrdiff_t>(n));
    }
    return result;
  }

  std::shared_ptr<vk::Context> context_;
  vk::CommandStream stream_;
  std::uint32_t invocations_;
  vk::Transfer transfer_;
  bool fp16_;
  bool emulated_;                 // the fp16 kernel with scalar products (tests)
  bool staged_;                   // the fp32 kernel stages Q, K and V in shared memory (GPUs)
  vk::ComputePipeline pipeline_;  // the fp32 kernel's
  std::map<std::array<int, 4>, vk::ComputePipeline> fp16_pipelines_;  // by Br, Bc, padded d_k and d_v
};

}  // namespace

int default_tiled_block(const vk::Context& context, int d_k, int d_v, bool staged) {
  for (int block = 64; block >= 1; block /= 2) {
    if (tiled_shared_floats(block, block, d_k, d_v, staged) <= shared_floats(context)) return block;
  }
  return 0;
}

}  // namespace attnviz::gpu

namespace attnviz::tiled {

std::unique_ptr<TiledRunner> make_vulkan_tiled(std::shared_ptr<vk::Context> context,
                                               const VulkanTiledOptions& options) {
  return std::make_unique<gpu::VulkanTiled>(std::move(context), options);
}

std::unique_ptr<TiledRunner> make_vulkan_tiled(const vk::ContextOptions& options) {
  return make_vulkan_tiled(vk::Context::create(options));
}

}  // namespace attnviz::tiled
