#include "core/text/text_file.h"

#include "core/common/error.h"
#include "core/common/input_file.h"

namespace attnviz {

std::string read_text_file(const std::string& path) {
  ReadOptions options;
  options.max_file_bytes = kMaxTextFileBytes;
  options.max_stream_bytes = kMaxTextFileBytes;
  options.kind = "text file";
  std::string text = read_input_file(path, options);
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) throw InputError(path, "", "the text file has no words");
  return text;
}

}  // namespace attnviz
