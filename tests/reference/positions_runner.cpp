// For tests/reference/check_positions.py: computes scenario files on every path in one process
// (one Vulkan device for all of them) and writes each result as attnviz-result/1 JSON:
//   OUT_DIR/NAME.cpu.json, NAME.vulkan.json          the dense Eigen and Vulkan backends
//   OUT_DIR/NAME.tiled-cpu.json, NAME.tiled-vulkan.json  the tiled kernels (contexts and output)
// usage: positions_runner OUT_DIR SCENARIO.json...   (NAME: the file name without .json)
// Exit 0, 2 for a scenario that does not load, 3 without a Vulkan device.

#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include "core/attention/result_json.h"
#include "core/common/error.h"
#include "core/cpu/cpu_backend.h"
#include "core/gpu/tiled_kernel.h"
#include "core/gpu/vulkan_attention.h"
#include "core/scenario/problem.h"
#include "core/scenario/scenario_json.h"
#include "core/tiled/tiled_attention.h"

namespace {

void write(const std::filesystem::path& path, const attnviz::Result& result) {
  std::ofstream out(path);
  out << attnviz::result_to_json(result);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: positions_runner OUT_DIR SCENARIO.json...\n";
    return 2;
  }
  const std::filesystem::path out_dir = argv[1];
  try {
    const auto cpu = attnviz::make_cpu_backend();
    const auto context = attnviz::vk::Context::create();
    const auto vulkan = attnviz::make_vulkan_backend(context);
    const auto tiled_cpu = attnviz::tiled::make_cpu_tiled();
    const auto tiled_vulkan = attnviz::tiled::make_vulkan_tiled(context);
    const attnviz::tiled::TiledOptions blocks{4, 3, std::nullopt};
    for (int i = 2; i < argc; ++i) {
      const std::filesystem::path file = argv[i];
      const attnviz::Problem problem =
          attnviz::build_problem(attnviz::load_scenario(file.string()).scenario, file.string());
      const std::string name = file.stem().string();
      write(out_dir / (name + ".cpu.json"), cpu->compute(problem));
      write(out_dir / (name + ".vulkan.json"), vulkan->compute(problem));
      write(out_dir / (name + ".tiled-cpu.json"), attnviz::tiled::as_result(problem, tiled_cpu->run(problem, blocks)));
      write(out_dir / (name + ".tiled-vulkan.json"),
            attnviz::tiled::as_result(problem, tiled_vulkan->run(problem, blocks)));
    }
  } catch (const attnviz::InputError& e) {
    std::cerr << e.what() << "\n";
    return 2;
  } catch (const attnviz::BackendUnavailable& e) {
    std::cerr << e.what() << "\n";
    return 3;
  } catch (const std::exception& e) {
    std::cerr << "positions_runner: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
