// The Vulkan overview runner. Per run: the inputs uploaded once (X, Xs, W_Q, W_K, the mask's
// global-token table, RoPE's angles), buffers for one head's Q and K (the window's rows and the
// keys a pass needs), the rows' state and the partial values; per head: the projections (turned
// by RoPE), pass 1 (weights only, unless known statistics cover the rows) and pass 2, each split
// into dispatches (vulkan_plan.h) submitted one at a time; the partials folded into the image on
// the host.

#include "core/overview/overview_vulkan.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <map>
#include <stdexcept>
#include <string>

#include "attnviz_compute_shaders.h"
#include "core/overview/pooling.h"
#include "core/overview/vulkan_plan.h"
#include "core/scenario/positions.h"
#include "core/vk/barriers.h"
#include "core/vk/buffer.h"
#include "core/vk/commands.h"
#include "core/vk/descriptors.h"
#include "core/vk/pipeline.h"
#include "core/vk/transfer.h"

namespace attnviz::overview {
namespace {

constexpr std::uint32_t kWorkgroup = 64;  // query rows per workgroup (shaders/common/overview.glsl)
constexpr VkDescriptorType kRead = VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER;
constexpr VkDescriptorType kWrite = VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER;
constexpr std::array<VkDescriptorType, 3> kProjectBindings = {kRead, kRead, kWrite};
constexpr std::array<VkDescriptorType, 2> kRopeBindings = {kRead, kWrite};
constexpr std::array<VkDescriptorType, 4> kStatsBindings = {kRead, kRead, kRead, kWrite};
constexpr std::array<VkDescriptorType, 5> kPoolBindings = {kRead, kRead, kRead, kWrite, kWrite};
constexpr VkFormat kFloat = VK_FORMAT_R32_SFLOAT;
constexpr VkFormat kTexel = VK_FORMAT_R32G32B32A32_SFLOAT;

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

std::uint32_t groups(std::int64_t items, std::uint32_t size) {
  return static_cast<std::uint32_t>((items + size - 1) / size);
}

// The score passes' pipelines for one d_k (its texel count is a specialization constant: the
// row of Q lives in registers).
struct ScorePipelines {
  vk::ComputePipeline stats;
  vk::ComputePipeline pool;
  int tile_keys = 64;
};

// A device-local buffer the shaders read, filled from the host (core/vk/transfer.h).
vk::Buffer upload(const vk::Context& context, const void* data, std::size_t bytes, VkBufferUsageFlags usage) {
  vk::CommandStream stream(context);
  return vk::upload_buffer(context, data, bytes, usage, stream);
}

struct Bound {
  vk::DescriptorPool pool;
  VkDescriptorSet set = VK_NULL_HANDLE;
  std::vector<vk::BufferView> views;
};

// A descriptor set of texel-buffer views over whole buffers.
Bound bind(VkDevice device, const vk::ComputePipeline& pipeline, std::span<const VkDescriptorType> types,
           std::initializer_list<std::pair<const vk::Buffer*, VkFormat>> buffers) {
  Bound bound;
  std::uint32_t reads = 0;
  for (const VkDescriptorType type : types) reads += type == kRead ? 1 : 0;
  std::vector<VkDescriptorPoolSize> sizes;
  if (reads > 0) sizes.push_back({kRead, reads});
  if (reads < types.size()) sizes.push_back({kWrite, static_cast<std::uint32_t>(types.size()) - reads});
  bound.pool = vk::create_descriptor_pool(device, 1, sizes);
  bound.set = vk::allocate_descriptor_set(device, bound.pool.get(), pipeline.set_layout());
  std::vector<VkBufferView> raw;
  for (const auto& [buffer, format] : buffers) {
    bound.views.push_back(vk::create_buffer_view(device, buffer->handle(), format));
    raw.push_back(bound.views.back().get());
  }
  vk::write_texel_buffer_views(device, bound.set, types, raw);
  return bound;
}

class VulkanOverview final : public OverviewRunner {
 public:
  VulkanOverview(std::shared_ptr<vk::Context> context, const VulkanOverviewOptions& options)
      : context_(std::move(context)),
        stream_(*context_),
        stage_(options.stage_in_shared.value_or(context_->device_type() != VK_PHYSICAL_DEVICE_TYPE_CPU)),
        keys_per_dispatch_(options.keys_per_dispatch) {
    project_ = vk::ComputePipeline(context_->device(), shaders::overview_project_comp(), kProjectBindings,
                                   sizeof(ProjectPush), vk::SpecializationConstants{}, context_->pipeline_cache());
    rope_ = vk::ComputePipeline(context_->device(), shaders::overview_rope_comp(), kRopeBindings,
                                sizeof(OverviewRopePush), vk::SpecializationConstants{}, context_->pipeline_cache());
  }

