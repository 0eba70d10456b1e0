// The Heatmaps toolbar names how query heads share keys and values (issue 11: a multi-query
// scenario was described as "grouped K/V").
#include <gtest/gtest.h>

#include "app/panels/heatmaps_parts.h"

namespace attnviz::panels {
namespace {

TEST(KvSharing, NamesMultiQueryAndGroupedQueryAttention) {
  EXPECT_EQ(kv_sharing(4, 4), "");
  EXPECT_EQ(kv_sharing(1, 1), "");
  EXPECT_EQ(kv_sharing(4, 1), "  \u00B7  MQA: 1 K/V head for all 4");
  EXPECT_EQ(kv_sharing(8, 2), "  \u00B7  GQA: 2 K/V heads, 4 queries each");
  EXPECT_EQ(kv_sharing(4, 1).find("grouped"), std::string::npos);
}

}  // namespace
}  // namespace attnviz::panels
