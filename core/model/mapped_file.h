#pragma once
// A model file mapped read-only into memory: tensors are read in place (a float32 weight is
// never copied), and every read goes through bytes(offset, size), which refuses a range past
// the end of the file, so a header that lies can never make the loader read outside it.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace attnviz::model {

class MappedFile {
 public:
  MappedFile() = default;
  // Throws InputError(path, "", problem) when the file is missing, a folder, or unreadable.
  explicit MappedFile(const std::string& path);
  // Bytes already in memory, read as a file named `name` (the fuzz targets): not owned, never
  // unmapped; they must outlive the MappedFile.
  static MappedFile borrow(std::string name, std::span<const std::byte> bytes);
  ~MappedFile();
  MappedFile(MappedFile&& other) noexcept;
  MappedFile& operator=(MappedFile&& other) noexcept;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  [[nodiscard]] const std::string& path() const { return path_; }
  [[nodiscard]] std::uint64_t size() const { return size_; }
  [[nodiscard]] std::span<const std::byte> all() const { return {data_, static_cast<std::size_t>(size_)}; }
  // Bytes [offset, offset + count); throws InputError(path, what, ...) naming `what` (a tensor,
  // a field) when the range does not lie inside the file.
  [[nodiscard]] std::span<const std::byte> bytes(std::uint64_t offset, std::uint64_t count,
                                                 const std::string& what) const;

 private:
  void unmap();
  std::string path_;
  const std::byte* data_ = nullptr;
  std::uint64_t size_ = 0;
  bool owned_ = true;
};

}  // namespace attnviz::model
