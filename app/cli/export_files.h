#pragma once
// The end of every `attnviz export`: each warning of the rendered files said once, the files
// written (a path that cannot be written is bad input: --out), and their paths printed.

#include <filesystem>
#include <iosfwd>
#include <vector>

#include "core/export/export.h"

namespace attnviz::cli {

// Returns the command's exit code (0); throws InputError naming --out, or the write's error.
int write_exported_files(const std::vector<exporting::ExportedFile>& files, const std::filesystem::path& out_path,
                         std::ostream& out, std::ostream& err);

}  // namespace attnviz::cli
