// What Help ▸ About lists (core/about/components.h): every library the core computes with, each
// with a version read from the library (a header's first line for stb), a licence and a home.

#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <string>

#include "core/about/components.h"

namespace attnviz::about {
namespace {

TEST(About, EveryCoreLibraryHasAVersionALicenceAndAHome) {
  const std::regex version(R"(^\d+\.\d+(\.\d+)?$)");
  std::set<std::string> names;
  for (const Component& c : core_components()) {
    names.insert(c.name);
    EXPECT_TRUE(std::regex_match(c.version, version)) << c.name << ": \"" << c.version << "\"";
    EXPECT_FALSE(c.licence.empty()) << c.name;
    EXPECT_EQ(c.home.rfind("https://", 0), 0u) << c.name << ": " << c.home;
  }
  for (const char* name : {"Eigen", "nlohmann/json", "utf8proc", "stb_image_write", "stb_truetype", "Vulkan headers",
                           "Vulkan loader", "OpenMP (GCC libgomp)"})
    EXPECT_EQ(names.count(name), 1u) << name;
}

TEST(About, TheVersionIsTheProjects) { EXPECT_EQ(attnviz_version(), ATTNVIZ_VERSION); }

}  // namespace
}  // namespace attnviz::about
