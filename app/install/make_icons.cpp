// attnviz_make_icons OUT_DIR: writes the application icon, drawn by app/window/app_icon.h, in
// the freedesktop hicolor layout the install step copies to share/icons:
//   OUT_DIR/hicolor/scalable/apps/io.github.attnviz.Attnviz.svg
//   OUT_DIR/hicolor/<N>x<N>/apps/io.github.attnviz.Attnviz.png   for N in 16 … 512

#include <stb_image_write.h>

#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>

#include "app/window/app_icon.h"

namespace {

constexpr const char* kIconName = "io.github.attnviz.Attnviz";
constexpr int kPngSizes[] = {16, 24, 32, 48, 64, 128, 256, 512};

std::filesystem::path apps_folder(const std::filesystem::path& out, const std::string& size) {
  const std::filesystem::path folder = out / "hicolor" / size / "apps";
  std::filesystem::create_directories(folder);
  return folder;
}

void write_svg(const std::filesystem::path& out) {
  const std::filesystem::path path = apps_folder(out, "scalable") / (std::string(kIconName) + ".svg");
  std::ofstream file(path, std::ios::binary);
  file << attnviz::window::app_icon_svg();
  if (!file.flush()) throw std::runtime_error("cannot write " + path.string());
}

void write_png(const std::filesystem::path& out, int size) {
  const std::string edge = std::to_string(size);
  const std::filesystem::path path = apps_folder(out, edge + "x" + edge) / (std::string(kIconName) + ".png");
  const auto pixels = attnviz::window::render_app_icon(size);
  if (stbi_write_png(path.c_str(), size, size, 4, pixels.data(), size * 4) == 0) {
    throw std::runtime_error("cannot write " + path.string());
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: attnviz_make_icons OUT_DIR\n";
    return 2;
  }
  try {
    write_svg(argv[1]);
    for (const int size : kPngSizes) write_png(argv[1], size);
  } catch (const std::exception& error) {
    std::cerr << "attnviz_make_icons: " << error.what() << "\n";
    return 1;
  }
  return 0;
}
