#include "app/export_ui/view_image.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <exception>
#include <system_error>

#include "app/i18n/translate.h"
#include "app/ui/classroom_state.h"
#include "core/common/atomic_file.h"
#include "core/common/error.h"

namespace attnviz::export_ui {
namespace {

constexpr int kScreenDpi = 96;

}  // namespace

PixelRect area_pixels(const ui::AreaRect& area, float display_w, float display_h, int frame_w, int frame_h) {
  if (display_w <= 0.0f || display_h <= 0.0f || frame_w <= 0 || frame_h <= 0) return {};
  const float sx = static_cast<float>(frame_w) / display_w;
  const float sy = static_cast<float>(frame_h) / display_h;
  const int x0 = std::clamp(static_cast<int>(std::lround(area.x * sx)), 0, frame_w);
  const int y0 = std::clamp(static_cast<int>(std::lround(area.y * sy)), 0, frame_h);
  const int x1 = std::clamp(static_cast<int>(std::lround((area.x + area.w) * sx)), 0, frame_w);
  const int y1 = std::clamp(static_cast<int>(std::lround((area.y + area.h) * sy)), 0, frame_h);
  if (x1 <= x0 || y1 <= y0) return {};
  return {x0, y0, x1 - x0, y1 - y0};
}

exporting::RgbImage crop_rgb(const std::vector<std::uint8_t>& rgba, int frame_w, int frame_h, const PixelRect& rect) {
  if (rect.width <= 0 || rect.height <= 0 || rect.x < 0 || rect.y < 0 || rect.x + rect.width > frame_w ||
      rect.y + rect.height > frame_h ||
      rgba.size() < static_cast<std::size_t>(frame_w) * static_cast<std::size_t>(frame_h) * 4) {
    throw std::invalid_argument(i18n::tr("the view's area is not inside the captured frame"));
  }
  exporting::RgbImage image;
  image.width = rect.width;
  image.height = rect.height;
  image.pixels.resize(static_cast<std::size_t>(rect.width) * static_cast<std::size_t>(rect.height) * 3);
  for (int y = 0; y < rect.height; ++y) {
    const std::uint8_t* from = rgba.data() + (static_cast<std::size_t>(rect.y + y) * static_cast<std::size_t>(frame_w) +
                                              static_cast<std::size_t>(rect.x)) *
                                                 4;
    std::uint8_t* to = image.pixels.data() + static_cast<std::size_t>(y) * static_cast<std::size_t>(rect.width) * 3;
    for (int x = 0; x < rect.width; ++x) {
      to[x * 3 + 0] = from[x * 4 + 0];
      to[x * 3 + 1] = from[x * 4 + 1];
      to[x * 3 + 2] = from[x * 4 + 2];
    }
  }
  return image;
}

ViewImageOutcome save_view_image(const std::vector<std::uint8_t>& rgba, int frame_w, int frame_h, const PixelRect& rect,
                                 const ui::ViewImageRequest& request, const std::string& view_title,
                                 ui::Notices& notices) {
  ViewImageOutcome outcome;
  try {
    const exporting::RgbImage image = crop_rgb(rgba, frame_w, frame_h, rect);
    const std::string png = exporting::encode_png(image, kScreenDpi);
    const std::filesystem::path folder = request.path.parent_path();
    std::error_code error;
    if (!folder.empty() && !std::filesystem::exists(folder, error)) {
      std::filesystem::create_directories(folder, error);
      if (error) {
        throw std::runtime_error(i18n::format(i18n::tr("cannot create the folder %s: %s"), folder.string().c_str(),
                                              error.message().c_str()));
      }
    }
    write_file_atomically(request.path, png, WriteOptions{.wait_for_reader = false});
    if (!request.folder_memory.empty() && !folder.empty()) write_last_folder(request.folder_memory, folder);
    outcome.ok = true;
    outcome.message =
        i18n::format(i18n::tr("Saved the %s view as %s (%d \xC3\x97 %d pixels)"), i18n::tr(view_title.c_str()),
                     request.path.string().c_str(), image.width, image.height);
    notices.post(ui::NoticeLevel::Info, outcome.message);
  } catch (const std::exception& error) {
    outcome.message = i18n::format(i18n::tr("Saving the view as an image failed: %s"), error.what());
    notices.post(ui::NoticeLevel::Error, outcome.message);
  }
  return outcome;
}

std::string proposed_view_image_name(const std::string& view_and_step, const std::filesystem::path& folder) {
  const std::string stem = "attnviz-" + view_and_step;
  std::error_code error;
  for (int n = 1; n < 1000; ++n) {
    const std::string name = stem + (n == 1 ? std::string() : "-" + std::to_string(n)) + ".png";
    if (!std::filesystem::exists(folder / name, error)) return name;
  }
  return stem + ".png";
}

std::filesystem::path view_image_path(const std::string& typed, const std::filesystem::path& folder,
                                      const EnvironmentLookup& environment) {
  const std::string where = i18n::tr("Save view as image");
  const std::string field = i18n::tr("save as");
  std::string trimmed = typed;
  while (!trimmed.empty() && (trimmed.back() == ' ' || trimmed.back() == '\t')) trimmed.pop_back();
  if (trimmed.empty()) throw InputError(where, field, i18n::tr("is empty: type a file name such as view.png"));
  std::filesystem::path path = resolve_export_path(trimmed, folder, environment);
  std::error_code error;
  if (trimmed.back() == '/' || std::filesystem::is_directory(path, error)) {
    throw InputError(where, field,
                     i18n::format(i18n::tr("%s is a folder: add a file name such as view.png"), path.string().c_str()));
  }
  if (!path.has_extension()) path += ".png";
  std::string extension = path.extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (extension != ".png") {
    throw InputError(where, field,
                     i18n::format(i18n::tr("the view is saved as a PNG image: the name must end in .png, not %s"),
                                  path.extension().string().c_str()));
  }
  return path;
}

std::string view_image_stem(const ui::ClassroomState& classroom) {
  switch (classroom.shown) {
    case ui::MainView::Step: return "step-" + std::to_string(classroom.shown_step + 1);
    case ui::MainView::Tiled: return "tiled-tile-" + std::to_string(classroom.shown_step + 1);
    case ui::MainView::Decode: return "decode-step-" + std::to_string(classroom.shown_step + 1);
    default: return ui::to_string(classroom.shown);
  }
}

}  // namespace attnviz::export_ui
