#pragma once
// File > Save view as image… (Ctrl+Shift+E): the main area's view, whichever it is (the
// Heatmaps, a classroom view, the Tiled or Decode view), as the window shows it, into a PNG.
//
//   1. The dialog (make_view_image_dialog) proposes a name in the Export dialog's folder (the
//      last one exported to, else the pictures folder; a relative name is taken from there)
//      and, on Save, sets ViewState::view_image_request.
//   2. The frame loop draws the next frame (the dialog gone from it, with neither notices nor
//      the mouse's hover), captures it through the window's screenshot readback, and calls
//      save_view_image with the pixels and where the main area was.
//   3. save_view_image crops them to the main area, encodes a PNG and writes it atomically
//      (a temporary file, then a rename: a failure never leaves half an image), and says what
//      happened in a notice. No ImGui in these functions: unit-tested in tests/export_ui.

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "app/export_ui/export_folder.h"
#include "app/ui/classroom_state.h"
#include "app/ui/notices.h"
#include "app/ui/view_state.h"
#include "core/export/png_writer.h"

namespace attnviz::export_ui {

// A rectangle of the captured frame in its pixels.
struct PixelRect {
  int x = 0, y = 0, width = 0, height = 0;
};

// The main area in framebuffer pixels: `area` is in display units, the framebuffer may be
// larger (HiDPI); the result is clamped to the frame. Empty when nothing of it is inside.
PixelRect area_pixels(const ui::AreaRect& area, float display_w, float display_h, int frame_w, int frame_h);

// `rgba`: frame_w × frame_h pixels, 4 bytes each, rows top to bottom (FrameCapture::rgba).
exporting::RgbImage crop_rgb(const std::vector<std::uint8_t>& rgba, int frame_w, int frame_h, const PixelRect& rect);

struct ViewImageOutcome {
  bool ok = false;
  std::string message;  // "Saved the Tiled view as …" or what went wrong
};
// Crops, encodes and writes `request.path` (its folder created when missing), keeps the folder
// for the next export, and posts the outcome as a notice.
ViewImageOutcome save_view_image(const std::vector<std::uint8_t>& rgba, int frame_w, int frame_h, const PixelRect& rect,
                                 const ui::ViewImageRequest& request, const std::string& view_title,
                                 ui::Notices& notices);

// The name the dialog proposes: "attnviz-tiled-tile-5.png" (the view and where it stands), made
// unique in `folder` with "-2", "-3", … so an earlier image is not replaced by accident.
std::string proposed_view_image_name(const std::string& view_and_step, const std::filesystem::path& folder);

// The path typed into "Save as": resolved like the Export dialog's (relative to the folder
// proposed, ~ for home), with ".png" added when it has no extension. Throws InputError for an
// empty name, a folder, or an extension other than .png.
std::filesystem::path view_image_path(const std::string& typed, const std::filesystem::path& folder,
                                      const EnvironmentLookup& environment);

// "tiled-tile-5", "step-6", "heatmaps": the view on screen and where it stands, for the name.
std::string view_image_stem(const ui::ClassroomState& classroom);

}  // namespace attnviz::export_ui
