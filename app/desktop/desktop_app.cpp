#include "app/desktop/desktop_app.h"

#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <csignal>
#include <filesystem>
#include <iostream>
#include <memory>
#include <ostream>
#include <utility>

#include "app/classroom/classroom.h"
#include "app/classroom/start_options.h"
#include "app/compute/compute_session.h"
#include "app/compute/model_session.h"
#include "app/desktop/frame_times.h"
#include "app/desktop/gui_options.h"
#include "app/desktop/panel_registry.h"
#include "app/desktop/shape_notice.h"
#include "app/desktop/window_memory.h"
#include "app/document/recent_files.h"
#include "app/document/autosave.h"
#include "app/document/document.h"
#include "app/document/document_names.h"
#include "app/export_ui/view_image.h"
#include "app/i18n/catalogue_characters.h"
#include "app/i18n/language.h"
#include "app/i18n/translate.h"
#include "app/edits/model_edits.h"
#include "app/heatmap/heatmap_renderer.h"
#include "app/heatmap/heatmap_widget.h"
#include "app/ui/classroom_state.h"
#include "app/ui/layout.h"
#include "app/ui/model_layer.h"
#include "app/ui/undo_timeline.h"
#include "app/ui/notices.h"
#include "app/ui/scenario_files.h"
#include "app/ui/theme.h"
#include "app/ui/view_state.h"
#include "app/window/device_idle.h"
#include "app/window/fonts.h"
#include "app/window/frame_capture.h"
#include "app/window/frame_renderer.h"
#include "app/window/glfw_window.h"
#include "app/window/imgui_layer.h"
#include "app/window/widget_log.h"
#include "core/common/error.h"
#include "core/overview/long_text.h"
#include "core/scenario/scenario_tokens.h"
#include "core/text/text_file.h"
#include "core/scenario/problem.h"
#include "core/scenario/scenario_json.h"
#include "core/vk/context.h"

