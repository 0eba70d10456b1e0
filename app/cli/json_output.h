#pragma once
// Where a subcommand's text goes: standard output, or --out FILE written whole or not at all
// (core/common/atomic_file.h). A path that cannot be written is bad input naming --out.

#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>

namespace attnviz::cli {

void write_output(const std::optional<std::string>& path, std::string_view text, std::ostream& out);

}  // namespace attnviz::cli
