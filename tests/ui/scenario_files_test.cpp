// Opening and saving from the window: nothing the user did is lost on a failure.
#include "app/ui/scenario_files.h"

#include <gtest/gtest.h>

#include <fstream>

#include "app/document/document.h"
#include "app/ui/notices.h"

namespace attnviz::ui {
namespace {

namespace fs = std::filesystem;

class ScenarioFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("attnviz-scenario-files-" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    Scenario work;
    work.sentence = "my edited sentence";
    document_.reset(work, std::nullopt);
    Scenario edited = work;
    edited.seed = 99;
    document_.apply(edited, "Seed");
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path write(const std::string& name, const std::string& text) const {
    std::ofstream(dir_ / name) << text;
    return dir_ / name;
  }

  fs::path dir_;
  document::Document document_;
  Notices notices_;
};

TEST_F(ScenarioFiles, AFileThatDoesNotLoadLeavesTheWorkUntouched) {
  const Scenario before = document_.scenario();
  const std::uint64_t revision = document_.revision();
  const fs::path bad = write("bad.json", R"({"format": "attnviz-scenario/1", "sentence": "a b", "d_model": "three"})");
  EXPECT_FALSE(open_scenario(document_, notices_, bad.string()));
  EXPECT_EQ(document_.scenario(), before);
  EXPECT_EQ(document_.revision(), revision);
  EXPECT_TRUE(document_.can_undo());
  ASSERT_EQ(notices_.all().size(), 1u);
  EXPECT_EQ(notices_.all()[0].level, NoticeLevel::Error);
  EXPECT_NE(notices_.all()[0].text.find("/d_model"), std::string::npos) << notices_.all()[0].text;
  EXPECT_NE(notices_.all()[0].text.find("unchanged"), std::string::npos);
}

TEST_F(ScenarioFiles, AScenarioThatCannotBeComputedIsRefusedToo) {
  // Parses, but its embeddings have 3 rows for 2 tokens: build_problem refuses it.
  const fs::path bad = write("shape.json", R"({"format": "attnviz-scenario/1", "tokens": ["a", "b"], "d_model": 1,
      "embeddings": [[1], [2], [3]], "num_heads": 1, "num_kv_heads": 1, "d_k": 1, "d_v": 1})");
  const Scenario before = document_.scenario();
  EXPECT_FALSE(open_scenario(document_, notices_, bad.string()));
  EXPECT_EQ(document_.scenario(), before);
  EXPECT_FALSE(notices_.all().empty());
}

TEST_F(ScenarioFiles, OpeningReplacesTheDocumentAndRemembersTheFile) {
  const fs::path good = write("good.json", R"({"format": "attnviz-scenario/1", "sentence": "hello there", "d_model": 2,
      "num_heads": 1, "num_kv_heads": 1, "d_k": 2, "d_v": 2})");
  ASSERT_TRUE(open_scenario(document_, notices_, good.string()));
  EXPECT_EQ(document_.scenario().sentence, "hello there");
  EXPECT_EQ(document_.path(), good);
  EXPECT_FALSE(document_.can_undo());
  EXPECT_FALSE(document_.modified());
  // A preset has no file of its own: Save must ask where.
  ASSERT_TRUE(open_scenario(document_, notices_, "preset:gqa"));
  EXPECT_FALSE(document_.path().has_value());
}

TEST_F(ScenarioFiles, SavingMarksTheDocumentSavedAndAFailureSaysWhere) {
  ASSERT_TRUE(document_.modified());
  const fs::path target = dir_ / "saved.json";
  ASSERT_TRUE(save_scenario_to(document_, notices_, target));
  EXPECT_FALSE(document_.modified());
  EXPECT_EQ(document_.path(), target);
  EXPECT_TRUE(fs::exists(target));

  Scenario edited = document_.scenario();
  edited.seed = 5;
  document_.apply(edited, "Seed");
  const fs::path nowhere = dir_ / "missing-folder" / "x.json";
  EXPECT_FALSE(save_scenario_to(document_, notices_, nowhere));
  EXPECT_TRUE(document_.modified());
  EXPECT_NE(notices_.all().back().text.find("missing-folder"), std::string::npos) << notices_.all().back().text;
}

}  // namespace
}  // namespace attnviz::ui
