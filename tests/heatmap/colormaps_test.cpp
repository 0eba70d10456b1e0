// The window draws with exactly the colours export writes (core/export/colormap.h).
#include "app/heatmap/colormaps.h"

#include <gtest/gtest.h>

#include "core/export/colormap.h"

namespace attnviz::heatmap {
namespace {

TEST(Colormaps, TheShaderTableIsTheExportTables) {
  const auto table = shader_table();
  ASSERT_EQ(table.size(), static_cast<std::size_t>(kColormapCount * kColormapEntries));
  const std::pair<Colormap, exporting::ColormapId> pairs[] = {{Colormap::Viridis, exporting::ColormapId::Viridis},
                                                              {Colormap::Magma, exporting::ColormapId::Magma},
                                                              {Colormap::Cividis, exporting::ColormapId::Cividis},
                                                              {Colormap::RdBu, exporting::ColormapId::RdBu}};
  for (const auto& [ours, theirs] : pairs) {
    const auto& expected = exporting::colormap(theirs).table();
    for (int e = 0; e < kColormapEntries; ++e) {
      const auto& entry = table[static_cast<std::size_t>(static_cast<int>(ours) * kColormapEntries + e)];
      ASSERT_EQ(entry[0], expected[static_cast<std::size_t>(e)].r) << colormap_name(ours) << " entry " << e;
      ASSERT_EQ(entry[1], expected[static_cast<std::size_t>(e)].g);
      ASSERT_EQ(entry[2], expected[static_cast<std::size_t>(e)].b);
      ASSERT_EQ(entry[3], 1.0f);
    }
    for (float t : {0.0f, 0.1f, 0.5f, 0.999f, 1.0f}) {
      const exporting::Rgb c = exporting::colormap(theirs).at(t);
      EXPECT_EQ(sample(ours, t).r, c.r);
      EXPECT_EQ(sample(ours, t).g, c.g);
      EXPECT_EQ(sample(ours, t).b, c.b);
    }
  }
}

TEST(Colormaps, ScoresAreDivergingWeightsSequential) {
  EXPECT_TRUE(is_diverging(Colormap::RdBu));
  EXPECT_FALSE(is_diverging(Colormap::Viridis));
  EXPECT_FALSE(is_diverging(Colormap::Blues));
  // RdBu: blue for negative, white-ish at 0, red for positive.
  EXPECT_GT(sample(Colormap::RdBu, 0.0f).b, sample(Colormap::RdBu, 0.0f).r);
  EXPECT_GT(sample(Colormap::RdBu, 1.0f).r, sample(Colormap::RdBu, 1.0f).b);
  EXPECT_GT(sample(Colormap::RdBu, 0.5f).g, 0.9f);
  // Blues runs from near white to dark blue.
  EXPECT_GT(sample(Colormap::Blues, 0.0f).g, 0.95f);
  EXPECT_LT(sample(Colormap::Blues, 1.0f).r, 0.1f);
}

TEST(Colormaps, TextOnCellsContrasts) {
  EXPECT_EQ(contrasting_text_colour({0.0f, 0.0f, 0.2f}), 0xffffffffu);   // white on dark blue
  EXPECT_EQ(contrasting_text_colour({1.0f, 0.95f, 0.3f}), 0xff000000u);  // black on yellow
}

}  // namespace
}  // namespace attnviz::heatmap
