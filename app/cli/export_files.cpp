#include "app/cli/export_files.h"

#include <algorithm>
#include <ostream>
#include <string>

#include "core/common/atomic_file.h"
#include "core/common/error.h"

namespace attnviz::cli {
namespace {

constexpr const char* kOrigin = "<command line>";

// Each warning once: a font warning would otherwise repeat for every image.
void print_warnings(const std::vector<exporting::ExportedFile>& files, std::ostream& err) {
  std::vector<std::string> warned;
  for (const auto& file : files) {
    for (const std::string& warning : file.warnings) {
      if (std::find(warned.begin(), warned.end(), warning) != warned.end()) continue;
      warned.push_back(warning);
      err << "attnviz: warning: " << warning << "\n";
    }
  }
}

}  // namespace

int write_exported_files(const std::vector<exporting::ExportedFile>& files, const std::filesystem::path& out_path,
                         std::ostream& out, std::ostream& err) {
  print_warnings(files, err);
  std::vector<std::filesystem::path> written;
  try {
    written = exporting::write_export(files, out_path, kOrigin);
  } catch (const FileWriteError& error) {
    // A path that cannot be written (a missing or read-only folder, /proc/x) is bad input.
    if (error.path_problem()) throw InputError(kOrigin, "--out", error.what());
    throw;
  }
  for (const auto& path : written) out << path.string() << "\n";
  return 0;
}

}  // namespace attnviz::cli
