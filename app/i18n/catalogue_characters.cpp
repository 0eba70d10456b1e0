#include "app/i18n/catalogue_characters.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <system_error>

#include "app/i18n/catalogue_dir.h"

namespace attnviz::i18n {
namespace {

namespace fs = std::filesystem;

constexpr std::uint32_t kMoMagic = 0x950412de;
constexpr std::uintmax_t kMostBytes = 16u << 20;  // a catalogue is kilobytes: anything larger is not one

std::uint32_t word_at(const std::string& bytes, std::size_t offset, bool swapped) {
  if (offset + 4 > bytes.size()) return 0;
  std::uint32_t value = 0;
  for (int i = 0; i < 4; ++i) {
    const auto byte = static_cast<unsigned char>(bytes[offset + static_cast<std::size_t>(swapped ? 3 - i : i)]);
    value |= static_cast<std::uint32_t>(byte) << (8 * i);
  }
  return value;
}

// The code points of UTF-8 `text` from U+0080 on (a broken sequence is skipped).
void add_characters(std::string_view text, std::set<char32_t>& out) {
  for (std::size_t i = 0; i < text.size();) {
    const auto lead = static_cast<unsigned char>(text[i]);
    const std::size_t length = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
    if (length > 1 && i + length <= text.size()) {
      auto code = static_cast<std::uint32_t>(lead) & (0x7Fu >> length);
      for (std::size_t k = 1; k < length; ++k)
        code = (code << 6) | (static_cast<std::uint32_t>(static_cast<unsigned char>(text[i + k])) & 0x3Fu);
      out.insert(static_cast<char32_t>(code));
    }
    i += length;
  }
}

// A .mo file's translations (GNU gettext's format: a table of lengths and offsets).
void add_translations(const fs::path& file, std::set<char32_t>& out) {
  std::error_code error;
  if (fs::file_size(file, error) > kMostBytes || error) return;
  std::ifstream in(file, std::ios::binary);
  const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  const bool swapped = word_at(bytes, 0, false) != kMoMagic;
  if (word_at(bytes, 0, swapped) != kMoMagic) return;
  const std::uint32_t count = word_at(bytes, 8, swapped);
  const std::uint32_t table = word_at(bytes, 16, swapped);
  for (std::uint32_t i = 0; i < count; ++i) {
    const std::size_t entry = table + std::size_t{8} * i;
    const std::size_t length = word_at(bytes, entry, swapped);
    const std::size_t offset = word_at(bytes, entry + 4, swapped);
    if (offset + length > bytes.size()) return;
    add_characters(std::string_view(bytes).substr(offset, length), out);
  }
}

}  // namespace

std::vector<char32_t> catalogue_characters() {
  const std::optional<fs::path> directory = catalogue_dir();
  if (!directory) return {};
  std::set<char32_t> found;
  std::error_code error;
  for (const fs::directory_entry& language : fs::directory_iterator(*directory, error)) {
    const fs::path file = language.path() / "LC_MESSAGES" / "attnviz.mo";
    if (fs::is_regular_file(file, error)) add_translations(file, found);
  }
  return {found.begin(), found.end()};
}

}  // namespace attnviz::i18n
