#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "app/document/autosave.h"

namespace attnviz::document {
namespace {

namespace fs = std::filesystem;
using std::chrono::milliseconds;

class AutosaveTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("attnviz-autosave-" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
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

std::vector<std::string> names_in(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

std::string read(const fs::path& path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

// A second broken autosave replaced the autosave.json.broken the first notice promised to
// keep: each is kept under a name of its own.
TEST_F(AutosaveTest, EachBrokenAutosaveIsKeptUnderItsOwnName) {
  fs::create_directories(dir_);
  const fs::path file = dir_ / "autosave.json";
  std::vector<fs::path> kept;
  for (const char* broken : {"{ first broken", "{ second broken", "{ third broken"}) {
    std::ofstream(file) << broken;
    Autosave autosave(file);
    EXPECT_FALSE(autosave.restore().has_value());
    const std::optional<fs::path> moved = autosave.keep_broken();
    ASSERT_TRUE(moved.has_value());
    EXPECT_NE(moved->filename().string().find("autosave.json.broken-"), std::string::npos) << *moved;
    EXPECT_EQ(read(*moved), broken);
    kept.push_back(*moved);
  }
  EXPECT_EQ(names_in(dir_).size(), 3u);
  EXPECT_FALSE(fs::exists(file));
}

// Two windows on one config directory wrote the same autosave.json: the second one's work
// silently replaced the first's. Each window now claims a file of its own.
TEST_F(AutosaveTest, TwoWindowsOnOneFolderGetTwoFiles) {
  Autosave first = Autosave::claim(dir_);
  Autosave second = Autosave::claim(dir_);
  EXPECT_EQ(first.file(), dir_ / "autosave.json");
  EXPECT_EQ(second.file(), dir_ / "autosave-2.json");
  Document a(sentence("work of the first window"));
  Document b(sentence("work of the second window"));
  a.apply(sentence("first window, edited"), "Sentence");
  b.apply(sentence("second window, edited"), "Sentence");
  first.flush(a);
  second.flush(b);
  EXPECT_EQ(Autosave(first.file()).restore()->scenario.sentence, "first window, edited");
  EXPECT_EQ(Autosave(second.file()).restore()->scenario.sentence, "second window, edited");
  // While the second runs, the first's next start does not touch its file.
  EXPECT_TRUE(first.adopt_other_windows_work().empty());
}

// What a second window left behind is offered once at the next start, under a name no window
// writes to, and never overwritten.
TEST_F(AutosaveTest, AClosedWindowsWorkIsHandedOverAtTheNextStart) {
  {
    Autosave first = Autosave::claim(dir_);
    Autosave second = Autosave::claim(dir_);
    Document b(sentence("second"));
    b.apply(sentence("the second window's work"), "Sentence");
    second.flush(b);
  }  // both windows closed
  Autosave next = Autosave::claim(dir_);
  EXPECT_EQ(next.slot(), 1);
  const std::vector<fs::path> adopted = next.adopt_other_windows_work();
  ASSERT_EQ(adopted.size(), 1u);
  EXPECT_NE(adopted[0].filename().string().find("unsaved-work-"), std::string::npos) << adopted[0];
  EXPECT_EQ(Autosave(adopted[0]).restore()->scenario.sentence, "the second window's work");
  EXPECT_FALSE(fs::exists(dir_ / "autosave-2.json"));
  EXPECT_TRUE(next.adopt_other_windows_work().empty()) << "offered once";
}

// The lock is the operating system's: a window that is killed releases its file.
TEST_F(AutosaveTest, AKilledWindowsFileIsFreeAgain) {
  fs::create_directories(dir_);
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  const pid_t child = ::fork();
  if (child == 0) {
    Autosave held = Autosave::claim(dir_);
    char byte = held.slot() == 1 ? '1' : 'x';
    (void)::write(ready[1], &byte, 1);
    ::pause();
    ::_exit(0);
  }
  char byte = 0;
  ASSERT_EQ(::read(ready[0], &byte, 1), 1);
  EXPECT_EQ(byte, '1');
  EXPECT_EQ(Autosave::claim(dir_).slot(), 2) << "held by the child";
  ::kill(child, SIGKILL);
  ::waitpid(child, nullptr, 0);
  EXPECT_EQ(Autosave::claim(dir_).slot(), 1) << "released when the child was killed";
  ::close(ready[0]);
  ::close(ready[1]);
}

// Each kill during a write left a 2 MiB autosave.json.tmp-PID forever: those of processes that
// no longer run are removed at the next start; a running writer's are left alone.
TEST_F(AutosaveTest, TemporaryFilesOfKilledWritersAreRemovedAtStart) {
  fs::create_directories(dir_);
  const pid_t gone = ::fork();
  if (gone == 0) ::_exit(0);
  ::waitpid(gone, nullptr, 0);
  const std::string dead = std::to_string(gone);
  const std::string alive = std::to_string(::getpid());
  for (const std::string& name :
       {"autosave.json.tmp-" + dead, "autosave-2.json.tmp-" + dead + "-3", "autosave.json.tmp-" + alive + "-0",
        "other.json.tmp-" + dead, std::string("autosave.json")}) {
    std::ofstream(dir_ / name) << std::string(1024, 'x');
  }
  Autosave claimed = Autosave::claim(dir_);
  std::vector<std::string> left = names_in(dir_);
  std::erase_if(left, [](const std::string& name) { return name.ends_with(".lock"); });
  EXPECT_EQ(left,
            (std::vector<std::string>{"autosave.json", "autosave.json.tmp-" + alive + "-0", "other.json.tmp-" + dead}));
}

// Only a regular file is restored: a FIFO at the autosave's name froze the window at start.
TEST_F(AutosaveTest, AFifoInsteadOfTheAutosaveIsRefusedAtOnce) {
  fs::create_directories(dir_);
  const fs::path file = dir_ / "autosave.json";
  ASSERT_EQ(::mkfifo(file.c_str(), 0600), 0);
  Autosave autosave(file);
  EXPECT_FALSE(autosave.restore().has_value());
  EXPECT_NE(autosave.last_error().find("not a regular file"), std::string::npos) << autosave.last_error();
  // Nor does writing wait for a reader.
  Document doc(sentence("x"));
  doc.apply(sentence("y"), "Sentence");
  autosave.flush(doc);
  EXPECT_NE(autosave.last_error().find("no program is reading"), std::string::npos) << autosave.last_error();
}

}  // namespace
}  // namespace attnviz::document