  [[nodiscard]] std::string name() const override { return "vulkan"; }

  Overview run(const Problem& p, const OverviewRequest& request, Progress* progress) override;

 private:
  const ScorePipelines& score_pipelines(int dk4);
  int keys_per_dispatch(int dk4, int tile, const PixelGrid& grid) const;
  void check_fits(const Problem& p, const PixelGrid& grid) const;
  // RoPE in place on `rows` projected rows whose row 0 is the table's row `first`.
  void turn(VkDescriptorSet set, int rows, int first, int dk4, int d_k);
  // Records one dispatch of `pipeline` (groups_x × groups_y workgroups), submits it and waits.
  void dispatch(const vk::ComputePipeline& pipeline, VkDescriptorSet set, const void* push, std::uint32_t push_bytes,
                std::uint32_t groups_x, std::uint32_t groups_y = 1);
  // One invocation per item in workgroups of 64, on as many rows of workgroups as the device's
  // count per axis needs (65,536 rows × d_k 256 are 65,536 workgroups of projection, one past
  // the least a device offers); the shaders number the items row by row.
  void dispatch_items(const vk::ComputePipeline& pipeline, VkDescriptorSet set, const void* push,
                      std::uint32_t push_bytes, std::int64_t items);

  std::shared_ptr<vk::Context> context_;
  vk::CommandStream stream_;
  bool stage_;
  std::optional<int> keys_per_dispatch_;
  vk::ComputePipeline project_;
  vk::ComputePipeline rope_;
  std::map<int, ScorePipelines> score_pipelines_;
};

const ScorePipelines& VulkanOverview::score_pipelines(int dk4) {
  const auto found = score_pipelines_.find(dk4);
  if (found != score_pipelines_.end()) return found->second;
  ScorePipelines pipes;
  // As many keys as half the shared memory holds, a power of two up to 64.
  const std::uint32_t shared_texels = context_->limits().max_shared_memory / 16 / 2;
  pipes.tile_keys = 64;
  while (pipes.tile_keys > 1 && static_cast<std::uint32_t>(pipes.tile_keys * dk4) > shared_texels) pipes.tile_keys /= 2;
  vk::SpecializationConstants constants;
  constants.set(0, kWorkgroup)
      .set(1, static_cast<std::uint32_t>(dk4))
      .set(2, static_cast<std::uint32_t>(pipes.tile_keys));
  constants.set(3, stage_ ? 1 : 0);
  pipes.stats = vk::ComputePipeline(context_->device(), shaders::overview_stats_comp(), kStatsBindings,
                                    sizeof(OverviewPush), constants, context_->pipeline_cache());
  pipes.pool = vk::ComputePipeline(context_->device(), shaders::overview_pool_comp(), kPoolBindings,
                                   sizeof(OverviewPush), constants, context_->pipeline_cache());
  return score_pipelines_.emplace(dk4, std::move(pipes)).first->second;
}

int VulkanOverview::keys_per_dispatch(int dk4, int tile, const PixelGrid& grid) const {
  if (keys_per_dispatch_) return std::max(1, *keys_per_dispatch_);
  if (context_->device_type() != VK_PHYSICAL_DEVICE_TYPE_CPU) return kMaxOverviewTokens;
  return vulkan::cpu_device_keys(dk4, tile, grid.block_rows, grid.block_cols, static_cast<int>(kWorkgroup));
}

void VulkanOverview::check_fits(const Problem& p, const PixelGrid& grid) const {
  const std::size_t most = context_->limits().max_texel_buffer_elements;
  const std::size_t partials = static_cast<std::size_t>(vulkan::partial_slots(grid, static_cast<int>(kWorkgroup))) *
                               static_cast<std::size_t>(grid.cols);
  // RoPE reads Q and K as floats (4 a texel) and its angles for every position.
  const std::size_t turned =
      static_cast<std::size_t>(std::max(p.n(), p.m())) * static_cast<std::size_t>((p.d_k + 3) / 4) * 4;
  if (std::max({p.x.size(), p.xs.size(), p.wq.size(), p.wk.size(), partials, turned}) > most) {
    throw std::invalid_argument("the problem is too large for the overview's buffers on this device (at most " +
                                std::to_string(most) + " values each)");
  }
}

void VulkanOverview::dispatch_items(const vk::ComputePipeline& pipeline, VkDescriptorSet set, const void* push,
                                    std::uint32_t push_bytes, std::int64_t items) {
  const std::uint32_t total = groups(items, 64);
  const std::uint32_t across = std::min(total, context_->limits().max_workgroup_count[0]);
  const std::uint32_t down = (total + across - 1) / across;
  if (down > context_->limits().max_workgroup_count[1]) {
    throw std::invalid_argument("the overview's projection needs " + std::to_string(total) +
                                " workgroups, more than this device dispatches at once");
  }
  dispatch(pipeline, set, push, push_bytes, across, down);
}

void VulkanOverview::dispatch(const vk::ComputePipeline& pipeline, VkDescriptorSet set, const void* push,
                              std::uint32_t push_bytes, std::uint32_t groups_x, std::uint32_t groups_y) {
  const VkCommandBuffer cmd = stream_.begin();
  vk::barriers::compute_to_compute(cmd);  // what earlier submissions wrote
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.pipeline());
  vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.layout(), 0, 1, &set, 0, nullptr);
  vkCmdPushConstants(cmd, pipeline.layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0, push_bytes, push);
  vkCmdDispatch(cmd, groups_x, groups_y, 1);
  vk::barriers::device_to_host(cmd);
  stream_.submit_and_wait();
}

