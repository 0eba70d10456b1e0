// The colormap tables against the published values they were taken from, and the lookup rules.

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "core/export/colormap.h"

namespace attnviz::exporting {
namespace {

void expect_colour(Rgb actual, float r, float g, float b, float tolerance = 1e-6f) {
  EXPECT_NEAR(actual.r, r, tolerance);
  EXPECT_NEAR(actual.g, g, tolerance);
  EXPECT_NEAR(actual.b, b, tolerance);
}

Rgb hex(unsigned value) {
  return {static_cast<float>((value >> 16) & 0xFF) / 255.0f, static_cast<float>((value >> 8) & 0xFF) / 255.0f,
          static_cast<float>(value & 0xFF) / 255.0f};
}

// First and last entries as printed in matplotlib's _cm_listed.py.
TEST(Colormap, EndsMatchThePublishedTables) {
  const auto& viridis = colormap(ColormapId::Viridis).table();
  expect_colour(viridis[0], 0.267004f, 0.004874f, 0.329415f);
  expect_colour(viridis[255], 0.993248f, 0.906157f, 0.143936f);
  const auto& magma = colormap(ColormapId::Magma).table();
  expect_colour(magma[0], 0.001462f, 0.000466f, 0.013866f);
  expect_colour(magma[255], 0.987053f, 0.991438f, 0.749504f);
  const auto& cividis = colormap(ColormapId::Cividis).table();
  expect_colour(cividis[0], 0.0f, 0.135112f, 0.304751f);
  expect_colour(cividis[255], 0.995737f, 0.909344f, 0.217772f);
}

// ColorBrewer RdBu, blue end first: entries 0, 51, 102, 153, 204 and 255 fall exactly on the
// stops 0, 2, 4, 6, 8 and 10 of the 11 published colours; the middle is near white.
TEST(Colormap, RdBuRunsFromBlueThroughWhiteToRed) {
  const Colormap& rdbu = colormap(ColormapId::RdBu);
  EXPECT_TRUE(rdbu.diverging());
  const unsigned stops[] = {0x053061, 0x4393c3, 0xd1e5f0, 0xfddbc7, 0xd6604d, 0x67001f};
  for (int k = 0; k < 6; ++k) {
    const Rgb expected = hex(stops[k]);
    expect_colour(rdbu.table()[static_cast<std::size_t>(51 * k)], expected.r, expected.g, expected.b, 1e-5f);
  }
  const Rgb middle = rdbu.at(0.5f);
  EXPECT_GT(std::min({middle.r, middle.g, middle.b}), 0.9f);
  EXPECT_GT(rdbu.at(0.0f).b, rdbu.at(0.0f).r);  // negative: blue
  EXPECT_GT(rdbu.at(1.0f).r, rdbu.at(1.0f).b);  // positive: red
}

// A published property of viridis, magma and cividis (and a guard against a mistyped entry).
TEST(Colormap, SequentialMapsGetLighterAtEveryStepAndChangeSmoothly) {
  for (const ColormapId id : {ColormapId::Viridis, ColormapId::Magma, ColormapId::Cividis}) {
    const auto& table = colormap(id).table();
    EXPECT_FALSE(colormap(id).diverging());
    for (std::size_t i = 1; i < table.size(); ++i) {
      EXPECT_GT(relative_luminance(table[i]), relative_luminance(table[i - 1]))
          << colormap(id).name() << " entry " << i;
      EXPECT_LT(std::abs(table[i].r - table[i - 1].r), 0.02f) << colormap(id).name() << " entry " << i;
      EXPECT_LT(std::abs(table[i].g - table[i - 1].g), 0.02f) << colormap(id).name() << " entry " << i;
      EXPECT_LT(std::abs(table[i].b - table[i - 1].b), 0.02f) << colormap(id).name() << " entry " << i;
    }
  }
}

TEST(Colormap, LookupIndexesLikeMatplotlib) {
  EXPECT_EQ(Colormap::entry_index(0.0f), 0);
  EXPECT_EQ(Colormap::entry_index(-3.0f), 0);
  EXPECT_EQ(Colormap::entry_index(std::nanf("")), 0);
  EXPECT_EQ(Colormap::entry_index(0.5f), 128);
  EXPECT_EQ(Colormap::entry_index(255.5f / 256.0f), 255);
  EXPECT_EQ(Colormap::entry_index(1.0f), 255);
  EXPECT_EQ(Colormap::entry_index(7.0f), 255);
  const Colormap& viridis = colormap(ColormapId::Viridis);
  EXPECT_EQ(viridis.at(1.0f), viridis.table()[255]);
}

TEST(Colormap, NamesRoundTrip) {
  const std::vector<std::string> names = colormap_names();
  ASSERT_EQ(names, (std::vector<std::string>{"viridis", "magma", "cividis", "rdbu"}));
  for (const std::string& name : names) {
    const auto id = colormap_from_name(name);
    ASSERT_TRUE(id.has_value()) << name;
    EXPECT_EQ(colormap(*id).name(), name);
  }
  EXPECT_FALSE(colormap_from_name("jet").has_value());
  EXPECT_FALSE(colormap_from_name("Viridis").has_value());
}

TEST(Colormap, ParsingRejectsMalformedTables) {
  EXPECT_THROW(parse_colormap_table("0,0,0\n", "one.csv"), std::runtime_error);
  EXPECT_THROW(parse_colormap_table("0,0\n1,1,1\n", "short.csv"), std::runtime_error);
  EXPECT_THROW(parse_colormap_table("0,0,0\n1,1,1.5\n", "range.csv"), std::runtime_error);
  EXPECT_THROW(parse_colormap_table("0,0,0\n1,x,1\n", "text.csv"), std::runtime_error);
  try {
    parse_colormap_table("# comment\n0,0,0\n1,1,2\n", "bad.csv");
    FAIL() << "expected an error";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find("bad.csv:3"), std::string::npos) << error.what();
  }
}

TEST(Colormap, TwoStopsInterpolateLinearly) {
  const auto table = parse_colormap_table("# black to white\n0,0,0\n1,1,1\n", "grey.csv");
  expect_colour(table[0], 0, 0, 0);
  expect_colour(table[255], 1, 1, 1);
  expect_colour(table[51], 0.2f, 0.2f, 0.2f, 1e-6f);
}

TEST(Colormap, TextColourContrastsWithTheCell) {
  const Colormap& viridis = colormap(ColormapId::Viridis);
  EXPECT_EQ(contrasting_text_colour(viridis.at(1.0f)), (Rgb{0, 0, 0}));  // yellow: black text
  EXPECT_EQ(contrasting_text_colour(viridis.at(0.0f)), (Rgb{1, 1, 1}));  // dark purple: white text
  EXPECT_NEAR(relative_luminance({1, 1, 1}), 1.0f, 1e-6f);
  EXPECT_NEAR(relative_luminance({0, 0, 0}), 0.0f, 1e-6f);
}

}  // namespace
}  // namespace attnviz::exporting
