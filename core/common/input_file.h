#pragma once
// Reading a file a user named (a scenario, the autosave) with a bound on its size, so that
// /dev/zero, an endless pipe or a huge file is refused with a message instead of filling the
// memory, and, for the window, a way to stop a read that waits (a FIFO nobody writes to).

#include <atomic>
#include <cstddef>
#include <stdexcept>
#include <string>

namespace attnviz {

// A regular file larger than this is refused before anything is read.
inline constexpr std::size_t kMaxInputFileBytes = std::size_t{1} << 30;  // 1 GiB
// Anything else (a pipe, a FIFO, a character device) is read until it ends or gives more than
// this: its size is not known in advance.
inline constexpr std::size_t kMaxInputStreamBytes = std::size_t{64} << 20;  // 64 MiB

// "64 MiB", "1 GiB", "312 KiB", "17 bytes".
std::string byte_size_text(std::size_t bytes);

// The read was stopped through ReadOptions::cancel.
class ReadCancelled : public std::runtime_error {
 public:
  ReadCancelled() : std::runtime_error("reading was cancelled") {}
};

struct ReadOptions {
  std::size_t max_file_bytes = kMaxInputFileBytes;
  std::size_t max_stream_bytes = kMaxInputStreamBytes;
  // Refuse anything but a regular file (the autosave, which attnviz wrote itself).
  bool regular_files_only = false;
  // Checked while waiting for data (at least every 100 ms): when true, throws ReadCancelled.
  const std::atomic<bool>* cancel = nullptr;
  // Bytes read so far, for a progress display.
  std::atomic<std::size_t>* progress = nullptr;
  // What the file was meant to be, for "is a folder, not a text file".
  const char* kind = "scenario file";
};

// The whole content of `path`. Throws InputError(path, "", problem) when it is missing, a
// folder, unreadable, too large (the message says the limit) or not a regular file when
// regular_files_only; ReadCancelled when cancelled.
std::string read_input_file(const std::string& path, const ReadOptions& options = {});

}  // namespace attnviz