namespace attnviz::desktop {
namespace {

using Clock = std::chrono::steady_clock;

constexpr const char* kFirstStartPreset = "preset:life-is-short";
constexpr const char* kDefaultModelText = "The cat sat on the mat because it was tired";
constexpr int kSettleFrames = 4;           // frames drawn after the last event before idling
constexpr double kIdleWakeSeconds = 0.25;  // an idle window still wakes for autosave and notices

// Ctrl+C in the terminal (or a polite kill) closes the window as its close button would, so
// the work is autosaved on the way out.
volatile std::sig_atomic_t g_close_requested = 0;
void request_close(int /*signal*/) { g_close_requested = 1; }

double ms_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

// A broken autosave is moved aside under a name of its own (never overwritten by the next
// autosave, nor by the next broken one) and reported.
void keep_broken_autosave(document::Autosave& autosave, ui::Notices& notices) {
  const std::optional<std::filesystem::path> kept = autosave.keep_broken();
  notices.post(ui::NoticeLevel::Warning,
               autosave.last_error() + "\n" +
                   (kept ? i18n::format(i18n::tr("The file was kept as %s."), kept->c_str())
                         : i18n::format(i18n::tr("The file could not be moved aside: %s."), autosave.file().c_str())));
}

// The user's window claims an autosave file of its own (a second window beside it another
// one), and takes over what windows that ran beside an earlier one left; screenshot and
// measuring runs only read the usual file (they are not the user's session).
document::Autosave autosave_for(const GuiOptions& options) {
  if (options.automated()) return document::Autosave(document::Autosave::default_file());
  return document::Autosave::claim(document::Autosave::default_folder());
}

void offer_other_windows_work(document::Autosave& autosave, ui::Notices& notices) {
  if (autosave.slot() > 1) {
    notices.post(ui::NoticeLevel::Info,
                 i18n::format(i18n::tr("Another attnviz window is open: this one keeps its work in %s, so neither "
                                       "overwrites the other."),
                              autosave.file().filename().c_str()));
  }
  for (const std::filesystem::path& file : autosave.adopt_other_windows_work()) {
    notices.post(ui::NoticeLevel::Warning,
                 i18n::format(i18n::tr("Work of an attnviz window that was open beside another one was kept as %s. "
                                       "Open it with File > Open to go on with it."),
                              file.c_str()));
  }
}

// The scenario of --scenario, checked before any window opens (a bad one is an InputError:
// exit 2 with the loader's message), with the classroom options that depend on it (a --step
// past the Tiled view's last tile). With --text-file its text is the sentence; the window takes
// texts up to the overview's limit.
std::optional<LoadedScenario> scenario_from_command_line(const GuiOptions& options) {
  if (!options.scenario && !options.text_file) return std::nullopt;
  LoadedScenario loaded = options.scenario ? load_scenario(*options.scenario) : LoadedScenario{};
  if (options.text_file) {
    loaded.scenario = with_sentence(std::move(loaded.scenario), read_text_file(*options.text_file));
    overview::require_overview_length(loaded.scenario, *options.text_file);
    loaded.scenario.title = std::filesystem::path(*options.text_file).filename().string();  // as File ▸ Open text… does
  }
  const Problem problem =
      overview::build_overview_problem(loaded.scenario, options.text_file.value_or(options.scenario.value_or("")));
  classroom::check_start_options(options.classroom, problem);
  return loaded;
}

// What the model reads: --text, else the --text-file's text (who gives a file beside --model
// means the model to read it), else a short sentence.
std::string model_text(const GuiOptions& options, const Scenario& opened) {
  if (options.model_text) return *options.model_text;
  if (options.text_file) return opened.sentence;
  return kDefaultModelText;
}

// --scenario, else the last session's work, else a preset.
document::Document initial_document(const GuiOptions& options, std::optional<LoadedScenario> given,
                                    document::Autosave& autosave, ui::Notices& notices) {
  if (!options.automated()) offer_other_windows_work(autosave, notices);
  if (given) {
    for (const std::string& warning : given->warnings) notices.post(ui::NoticeLevel::Warning, warning);
    std::optional<std::filesystem::path> path;
    if (options.scenario && !options.text_file && options.scenario->rfind("preset:", 0) != 0) path = *options.scenario;
    return document::Document(std::move(given->scenario), std::move(path));
  }
  if (std::optional<LoadedScenario> restored = autosave.restore())
    return document::Document(std::move(restored->scenario));
  if (!autosave.last_error().empty()) keep_broken_autosave(autosave, notices);
  document::Document document;
  ui::open_scenario(document, notices, kFirstStartPreset);
  return document;
}

// The core says what it tried; its advice ends with "`--backend cpu` computes with Eigen
// instead", true of attnviz compute but not of the window, which draws with Vulkan whatever
// computes. That sentence gives way to the window's own advice.
std::string for_the_window(std::string message) {
  const std::size_t eigen_hint = message.find("`--backend cpu`");
  if (eigen_hint != std::string::npos) message.erase(eigen_hint);
  while (!message.empty() && message.back() == ' ') message.pop_back();
  return "the window cannot draw: " + message + " " + window::window_driver_advice();
}

std::shared_ptr<vk::Context> create_context(const GuiOptions& options, const window::GlfwWindow& window) {
  vk::ContextOptions context_options;
  context_options.instance_extensions = window::GlfwWindow::required_instance_extensions();
  context_options.device_extensions = {VK_KHR_SWAPCHAIN_EXTENSION_NAME};
  context_options.validation = options.validation;
  context_options.device_index = options.device;
  context_options.create_surface = [&window](VkInstance instance) { return window.create_surface(instance); };
  // Pipelines built in earlier runs are kept in $XDG_CACHE_HOME/attnviz (core/vk/pipeline_cache.h).
  context_options.pipeline_cache_folder = vk::default_pipeline_cache_folder();
  // The heatmaps of an Eigen result read its matrices in place, without a copy (lavapipe).
  context_options.import_host_memory = true;
  try {
    return vk::Context::create(context_options);
  } catch (const BackendUnavailable& error) {
    throw BackendUnavailable(for_the_window(error.what()));
  }
}

class DesktopApp {
 public:
  DesktopApp(const GuiOptions& options, std::optional<LoadedScenario> scenario, window::GlfwWindow& window,
             std::shared_ptr<vk::Context> context, std::ostream& out);
  ~DesktopApp();
  DesktopApp(const DesktopApp&) = delete;
  DesktopApp& operator=(const DesktopApp&) = delete;

  void run();
  // A file given as `attnviz FILE` that could not be opened: said in the window.
  void report_open_failure(const std::string& file, const std::string& message) {
    ui::report_open_failure(notices_, file, message);
  }
  // The text size the user chose (View ▸ larger / smaller text), remembered between starts.
  [[nodiscard]] float text_scale() const { return view_.text_scale; }
  void set_text_scale(float scale) { view_.text_scale = scale; }
  // The theme and layout chosen in the View menu, remembered between starts.
  [[nodiscard]] ui::Theme theme() const { return view_.theme; }
  void set_theme(ui::Theme theme) { view_.theme = theme; }
  [[nodiscard]] ui::RememberedLayout layout() const {
    return layout_->remembered(classroom_.presenting ? classroom_.layout_before : view_.layout, view_);
  }
  void restore_layout(const ui::RememberedLayout& layout);
  [[nodiscard]] ui::RememberedLayout default_layout() const { return layout_->default_layout(); }