void VulkanOverview::turn(VkDescriptorSet set, int rows, int first, int dk4, int d_k) {
  const OverviewRopePush push{rows, first, 4 * dk4, d_k / 2};
  dispatch_items(rope_, set, &push, sizeof push, static_cast<std::int64_t>(rows) * (d_k / 2));
}

Overview VulkanOverview::run(const Problem& p, const OverviewRequest& request, Progress* progress) {
  const CheckedRequest checked = check_request(p, request);
  const PixelGrid& grid = checked.grid;
  const CellWindow& w = grid.window;
  check_fits(p, grid);
  const auto start = Clock::now();
  const Mask mask(p.mask, p.n(), p.m(), p.num_heads);
  const bool weights = request.quantity == Quantity::Weights;
  const int dk4 = (p.d_k + 3) / 4;
  const ScorePipelines& pipes = score_pipelines(dk4);
  const int rows = w.rows();
  const std::uint32_t workgroups = groups(rows, kWorkgroup);
  auto known = [&](int h) { return request.known_stats && request.known_stats->covers(h, w.row_begin, w.row_end); };
  bool any_stats = false;
  for (const int h : checked.heads) any_stats = any_stats || (weights && !known(h));
  const int k_first = any_stats ? 0 : w.col_begin;
  const int keys = (any_stats ? p.m() : w.col_end) - k_first;

  if (progress != nullptr) {
    std::int64_t total = 0;
    for (const int h : checked.heads)
      total += w.cells() + (weights && !known(h) ? static_cast<std::int64_t>(rows) * p.m() : 0);
    progress->start(total);
  }
  const vk::Context& c = *context_;
  const VkDevice device = c.device();
  const VkBufferUsageFlags read = VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT;
  const VkBufferUsageFlags read_write = read | VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT;
  const vk::Buffer x = upload(c, p.x.data.data(), p.x.size() * 4, read);
  const vk::Buffer xs = p.cross_attention ? upload(c, p.xs.data.data(), p.xs.size() * 4, read) : vk::Buffer();
  const vk::Buffer wq = upload(c, p.wq.data.data(), p.wq.size() * 4, read);
  const vk::Buffer wk = upload(c, p.wk.data.data(), p.wk.size() * 4, read);
  const std::vector<std::uint32_t> table = mask.globals_table();
  const vk::Buffer globals = upload(c, table.data(), table.size() * 4, read);
  const bool rope = p.positional == PositionalKind::Rope;
  const Matrix rope_table = problem_rope_table(p);  // max(N, M) × d_k, float64 angles rounded once
  const float zero = 0.0f;  // a buffer cannot be empty: without RoPE the table is one unread float
  const vk::Buffer angles =
      rope ? upload(c, rope_table.data.data(), rope_table.size() * 4, read) : upload(c, &zero, 4, read);
  const std::vector<float> slopes = head_slopes(p);
  const vk::Buffer q(c, static_cast<VkDeviceSize>(rows) * static_cast<VkDeviceSize>(dk4) * 16, read_write,
                     vk::MemoryKind::DeviceLocal);
  const vk::Buffer k(c, static_cast<VkDeviceSize>(keys) * static_cast<VkDeviceSize>(dk4) * 16, read_write,
                     vk::MemoryKind::DeviceLocal);
  const vk::Buffer state(c, static_cast<VkDeviceSize>(rows) * 3 * 4, read_write, vk::MemoryKind::HostReadback);
  const std::size_t partial_count =
      static_cast<std::size_t>(vulkan::partial_slots(grid, static_cast<int>(kWorkgroup))) *
      static_cast<std::size_t>(grid.cols);
  const vk::Buffer partials(c, partial_count * 4, read_write, vk::MemoryKind::HostReadback);

  const vk::Buffer& key_source = p.cross_attention ? xs : x;
  const Bound project_q = bind(device, project_, kProjectBindings, {{&x, kFloat}, {&wq, kFloat}, {&q, kTexel}});
  const Bound project_k =
      bind(device, project_, kProjectBindings, {{&key_source, kFloat}, {&wk, kFloat}, {&k, kTexel}});
  const Bound rope_q = bind(device, rope_, kRopeBindings, {{&angles, kFloat}, {&q, kFloat}});
  const Bound rope_k = bind(device, rope_, kRopeBindings, {{&angles, kFloat}, {&k, kFloat}});
  const Bound stats_set = bind(device, pipes.stats, kStatsBindings,
                               {{&q, kTexel}, {&k, kTexel}, {&globals, VK_FORMAT_R32G32B32A32_UINT}, {&state, kFloat}});
  const Bound pool_set = bind(
      device, pipes.pool, kPoolBindings,
      {{&q, kTexel}, {&k, kTexel}, {&globals, VK_FORMAT_R32G32B32A32_UINT}, {&state, kFloat}, {&partials, kFloat}});

  Overview out;
  out.backend = "vulkan";
  out.device = c.device_name();
  out.grid = grid;
  out.quantity = request.quantity;
  out.pooling = request.pooling;
  auto stats = std::make_shared<RowStats>();
  stats->row_begin = w.row_begin;
  stats->row_end = w.row_end;
  stats->m.resize(static_cast<std::size_t>(p.num_heads));
  stats->l.resize(static_cast<std::size_t>(p.num_heads));
  double projections_ms = 0.0;
  double stats_ms = 0.0;
  double pooling_ms = 0.0;
  const int per_dispatch = keys_per_dispatch(dk4, pipes.tile_keys, grid);
  auto stop = [&] { return progress != nullptr && progress->stop_requested(); };

  OverviewPush push{};
  push.rows = rows;
  push.row_begin = w.row_begin;
  push.k_first = k_first;
  push.block_rows = grid.block_rows;
  push.block_cols = grid.block_cols;
  push.col_begin = w.col_begin;
  push.col_end = w.col_end;
  push.pixel_cols = grid.cols;
  // Tiles hidden from a whole workgroup are skipped: the same for every head unless the mask's
  // expression reads h.
  const auto tile_macs = [&](int h, int key_begin, int key_end) {
    return visible_tile_macs(mask, h, w.row_begin, w.row_end, key_begin, key_end, static_cast<int>(kWorkgroup),
                             pipes.tile_keys, p.d_k);
  };
  const bool macs_per_head = mask.depends_on_head();
  const std::int64_t stats_macs = any_stats && !macs_per_head ? tile_macs(0, 0, p.m()) : 0;
  const std::int64_t pool_macs = macs_per_head ? 0 : tile_macs(0, w.col_begin, w.col_end);
  ImageFinisher finisher(grid, mask, request.quantity, request.pooling);
  int projected_kv = -1;
  std::vector<float> partial_values(partial_count);
  std::vector<double> reduced;
  for (const int h : checked.heads) {
    push.mask = mask.params(h);
    auto t = Clock::now();
    const ProjectPush pq{rows, w.row_begin, p.d_model(), p.wq.cols, h * p.d_k, p.d_k, dk4};
    dispatch_items(project_, project_q.set, &pq, sizeof pq, static_cast<std::int64_t>(rows) * dk4);
    if (rope) turn(rope_q.set, rows, w.row_begin, dk4, p.d_k);
    const int g = p.kv_head_of(h);
    if (g != projected_kv) {
      const ProjectPush pk{keys, k_first, p.d_model(), p.wk.cols, g * p.d_k, p.d_k, dk4};
      dispatch_items(project_, project_k.set, &pk, sizeof pk, static_cast<std::int64_t>(keys) * dk4);
      if (rope) turn(rope_k.set, keys, k_first, dk4, p.d_k);
      projected_kv = g;
    }
    projections_ms += ms_since(t);

    t = Clock::now();
    std::vector<float>& m = stats->m[static_cast<std::size_t>(h)];
    std::vector<float>& l = stats->l[static_cast<std::size_t>(h)];
    if (weights && known(h)) {
      const RowStats& given = *request.known_stats;
      const auto first = static_cast<std::size_t>(w.row_begin - given.row_begin);
      state.write(0, given.m[static_cast<std::size_t>(h)].data() + first, static_cast<VkDeviceSize>(rows) * 4);
      state.write(static_cast<VkDeviceSize>(rows) * 4, given.l[static_cast<std::size_t>(h)].data() + first,
                  static_cast<VkDeviceSize>(rows) * 4);
      state.flush();
      m.assign(given.m[static_cast<std::size_t>(h)].begin() + static_cast<std::ptrdiff_t>(first),
               given.m[static_cast<std::size_t>(h)].begin() + static_cast<std::ptrdiff_t>(first) + rows);
      l.assign(given.l[static_cast<std::size_t>(h)].begin() + static_cast<std::ptrdiff_t>(first),
               given.l[static_cast<std::size_t>(h)].begin() + static_cast<std::ptrdiff_t>(first) + rows);
    } else if (weights) {
      push.scale = p.scale;
      push.slope = slopes[static_cast<std::size_t>(h)];
      for (const vulkan::KeyRange range : vulkan::key_ranges(0, p.m(), per_dispatch, pipes.tile_keys, 1)) {
        if (stop()) throw Cancelled();
        push.key_begin = range.begin;
        push.key_end = range.end;
        dispatch(pipes.stats, stats_set.set, &push, sizeof push, workgroups);
        if (progress != nullptr) progress->add(static_cast<std::int64_t>(rows) * (range.end - range.begin));
      }
      m.resize(static_cast<std::size_t>(rows));
      l.resize(static_cast<std::size_t>(rows));
      state.invalidate();
      state.read(0, m.data(), static_cast<VkDeviceSize>(rows) * 4);
      state.read(static_cast<VkDeviceSize>(rows) * 4, l.data(), static_cast<VkDeviceSize>(rows) * 4);
      out.stats_macs += macs_per_head ? tile_macs(h, 0, p.m()) : stats_macs;
    }
    stats_ms += ms_since(t);

    t = Clock::now();
    push.scale = request.quantity == Quantity::RawScores ? 1.0f : p.scale;
    push.slope = request.quantity == Quantity::RawScores ? 0.0f : slopes[static_cast<std::size_t>(h)];
    push.weights = weights ? 1 : 0;
    push.reduce_max = reduces_max(request.pooling) ? 1 : 0;
    for (const vulkan::KeyRange range :
         vulkan::key_ranges(w.col_begin, w.col_end, per_dispatch, pipes.tile_keys, grid.block_cols)) {
      if (stop()) throw Cancelled();
      push.key_begin = range.begin;
      push.key_end = range.end;
      dispatch(pipes.pool, pool_set.set, &push, sizeof push, workgroups);
      if (progress != nullptr) progress->add(static_cast<std::int64_t>(rows) * (range.end - range.begin));
    }
    out.pooling_macs += macs_per_head ? tile_macs(h, w.col_begin, w.col_end) : pool_macs;
    partials.invalidate();
    partials.read(0, partial_values.data(), partial_count * 4);
    vulkan::fold_partials(grid, static_cast<int>(kWorkgroup), reduces_max(request.pooling), partial_values, reduced);
    out.heads.push_back(finisher.finish(h, reduced));
    pooling_ms += ms_since(t);
  }
  if (weights) out.stats = std::move(stats);
  out.timing.total_ms = ms_since(start);
  out.timing.stages_ms = {{"projections", projections_ms}, {"row stats", stats_ms}, {"pooling", pooling_ms}};
  return out;
}

}  // namespace

std::unique_ptr<OverviewRunner> make_vulkan_overview(std::shared_ptr<vk::Context> context,
                                                     const VulkanOverviewOptions& options) {
  return std::make_unique<VulkanOverview>(std::move(context), options);
}

std::unique_ptr<OverviewRunner> make_vulkan_overview(const vk::ContextOptions& options) {
  return make_vulkan_overview(vk::Context::create(options));
}

}  // namespace attnviz::overview
