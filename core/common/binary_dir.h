#pragma once
// The folder of the running binary (/proc/self/exe's), from which the files installed beside
// it are found: PREFIX/bin/attnviz → PREFIX/share/…, build/TYPE/app/attnviz → build/TYPE/….

#include <filesystem>

namespace attnviz {

// Empty when the system does not say.
std::filesystem::path binary_dir();

}  // namespace attnviz