 private:
  float wanted_ui_scale() const;
  void sync_ui_scale();
  void prepare_frame();
  void build_ui();
  bool render(bool capture);
  void bench_edit();
  void bench_shape();
  void draw_shape_notice() const;
  void apply_fullscreen_request();
  void update_model();
  void update_title();
  void save_view_image();
  // Keeps the pipelines built so far for the next start; a failure is said once on stderr.
  void save_pipeline_cache();
  void read_recent_files();
  void keep_recent_files();
  [[nodiscard]] std::uint64_t allocations() const {
    return heatmap_renderer_.allocation_count() + session_->device_allocations();
  }

  const GuiOptions& options_;
  window::GlfwWindow& window_;
  std::shared_ptr<vk::Context> context_;
  std::ostream& out_;
  float ui_scale_ = 1.0f;
  ui::Theme applied_theme_ = ui::Theme::Light;  // what apply_theme was last given
  window::FrameRenderer frames_;
  window::ImGuiLayer imgui_;
  heatmap::HeatmapRenderer heatmap_renderer_;
  heatmap::HeatmapWidget heatmaps_{heatmap_renderer_};
  window::FrameCapture capture_;
  ui::Notices notices_;
  document::Autosave autosave_;
  document::RecentFiles recent_files_;
  std::uint64_t recent_files_kept_ = 0;  // the list's revision written to recent.json
  ui::UndoTimeline undo_timeline_;
  document::Document document_;
  std::unique_ptr<compute::ComputeSession> session_;
  compute::ModelSession model_;  // a pretrained model, opened and run off this thread
  ui::ViewState view_;
  ui::ClassroomState classroom_;
  classroom::ViewStates classroom_views_;  // what each classroom view shows (before the layout: its views keep it)
  ui::FrameStats stats_;
  std::unique_ptr<ui::Layout> layout_ = make_default_layout(classroom_views_);
  FrameTimes times_;
  Clock::time_point last_frame_start_{};
  std::uint64_t frames_drawn_ = 0;
  std::uint64_t events_seen_ = 0;
  int quiet_frames_ = 0;  // frames since the last input event or recompute
  bool slept_ = false;    // this frame began by waiting for events (its time is not a frame time)
  std::uint64_t allocations_after_warm_up_ = 0;
  ShapeNotice shape_notice_;
  std::uint64_t document_seen_ = 0;  // the document revision the last recompute (or attempt) saw
  vk::PipelineCacheSaver pipeline_cache_saver_{"window's"};
  bool last_frame_recomputed_ = false;         // the frame that just ended computed a result
  std::uint64_t host_storage_generation_ = 0;  // the session's generation the heatmaps know the storage of
  std::optional<Scenario> bench_base_;         // --bench-shapes: the scenario the shapes vary
  std::size_t bench_shapes_done_ = 0;
};

DesktopApp::DesktopApp(const GuiOptions& options, std::optional<LoadedScenario> scenario, window::GlfwWindow& window,
                       std::shared_ptr<vk::Context> context, std::ostream& out)
    : options_(options),
      window_(window),
      context_(std::move(context)),
      out_(out),
      ui_scale_(options.ui_scale.value_or(window.ui_scale())),
      frames_(*context_, window.framebuffer_size(),
              options.screenshot || options.stats ? window::PresentPacing::Unlimited : window::PresentPacing::VSync),
      imgui_(window, *context_, frames_.swapchain(), ui_scale_),
      heatmap_renderer_(*context_, frames_.swapchain().render_pass(), context_->pipeline_cache()),
      capture_(*context_),
      autosave_(autosave_for(options)),
      document_(initial_document(options, std::move(scenario), autosave_, notices_)),
      model_(compute::vulkan_backend_factory(options.device, options.validation)) {
  ui::apply_theme(ui_scale_, view_.theme);
  read_recent_files();
  heatmap_renderer_.set_drawing(!options.without_heatmaps);
  frames_.on_swapchain_rebuilt([this](const window::Swapchain& swapchain) { imgui_.on_swapchain_rebuilt(swapchain); });
  view_.backend = options.backend.value_or(compute::BackendMode::Automatic);
  view_.layout = options.layout.value_or(ui::LayoutMode::Full);
  view_.selected_head = options.head.value_or(0);
  if (options.pin_query) view_.pinned_query = *options.pin_query;
  view_.block_size = options.blocks.value_or(0);
  classroom::apply_start_options(options.classroom, classroom_, classroom_views_);
  classroom_.hints = !options.automated();  // pictures show the steady state
  view_.wait_for_work = options.automated();
  try {
    session_ = std::make_unique<compute::ComputeSession>(context_, view_.backend, compute::VulkanStart::InBackground);
  } catch (const std::exception& error) {  // the device draws but cannot compute: Eigen stands in
    notices_.post(ui::NoticeLevel::Warning,
                  i18n::format(i18n::tr("Vulkan compute is unavailable, using Eigen: %s"), error.what()));
    session_ = std::make_unique<compute::ComputeSession>(nullptr, compute::BackendMode::Cpu);
  }
  if (options.model) {  // opened on the backend the scenario's session chose
    model_.set_backend(view_.backend, session_->automatic_choice());
    model_.open(*options.model, model_text(options, document_.scenario()));
    view_.model_layer = options.model_layer.value_or(0);
    view_.model_head = options.head.value_or(0);
    if (options.model_view) view_.select_main_tab = ui::kModelViewTitle;
  }
  // The heatmaps read the Eigen result's storage in place: they let go before it may move.
  session_->on_host_results_moving([this] { heatmap_renderer_.release_host_imports(); });
  // Start-up (Eigen's threads; Vulkan's kernels where Vulkan computes and they are built) before
  // the first frame rather than inside the first recompute, so the Backend panel's times compare.
  // The Vulkan kernels are built on a thread of their own meanwhile: the first frame waits for
  // none of it (on a CPU driver Eigen computes anyway).
  session_->warm_up();
  if (const vk::PipelineCache* cache = context_->pipeline_cache_store();
      cache != nullptr && !cache->message().empty()) {
    std::cerr << "attnviz: " << cache->message() << "\n";
  }
  save_pipeline_cache();
  if (imgui_.fonts().hangul_file.empty()) {
    // Not translated: without a Hangul font, Korean would show as '?' too.
    notices_.post(ui::NoticeLevel::Warning,
                  "No font with Korean (Hangul) letters was found, so Korean text shows as '?'. "
                  "Install one, e.g. sudo apt-get install fonts-nanum, or set ATTNVIZ_HANGUL_FONT.",
                  "no-hangul-font");
  }
  // --step past the Tiled or Decode view's end of the restored work (no --scenario, so not
  // checked before the window opened): said in the window; the view shows its last step.
  if (!options.scenario && !options.text_file) {
    try {
      classroom::check_start_options(options.classroom, build_problem(document_.scenario(), "<restored work>"));
    } catch (const InputError& error) {
      notices_.post(ui::NoticeLevel::Warning, i18n::format(i18n::tr("%s; the view shows its last one."), error.what()));
    } catch (const std::exception&) {
      // a scenario that cannot be computed says so in the window by itself
    }
  }
  if (!options.automated() && !options.model && options.head && *options.head >= document_.scenario().num_heads) {
    const int heads = document_.scenario().num_heads;
    notices_.post(ui::NoticeLevel::Warning, i18n::format(i18n::trn("--head %d: the scenario has only %d head",
                                                                   "--head %d: the scenario has only %d heads",
                                                                   static_cast<unsigned long>(heads)),
                                                         *options.head, heads));
  }
}

// File > Open Recent's list, as the last start left it; what could not be read is said, and the
// file is written again (whole) at the list's next change.
void DesktopApp::read_recent_files() {
  const std::filesystem::path file = document::recent_files_file();
  document::RecentFiles::Parsed parsed = document::read_recent_files(file);
  recent_files_ = std::move(parsed.files);
  recent_files_kept_ = recent_files_.revision();
  if (!parsed.problem.empty()) {
    notices_.post(ui::NoticeLevel::Warning,
                  i18n::format(i18n::tr("The list of recent files (%s) could not be read whole: %s. File > Open Recent "
                                        "shows what could be read."),
                               file.c_str(), parsed.problem.c_str()),
                  "recent-files");
  }
}

// Written when it changed, at once: a later crash does not lose it. Not by screenshots and
// measuring runs, which are not the user's session.
void DesktopApp::keep_recent_files() {
  if (options_.automated() || recent_files_.revision() == recent_files_kept_) return;
  recent_files_kept_ = recent_files_.revision();
  const std::string problem = document::write_recent_files(document::recent_files_file(), recent_files_);
  if (!problem.empty()) {
    notices_.post(ui::NoticeLevel::Warning,
                  i18n::format(i18n::tr("The list of recent files could not be saved: %s"), problem.c_str()),
                  "recent-files");
  }
}

// A layout from an earlier start; the command line's --layout and --view say otherwise.
void DesktopApp::restore_layout(const ui::RememberedLayout& layout) {
  const ui::LayoutMode asked = view_.layout;
  const bool view_given = options_.classroom.view.has_value() || options_.model_view;
  layout_->restore(layout, view_, view_given || !view_.select_main_tab.empty());
  if (options_.layout || classroom_.presenting) view_.layout = asked;
}

DesktopApp::~DesktopApp() {
  // The last frames may still read the result buffers the session is about to free.
  window::wait_idle_or_report(context_->device(), "window");
  save_pipeline_cache();
  try {
    heatmap_renderer_.release_host_imports();  // before the session frees the storage they read
  } catch (const std::exception& error) {
    std::cerr << "attnviz: closing the window: " << error.what() << "\n";
  }
  // Whatever happened, the work is kept (not in screenshot or measuring runs: they are not the
  // user's session).
  if (!options_.automated()) autosave_.flush(document_);
}

float DesktopApp::wanted_ui_scale() const { return options_.ui_scale.value_or(window_.ui_scale()) * view_.text_scale; }

void DesktopApp::sync_ui_scale() {
  const float wanted = wanted_ui_scale();
  if (wanted == ui_scale_ && view_.theme == applied_theme_) return;
  if (wanted != ui_scale_) imgui_.set_ui_scale(wanted);
  ui_scale_ = wanted;
  applied_theme_ = view_.theme;
  ui::apply_theme(ui_scale_, view_.theme);
}

// Recompute (when anything changed) before the frame's UI is built, so it shows the edit.
void DesktopApp::prepare_frame() {
  const Clock::time_point start = Clock::now();
  if (frames_drawn_ > 0 && !slept_) {
    const double frame_ms = ms_between(last_frame_start_, start);
    times_.add_frame(frame_ms);
    if (last_frame_recomputed_) times_.add_recompute_frame(frame_ms);
    stats_.frame_ms = times_.recent_median();
  }
  last_frame_recomputed_ = false;
  last_frame_start_ = start;
  sync_ui_scale();
  session_->set_mode(view_.backend);
  if (session_->take_prepared_backend(view_.wait_for_work)) {
    quiet_frames_ = 0;
    if (!session_->vulkan_failure().empty()) {
      notices_.post(ui::NoticeLevel::Warning, i18n::format(i18n::tr("Vulkan compute is unavailable, using Eigen: %s"),
                                                           session_->vulkan_failure().c_str()));
    }
  }
  // With Vulkan computing on a CPU driver, a shape not computed before may keep the recompute
  // busy for a while (lavapipe compiles shader variants for it): this frame says so
  // ("Preparing shaders…") and the next one recomputes, rather than a frozen frame. Eigen, and
  // GPU drivers (their pipelines are built at the start, or come from the pipeline cache),
  // compute a new shape like any edit.
  const bool changed = document_.revision() != document_seen_;
  const bool may_compile =
      session_->effective_mode() != compute::BackendMode::Cpu && context_->device_type() == VK_PHYSICAL_DEVICE_TYPE_CPU;
  const std::optional<ModelShape> changed_to =
      changed ? std::optional<ModelShape>(shape_of(document_.scenario())) : std::nullopt;
  if (may_compile &&
      shape_notice_.defer(changed_to, session_->vulkan_first_run_due(document_), session_->has_result())) {
    quiet_frames_ = 0;  // the next frame comes at once
  } else {
    const Clock::time_point compute_start = Clock::now();
    if (session_->update(document_)) {
      quiet_frames_ = 0;
      last_frame_recomputed_ = true;
      stats_.recompute_ms = ms_between(compute_start, Clock::now());
      times_.add_recompute(stats_.recompute_ms);
      shape_notice_.computed(shape_of(document_.scenario()));
    }
    document_seen_ = document_.revision();
  }
  if (!options_.automated()) autosave_.tick(document_, Clock::now());
  keep_recent_files();
  update_model();
  update_title();
  if (session_->generation() != host_storage_generation_) {
    heatmap_renderer_.set_host_storage(session_->host_result_matrices());
    host_storage_generation_ = session_->generation();
  }
  heatmap_renderer_.begin_frame(session_->generation(), ui_scale_);
}

void DesktopApp::build_ui() {
  const Clock::time_point start = Clock::now();
  // The frame that goes into a view's image shows no pointer hover, tooltips or notices.
  view_.capturing_view = view_.view_image_request.has_value();
  imgui_.new_frame(options_.automated() || view_.capturing_view);
  ui::begin_frame(view_);
  if (options_.hover_token) view_.hovered_token = *options_.hover_token;
  heatmaps_.set_block_size(view_.block_size);  // the block-sparsity tiles on every masked heatmap
  if (view_.capturing_view) view_.hovered_token = view_.hovered_model_token = -1;
  ui::UiContext ui{document_, view_,     classroom_,    *session_,      model_, heatmaps_,
                   notices_,  autosave_, recent_files_, undo_timeline_, stats_, ui_scale_};
  classroom_.wants_frames = false;
  layout_->draw(ui);
  if (classroom_.wants_frames) quiet_frames_ = 0;  // a view playing its steps keeps drawing
  if (shape_notice_.showing()) draw_shape_notice();
  const double ui_ms = ms_between(start, Clock::now());
  times_.add_ui(ui_ms);
  stats_.ui_ms = stats_.ui_ms == 0.0 ? ui_ms : 0.9 * stats_.ui_ms + 0.1 * ui_ms;
}

bool DesktopApp::render(bool capture) {
  const Clock::time_point start = Clock::now();
  ImDrawData* draw_data = imgui_.end_frame();
  const VkCommandBuffer cmd =
      frames_.begin_frame(window_.framebuffer_size(), ui::clear_colour(view_.theme),
                          [this](VkCommandBuffer before) { heatmap_renderer_.render_images(before); });
  if (cmd == VK_NULL_HANDLE) return false;  // the swapchain was rebuilt: draw the next one
  heatmap_renderer_.set_target(cmd, draw_data);
  imgui_.record(draw_data, cmd);
  frames_.end_frame(capture ? &capture_ : nullptr);
  ++frames_drawn_;
  if (frames_drawn_ == 1) times_.set_first_frame(ms_since_process_start());
  if (frames_drawn_ == FrameTimes::kWarmUpFrames) allocations_after_warm_up_ = allocations();
  times_.add_render(ms_between(start, Clock::now()));
  return true;
}

// The model's finished work, once per frame; its progress bar keeps frames coming. A picture
// (--screenshot) waits for the model, so that it shows it rather than its progress.
void DesktopApp::update_model() {
  model_.set_backend(view_.backend, session_->automatic_choice());
  if (options_.automated() && model_.busy()) model_.wait();
  if (model_.poll()) quiet_frames_ = 0;
  if (model_.busy()) quiet_frames_ = 0;
  if (model_.error().empty()) notices_.clear("model-failure");  // mended (or dismissed in the model's bar)
  if (std::optional<std::string> failure = model_.take_failure()) {
    notices_.post(ui::NoticeLevel::Error,
                  i18n::format(model_.result() != nullptr
                                   ? i18n::tr("The model could not be run: %s\nThe window shows the last result.")
                                   : i18n::tr("The model could not be run: %s"),
                               failure->c_str()),
                  "model-failure");
  }
  if (std::optional<std::string> notice = model_.take_backend_notice()) {
    notices_.post(ui::NoticeLevel::Warning, *notice, "model-backend");
  }
}

// The title bar names what the window shows: the model while one is open, else the scenario
// as the menu bar names it ("attnviz — korean.json — Korean worked example").
void DesktopApp::update_title() {
  std::string name = model_.caption();
  if (name.empty()) {
    const document::Caption caption = document::caption_of(document_);
    name = document::join_caption(caption, caption.parts.size());
  }
  window_.set_title(name.empty() ? "attnviz" : "attnviz  \u2014  " + name);
}

// File > Save view as image…: this frame was captured for it; its main area goes into the file.
void DesktopApp::save_view_image() {
  const ui::ViewImageRequest request = *std::exchange(view_.view_image_request, std::nullopt);
  const VkExtent2D extent = capture_.extent();
  const int width = static_cast<int>(extent.width);
  const int height = static_cast<int>(extent.height);
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  const export_ui::PixelRect rect = export_ui::area_pixels(view_.main_area, display.x, display.y, width, height);
  (void)export_ui::save_view_image(capture_.rgba(), width, height, rect, request, ui::tab_title(classroom_.shown),
                                   notices_);
  quiet_frames_ = 0;  // the notice shows at once
}

void DesktopApp::save_pipeline_cache() { pipeline_cache_saver_.save(*context_); }

// Presentation mode asks for full screen (and back); screenshots keep the size asked for.
void DesktopApp::apply_fullscreen_request() {
  const std::optional<bool> fullscreen = std::exchange(classroom_.fullscreen, std::nullopt);
  if (fullscreen && !options_.screenshot) window_.set_fullscreen(*fullscreen);
}

// Over the middle of the window for the one frame before a recompute of a new shape, which
// stays on screen while that recompute runs.
void DesktopApp::draw_shape_notice() const {
  const bool first_run = shape_notice_.why() == ShapeNotice::Why::FirstVulkanRun;
  const char* title = first_run ? i18n::tr("Preparing the GPU kernels for their first run\u2026")
                                : i18n::tr("Preparing shaders for the new shape\u2026");
  const char* detail =
      first_run ? i18n::tr("The CPU driver compiles each kernel the first time it runs: a few seconds, once.")
                : i18n::tr("The first computation of a new number of heads or widths can take a moment.");
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  const ImVec2 padding(18.0f * ui_scale_, 12.0f * ui_scale_);
  // A size of its own: a window that sizes itself to its contents stays hidden in its first
  // frame, and this one has only one.
  const ImVec2 size(std::max(ImGui::CalcTextSize(title).x, ImGui::CalcTextSize(detail).x) + 2.0f * padding.x,
                    2.0f * ImGui::GetTextLineHeightWithSpacing() + 2.0f * padding.y);
  ImGui::SetNextWindowPos(ImVec2(display.x * 0.5f, display.y * 0.45f), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSize(size, ImGuiCond_Always);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoInputs |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                                 ImGuiWindowFlags_NoNav;
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, padding);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, std::max(1.0f, 2.0f * ui_scale_));
  ImVec4 background = ImGui::GetStyleColorVec4(ImGuiCol_PopupBg);
  background.w = 1.0f;  // over the heatmaps: nothing shows through
  ImGui::PushStyleColor(ImGuiCol_WindowBg, background);
  ImGui::PushStyleColor(ImGuiCol_Border, ImGui::GetStyleColorVec4(ImGuiCol_CheckMark));
  if (ImGui::Begin(first_run ? "##preparing_kernels" : "##preparing_shaders", nullptr, flags)) {
    ImGui::TextUnformatted(title);
    ImGui::TextDisabled("%s", detail);
  }
  ImGui::End();
  ImGui::PopStyleColor(2);
  ImGui::PopStyleVar(2);
}

// --bench-shapes: once the last change is computed, the next shape: the K/V head counts that
// divide the heads, then d_k halved and doubled, round and round (the second round finds every
// shape built before).
void DesktopApp::bench_shape() {
  if (!session_->has_result() || session_->problem_revision() != document_.revision()) return;
  const Scenario& now = document_.scenario();
  if (!bench_base_) bench_base_ = now;
  std::vector<std::pair<int, int>> shapes;  // (K/V heads, d_k)
  for (const int kv : edits::divisors(bench_base_->num_heads)) shapes.emplace_back(kv, bench_base_->d_k);
  for (const int d_k : {std::max(1, bench_base_->d_k / 2), bench_base_->d_k * 2})
    shapes.emplace_back(bench_base_->num_kv_heads, d_k);
  const auto [kv, d_k] = shapes[bench_shapes_done_++ % shapes.size()];
  const edits::FreshMatrices fresh = edits::default_fresh(now);
  document_.apply(edits::set_d_k(edits::set_num_kv_heads(now, kv, fresh), d_k, fresh), "Benchmark shape",
                  "bench-shape");
}

// --bench-edits: every frame is an edit (W_Q[0][0] moves a little), so every frame recomputes.
void DesktopApp::bench_edit() {
  if (!session_->has_result()) return;
  Scenario next = document_.scenario();
  if (!next.wq) next.wq = session_->problem().wq;
  next.wq->at(0, 0) += (frames_drawn_ % 2 == 0 ? 1e-3f : -1e-3f);
  document_.apply(std::move(next), "Benchmark edit", "bench");
}

void DesktopApp::run() {
  std::signal(SIGINT, request_close);
  std::signal(SIGTERM, request_close);
  // A FIFO (or a pipe) whose reader went away must give a write error, not end the window.
  std::signal(SIGPIPE, SIG_IGN);
  while (g_close_requested == 0) {
    if (window_.should_close()) {
      if (!view_.close_held) break;
      window_.cancel_close();  // a view asks first (ViewState::close_held)
      view_.close_asked = true;
    }
    if (window_.minimised() && !options_.screenshot) {
      window::GlfwWindow::wait_events();  // nothing to draw into; do not spin
      continue;
    }
    // An interactive window draws while something happens and a few frames after (ImGui
    // settles hover and animations), then sleeps until an event: on a CPU-only Vulkan driver a
    // window that redraws all the time would keep the machine busy for nothing.
    const bool interactive = !options_.frames && !options_.stats;
    // Input still queued (a tap's release waits a frame) needs frames too.
    slept_ = interactive && quiet_frames_ >= kSettleFrames && !window_.input_pending();
    if (slept_)
      window::GlfwWindow::wait_events(kIdleWakeSeconds);
    else
      window::GlfwWindow::poll_events();
    quiet_frames_ = window_.event_count() != events_seen_ ? 0 : quiet_frames_ + 1;
    events_seen_ = window_.event_count();
    prepare_frame();
    build_ui();
    apply_fullscreen_request();
    if (std::exchange(view_.quit_requested, false)) window_.request_close();
    if (options_.edit_every_frame) bench_edit();
    if (options_.shape_every_frame) bench_shape();
    const bool last = options_.frames && frames_drawn_ + 1 >= static_cast<std::uint64_t>(*options_.frames);
    const bool view_image = view_.capturing_view;
    if (!render((last && options_.screenshot.has_value()) || view_image))
      continue;  // a request waits for the next frame
    if (view_image) save_view_image();
    if (last) break;
  }
  if (options_.screenshot) capture_.save_png(*options_.screenshot);
  if (options_.stats) {
    times_.set_allocations(allocations_after_warm_up_, allocations());
    times_.print(out_, window_.framebuffer_size(), *session_);
  }
}

// ATTNVIZ_LANGUAGE (en, ko, pseudo) first, then the choice remembered from View ▸ Language,
// else the desktop's (LANGUAGE, LC_ALL, LC_MESSAGES, LANG).
i18n::Language starting_language(const std::optional<RememberedWindow>& remembered) {
  if (const char* asked = std::getenv("ATTNVIZ_LANGUAGE"); asked != nullptr && *asked != '\0') {
    if (const std::optional<i18n::Language> language = i18n::language_from_code(asked)) return *language;
  }
  if (remembered) return i18n::language_from_code(remembered->language).value_or(i18n::Language::Desktop);
  return i18n::Language::Desktop;
}

// The layout the user left, but not the command line's --layout: that was for this run.
ui::RememberedLayout layout_to_remember(ui::RememberedLayout now, const GuiOptions& options,
                                        const std::optional<RememberedWindow>& remembered) {
  if (options.layout && now.mode == *options.layout)
    now.mode = remembered ? remembered->layout.mode : ui::LayoutMode::Full;
  return now;
}

// ATTNVIZ_WIDGET_LOG=FILE: every frame, the widgets' names and rectangles (tests that drive
// the window with a mouse and keyboard find what to click there); --validation: check that no
// two widgets share an ID.
void configure_widget_log(const GuiOptions& options) {
  std::optional<std::filesystem::path> file;
  if (const char* path = std::getenv("ATTNVIZ_WIDGET_LOG"); path != nullptr && *path != '\0') file = path;
  window::widget_log::configure(std::move(file), options.validation);
}

}  // namespace

