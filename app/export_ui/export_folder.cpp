#include "app/export_ui/export_folder.h"

#include <fstream>
#include <system_error>

namespace attnviz::export_ui {
namespace {

namespace fs = std::filesystem;

std::optional<fs::path> home_of(const EnvironmentLookup& environment) {
  const char* home = environment("HOME");
  if (home == nullptr || *home == '\0') return std::nullopt;
  return fs::path(home);
}

fs::path working_directory() {
  std::error_code error;
  const fs::path cwd = fs::current_path(error);
  return error ? fs::path("/") : cwd;
}

// "$HOME/Pictures" or "/srv/pictures" as user-dirs.dirs writes them; nullopt for anything else.
std::optional<fs::path> expand_user_dir(std::string value, const std::optional<fs::path>& home) {
  if (value.size() >= 2 && value.front() == '"' && value.back() == '"') value = value.substr(1, value.size() - 2);
  const std::string prefix = "$HOME";
  if (value.rfind(prefix, 0) == 0) {
    if (!home) return std::nullopt;
    std::string rest = value.substr(prefix.size());
    while (!rest.empty() && rest.front() == '/') rest.erase(0, 1);
    return rest.empty() ? *home : *home / rest;
  }
  if (!value.empty() && value.front() == '/') return fs::path(value);
  return std::nullopt;
}

std::optional<fs::path> from_user_dirs_file(const EnvironmentLookup& environment, const std::optional<fs::path>& home) {
  fs::path config;
  if (const char* xdg = environment("XDG_CONFIG_HOME"); xdg != nullptr && *xdg != '\0')
    config = xdg;
  else if (home)
    config = *home / ".config";
  else
    return std::nullopt;
  std::ifstream file(config / "user-dirs.dirs");
  std::string line;
  std::optional<fs::path> found;
  const std::string key = "XDG_PICTURES_DIR=";
  while (std::getline(file, line)) {
    const std::size_t start = line.find_first_not_of(" \t");
    if (start == std::string::npos || line[start] == '#') continue;
    if (line.compare(start, key.size(), key) != 0) continue;
    std::string value = line.substr(start + key.size());
    while (!value.empty() && (value.back() == '\r' || value.back() == ' ' || value.back() == '\t')) value.pop_back();
    found = expand_user_dir(value, home);  // the last line wins, as when the shell sources it
  }
  return found;
}

}  // namespace

fs::path pictures_directory(const EnvironmentLookup& environment) {
  const std::optional<fs::path> home = home_of(environment);
  if (const char* given = environment("XDG_PICTURES_DIR"); given != nullptr && *given != '\0') {
    if (const std::optional<fs::path> path = expand_user_dir(given, home)) return *path;
  }
  if (const std::optional<fs::path> listed = from_user_dirs_file(environment, home)) return *listed;
  if (!home) return working_directory();
  std::error_code error;
  if (fs::is_directory(*home / "Pictures", error)) return *home / "Pictures";
  return *home;
}

std::optional<fs::path> read_last_folder(const fs::path& memory) {
  std::ifstream file(memory);
  std::string line;
  if (!std::getline(file, line) || line.empty()) return std::nullopt;
  const fs::path folder(line);
  if (!folder.is_absolute()) return std::nullopt;
  return folder;
}

void write_last_folder(const fs::path& memory, const fs::path& folder) {
  std::error_code error;
  fs::create_directories(memory.parent_path(), error);
  std::ofstream(memory, std::ios::trunc) << folder.string() << '\n';
}

fs::path default_export_folder(const std::optional<fs::path>& last, const EnvironmentLookup& environment) {
  fs::path folder = last ? *last : pictures_directory(environment);
  if (folder.is_relative()) folder = working_directory() / folder;
  return folder.lexically_normal();
}

fs::path resolve_export_path(const std::string& typed, const fs::path& folder, const EnvironmentLookup& environment) {
  fs::path path;
  if (typed == "~" || typed.rfind("~/", 0) == 0) {
    const std::optional<fs::path> home = home_of(environment);
    path = home.value_or(working_directory()) / (typed.size() > 2 ? typed.substr(2) : std::string());
  } else {
    path = fs::path(typed);
    if (path.is_relative()) path = folder / path;
  }
  path = path.lexically_normal();
  // "a/b/" stays a folder: lexically_normal keeps the trailing separator, which core reads as one.
  return path;
}

}  // namespace attnviz::export_ui
