#include <gtest/gtest.h>

#include <fstream>

#include "app/document/autosave.h"

namespace attnviz::document {
namespace {

namespace fs = std::filesystem;
using std::chrono::milliseconds;

class AutosaveTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("attnviz-autosave-" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

Scenario sentence(const std::string& text) {
  Scenario s;
  s.sentence = text;
  return s;
}

TEST_F(AutosaveTest, WritesOnlyAfterEditsSettleAndRestoresAtTheNextStart) {
  const fs::path file = dir_ / "attnviz" / "autosave.json";
  Autosave autosave(file, milliseconds(500));
  Document doc(sentence("first"));
  const auto t0 = Autosave::Clock::time_point{} + std::chrono::hours(1);
  autosave.tick(doc, t0);
  doc.apply(sentence("어제 밤에 배가 고파서"), "Sentence");
  autosave.tick(doc, t0 + milliseconds(100));
  autosave.tick(doc, t0 + milliseconds(400));
  EXPECT_FALSE(fs::exists(file)) << "still typing: nothing written yet";
  autosave.tick(doc, t0 + milliseconds(700));
  ASSERT_TRUE(fs::exists(file)) << autosave.last_error();

  Autosave next_start(file);
  const std::optional<LoadedScenario> restored = next_start.restore();
  ASSERT_TRUE(restored.has_value()) << next_start.last_error();
  EXPECT_EQ(restored->scenario.sentence, "어제 밤에 배가 고파서");
}

TEST_F(AutosaveTest, FlushWritesImmediatelyOnExit) {
  const fs::path file = dir_ / "a.json";
  Autosave autosave(file);
  Document doc(sentence("x"));
  doc.apply(sentence("y z"), "Sentence");
  autosave.flush(doc);
  EXPECT_EQ(Autosave(file).restore()->scenario.sentence, "y z");
}

TEST_F(AutosaveTest, ABrokenFileIsReportedAndKeptNotFatal) {
  fs::create_directories(dir_);
  const fs::path file = dir_ / "a.json";
  std::ofstream(file) << "{ not json";
  Autosave autosave(file);
  EXPECT_FALSE(autosave.restore().has_value());
  EXPECT_NE(autosave.last_error().find("a.json"), std::string::npos) << autosave.last_error();
  EXPECT_TRUE(fs::exists(file));
}

// A preset's title describes the preset: after the sentence and the heads changed it is not
// kept, so the next start does not show "the Korean worked example (8 tokens, one head)" over
// five tokens and four heads. A title the user set (or kept in Save As) is.
TEST_F(AutosaveTest, ATitleThatNoLongerDescribesTheContentIsNotKept) {
  const fs::path file = dir_ / "autosave.json";
  Scenario korean = sentence("어제 밤에 배가 고파서");
  korean.title = "the Korean worked example (one head)";
  Document doc(korean);
  Scenario edited = korean;
  edited.sentence = "one two three four five";
  edited.num_heads = 4;
  doc.apply(edited, "Edit");
  Autosave autosave(file);
  autosave.flush(doc);
  std::optional<LoadedScenario> restored = autosave.restore();
  ASSERT_TRUE(restored.has_value()) << autosave.last_error();
  EXPECT_EQ(restored->scenario.title, "");
  EXPECT_EQ(restored->scenario.num_heads, 4);

  edited.title = "Five tokens, four heads";  // a new title describes what is there now
  doc.apply(edited, "Title");
  autosave.flush(doc);
  EXPECT_EQ(autosave.restore()->scenario.title, "Five tokens, four heads");
}

TEST_F(AutosaveTest, NoFileMeansNothingToRestore) {
  Autosave autosave(dir_ / "none.json");
  EXPECT_FALSE(autosave.restore().has_value());
  EXPECT_TRUE(autosave.last_error().empty());
}

TEST_F(AutosaveTest, FollowsXdgConfigHome) {
  ::setenv("XDG_CONFIG_HOME", "/tmp/attnviz-xdg", 1);
  EXPECT_EQ(Autosave::default_file(), fs::path("/tmp/attnviz-xdg/attnviz/autosave.json"));
  ::unsetenv("XDG_CONFIG_HOME");
}

}  // namespace
}  // namespace attnviz::document