int run_gui(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  GuiOptions options = parse_gui_options(args);
  if (options.help) {
    out << kGuiHelp << "\nClassroom views:\n" << classroom::kStartOptionsHelp;
    return 0;
  }
  std::optional<LoadedScenario> scenario;
  std::optional<std::string> open_failure;
  if (options.file) {
    // As --scenario, but a file manager shows no exit code: the window opens and says why.
    options.scenario = options.file;
    try {
      scenario = scenario_from_command_line(options);
    } catch (const std::exception& error) {
      err << "attnviz: error: " << error.what() << "\n";
      open_failure = error.what();
      options.scenario.reset();
    }
  } else {
    scenario = scenario_from_command_line(options);
  }
  // The user's window comes back as it was left (window_memory.h); screenshots, measuring runs
  // and --size get exactly the size asked for. A person's language is theirs with --size too.
  const bool remembers = !options.automated() && !options.size_given;
  const std::optional<RememberedWindow> remembered =
      options.automated() ? std::nullopt : read_remembered_window(remembered_window_file());
  const i18n::Language language = starting_language(remembered);
  i18n::start_translation(language);
  window::set_translated_characters(i18n::catalogue_characters());
  window::WindowOptions window_options;
  window_options.width = options.width;
  window_options.height = options.height;
  window_options.fixed_size = options.screenshot.has_value();
  window_options.fit_to_screen = !options.size_given && !options.screenshot;
  if (remembered && remembers) window_options.placement = remembered->placement;
  window::GlfwWindow window(window_options);
  const std::shared_ptr<vk::Context> context = create_context(options, window);
  configure_widget_log(options);
  {
    DesktopApp app(options, std::move(scenario), window, context, out);
    if (open_failure) app.report_open_failure(*options.file, *open_failure);
    if (remembered && remembers) app.set_text_scale(remembered->text_scale);
    if (remembered) {
      app.set_theme(remembered->theme);
      app.restore_layout(remembered->layout);
    }
    if (options.theme) app.set_theme(*options.theme);
    const ui::Theme theme_at_start = app.theme();
    app.run();
    const bool language_changed = i18n::chosen_language() != language;
    const ui::Theme theme = app.theme() != theme_at_start ? app.theme()
                            : remembered                  ? remembered->theme
                                                          : ui::Theme::Light;
    const ui::RememberedLayout layout = layout_to_remember(app.layout(), options, remembered);
    const bool view_menu_changed = theme != (remembered ? remembered->theme : ui::Theme::Light) ||
                                   layout != (remembered ? remembered->layout : app.default_layout());
    if (remembers || ((language_changed || view_menu_changed) && !options.automated())) {
      RememberedWindow memory =
          remembers || !remembered ? RememberedWindow{window.placement(), app.text_scale(), ""} : *remembered;
      memory.language = language_changed ? i18n::language_code(i18n::chosen_language())
                        : remembered     ? remembered->language
                                         : "";
      memory.theme = theme;
      memory.layout = layout;
      const std::string problem = remember_window(remembered_window_file(), memory);
      if (!problem.empty()) err << "attnviz: the window's size and place are not remembered: " << problem << "\n";
    }
  }
  int status = 0;
  if (context->validation_enabled()) {
    const std::vector<std::string> messages = context->validation_messages();
    for (const std::string& message : messages) err << "attnviz: validation: " << message << "\n";
    if (!messages.empty()) {
      err << "attnviz: the Vulkan validation layer reported " << messages.size() << " message(s)\n";
      status = 1;
    }
  }
  // Two widgets with one ImGui ID: the second never gets the mouse (a checkbox that cannot
  // be clicked). Checked with --validation, like the Vulkan usage.
  for (const std::string& conflict : window::widget_log::id_conflicts()) {
    err << "attnviz: validation: " << conflict << "\n";
    status = 1;
  }
  return status;
}

}  // namespace attnviz::desktop
