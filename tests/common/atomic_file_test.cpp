#include <gtest/gtest.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>
#include <algorithm>

#include "core/common/atomic_file.h"

namespace attnviz {
namespace {

namespace fs = std::filesystem;

std::string read(const fs::path& path) {
  std::ifstream file(path, std::ios::binary);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

class AtomicFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("attnviz-atomic-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(AtomicFile, WritesAndReplacesWholeFiles) {
  const fs::path path = dir_ / "out.json";
  write_file_atomically(path, "first");
  write_file_atomically(path, std::string("sec\0ond", 7));
  EXPECT_EQ(read(path), std::string("sec\0ond", 7));
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 1);
}

TEST_F(AtomicFile, FailureNamesThePathAndLeavesTheOldFileAndNoTemporary) {
  const fs::path path = dir_ / "keep.txt";
  write_file_atomically(path, "old");
  // A directory where the target file should be: rename fails after the temp file is written.
  const fs::path blocked = dir_ / "blocked";
  fs::create_directories(blocked / "child");
  try {
    write_file_atomically(blocked, "new");
    FAIL() << "expected an error";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find(blocked.string()), std::string::npos) << error.what();
  }
  EXPECT_EQ(read(path), "old");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 2);  // keep.txt, blocked/
}

TEST_F(AtomicFile, MissingDirectoryIsAClearError) {
  try {
    write_file_atomically(dir_ / "no" / "such" / "dir" / "f.png", "x");
    FAIL() << "expected an error";
  } catch (const FileWriteError& error) {
    EXPECT_NE(std::string(error.what()).find("No such file or directory"), std::string::npos) << error.what();
    EXPECT_TRUE(error.path_problem());  // the command line: bad input, exit 2
  }
}

// Only the entries of `dir`, by name: no temporary file may be left behind.
std::vector<std::string> names_in(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// Run as root, `attnviz compute --out /dev/null` renamed its temporary file over /dev/null. A
// link to /dev/null reproduces it without risking the machine: before the fix the link was
// replaced by a regular file holding the bytes.
TEST_F(AtomicFile, WritesThroughACharacterDeviceInsteadOfReplacingIt) {
  const fs::path link = dir_ / "null";
  fs::create_symlink("/dev/null", link);
  write_file_atomically(link, "to nowhere");
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_TRUE(fs::is_character_file("/dev/null"));
  EXPECT_EQ(names_in(dir_), std::vector<std::string>{"null"});
}

TEST_F(AtomicFile, WritesThroughAFifoToItsReader) {
  const fs::path fifo = dir_ / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string received;
  std::thread reader([&] { received = read(fifo); });
  write_file_atomically(fifo, "through the pipe");
  reader.join();
  EXPECT_EQ(received, "through the pipe");
  EXPECT_TRUE(fs::is_fifo(fifo));
  EXPECT_EQ(names_in(dir_), std::vector<std::string>{"fifo"});
}

TEST_F(AtomicFile, AFifoNobodyReadsIsRefusedAtOnceWhenAskedNotToWait) {
  const fs::path fifo = dir_ / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const auto start = std::chrono::steady_clock::now();
  try {
    write_file_atomically(fifo, "x", WriteOptions{.wait_for_reader = false});
    FAIL() << "expected an error";
  } catch (const FileWriteError& error) {
    EXPECT_NE(std::string(error.what()).find("no program is reading"), std::string::npos) << error.what();
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
  EXPECT_TRUE(fs::is_fifo(fifo));
}

// /dev/stdout is a link to /proc/self/fd/1: the bytes go to the open descriptor (a pipe here),
// whatever it is, and nothing is renamed.
TEST_F(AtomicFile, DevFdNamesAnOpenDescriptorAndIsWrittenThrough) {
  int pipe_fds[2];
  ASSERT_EQ(::pipe(pipe_fds), 0);
  write_file_atomically("/dev/fd/" + std::to_string(pipe_fds[1]), "to the descriptor");
  ::close(pipe_fds[1]);
  char buffer[64] = {};
  const ssize_t got = ::read(pipe_fds[0], buffer, sizeof buffer);
  ::close(pipe_fds[0]);
  EXPECT_EQ(std::string(buffer, got > 0 ? static_cast<std::size_t>(got) : 0), "to the descriptor");
}

TEST_F(AtomicFile, ASymlinkIsFollowedAndTheFileItNamesReplaced) {
  fs::create_directories(dir_ / "real");
  const fs::path file = dir_ / "real" / "data.json";
  write_file_atomically(file, "old");
  const fs::path link = dir_ / "link.json";
  fs::create_symlink("real/data.json", link);
  write_file_atomically(link, "new");
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(read(file), "new");
  EXPECT_EQ(names_in(dir_ / "real"), std::vector<std::string>{"data.json"});
  // A link to a file not there yet creates the file, and stays a link.
  const fs::path dangling = dir_ / "later.json";
  fs::create_symlink("real/later.json", dangling);
  write_file_atomically(dangling, "created");
  EXPECT_TRUE(fs::is_symlink(dangling));
  EXPECT_EQ(read(dir_ / "real" / "later.json"), "created");
}

TEST_F(AtomicFile, AFolderIsRefusedAsAPathProblem) {
  try {
    write_file_atomically(dir_, "x");
    FAIL() << "expected an error";
  } catch (const FileWriteError& error) {
    EXPECT_NE(std::string(error.what()).find("is a folder"), std::string::npos) << error.what();
    EXPECT_TRUE(error.path_problem());
  }
}

TEST_F(AtomicFile, AReplacedFileKeepsItsPermissions) {
  const fs::path path = dir_ / "private.json";
  write_file_atomically(path, "old");
  fs::permissions(path, fs::perms::owner_read | fs::perms::owner_write);
  write_file_atomically(path, "new");
  EXPECT_EQ(fs::status(path).permissions() & fs::perms::all, fs::perms::owner_read | fs::perms::owner_write);
}

TEST_F(AtomicFile, StreamedWritesReplaceOnlyOnCommit) {
  const fs::path path = dir_ / "out.json";
  write_file_atomically(path, "old");
  {
    AtomicFileWriter writer(path);
    writer.write("half of ");
    EXPECT_EQ(read(path), "old");
    // Destroyed without commit (an exception while computing): the old file stays, no temporary.
  }
  EXPECT_EQ(read(path), "old");
  EXPECT_EQ(names_in(dir_), std::vector<std::string>{"out.json"});
  AtomicFileWriter writer(path);
  writer.write("new ");
  writer.write("bytes");
  writer.commit();
  EXPECT_EQ(read(path), "new bytes");
  EXPECT_EQ(names_in(dir_), std::vector<std::string>{"out.json"});
}

TEST_F(AtomicFile, AReadOnlyFileIsRefusedAsCpRefusesIt) {
  const fs::path path = dir_ / "kept.json";
  write_file_atomically(path, "old");
  fs::permissions(path, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
  try {
    write_file_atomically(path, "new");
    FAIL() << "a read-only file was replaced";
  } catch (const FileWriteError& error) {
    EXPECT_NE(std::string(error.what()).find("kept.json: the file is read-only"), std::string::npos) << error.what();
    EXPECT_TRUE(error.path_problem());
  }
  EXPECT_EQ(read(path), "old");
  EXPECT_EQ(names_in(dir_), std::vector<std::string>{"kept.json"});
}

TEST_F(AtomicFile, AFullDeviceIsTheUsersToFixAndNamed) {
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full here";
  try {
    write_file_atomically("/dev/full", "x");
    FAIL() << "/dev/full took a byte";
  } catch (const FileWriteError& error) {
    EXPECT_NE(std::string(error.what()).find("cannot write /dev/full: no space left on device"), std::string::npos)
        << error.what();
    EXPECT_TRUE(error.path_problem());  // the command line: bad input naming --out, exit 2
  }
}

TEST_F(AtomicFile, ATemporaryFileLeftByADeadProcessIsRemovedByTheNextWriter) {
  // A process that has ended: its number is free (reused only after the kernel wraps around).
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  ::waitpid(child, nullptr, 0);
  const fs::path path = dir_ / "out.json";
  std::ofstream(dir_ / ("out.json.tmp-" + std::to_string(child) + "-0")) << "half a file";
  const std::string living = "out.json.tmp-" + std::to_string(::getpid()) + "-99";  // a writer still at work
  std::ofstream(dir_ / living) << "being written";
  std::ofstream(dir_ / "other.json.tmp-1-0") << "someone else's";
  write_file_atomically(path, "new");
  EXPECT_EQ(names_in(dir_), (std::vector<std::string>{"other.json.tmp-1-0", "out.json", living}));
}

TEST_F(AtomicFile, ASignalWhileWritingRemovesTheTemporaryFile) {
  const fs::path path = dir_ / "out.json";
  write_file_atomically(path, "old");
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  const pid_t child = ::fork();
  if (child == 0) {
    remove_temporary_files_on_signals();
    AtomicFileWriter first(path);
    AtomicFileWriter second(dir_ / "second.json");
    first.write("half of ");
    if (::write(ready[1], "x", 1) != 1) ::_exit(1);
    ::pause();  // the SIGTERM ends it here, as a kill ends `attnviz compute --out` mid-write
    ::_exit(0);
  }
  char byte = 0;
  ASSERT_EQ(::read(ready[0], &byte, 1), 1);
  EXPECT_EQ(names_in(dir_).size(), 3u);  // out.json and two temporary files
  ::kill(child, SIGTERM);
  int status = 0;
  ::waitpid(child, &status, 0);
  ::close(ready[0]);
  ::close(ready[1]);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM) << status;  // ended as the signal would
  EXPECT_EQ(names_in(dir_), std::vector<std::string>{"out.json"});
  EXPECT_EQ(read(path), "old");
}

// A set of files written together (core/export's file_set) was left half replaced, with a
// .old-PID-N beside it, by a signal while it went in: the handler puts it back.
TEST_F(AtomicFile, ASignalWhileASetGoesInPutsTheReplacedFilesBackAndRemovesTheNewOnes) {
  const fs::path replaced = dir_ / "scores.csv";
  const fs::path backup = dir_ / "scores.csv.old-1-0";
  const fs::path added = dir_ / "weights.csv";
  const fs::path not_yet = dir_ / "values.csv";
  write_file_atomically(replaced, "old");
  write_file_atomically(not_yet, "old values");
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  const pid_t child = ::fork();
  if (child == 0) {
    remove_temporary_files_on_signals();
    if (::link(replaced.c_str(), backup.c_str()) != 0) ::_exit(1);
    const PlacementUndo undo_replaced(replaced, backup);
    write_file_atomically(replaced, "new");
    const PlacementUndo undo_added(added, "");
    write_file_atomically(added, "new weights");
    // Its second name made, not yet replaced: renaming a file onto itself does nothing.
    const fs::path not_yet_backup = dir_ / "values.csv.old-1-1";
    if (::link(not_yet.c_str(), not_yet_backup.c_str()) != 0) ::_exit(1);
    const PlacementUndo undo_not_yet(not_yet, not_yet_backup);
    if (::write(ready[1], "x", 1) != 1) ::_exit(1);
    ::pause();
    ::_exit(0);
  }
  char byte = 0;
  ASSERT_EQ(::read(ready[0], &byte, 1), 1);
  ::kill(child, SIGTERM);
  int status = 0;
  ::waitpid(child, &status, 0);
  ::close(ready[0]);
  ::close(ready[1]);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM) << status;
  EXPECT_EQ(names_in(dir_), (std::vector<std::string>{"scores.csv", "values.csv"}));
  EXPECT_EQ(read(replaced), "old");
  EXPECT_EQ(read(not_yet), "old values");
}

// Destroyed, it undoes nothing.
TEST_F(AtomicFile, APlacementUndoneOnlyWhileItLives) {
  const fs::path added = dir_ / "weights.csv";
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  const pid_t child = ::fork();
  if (child == 0) {
    remove_temporary_files_on_signals();
    {
      const PlacementUndo undo_added(added, "");
      write_file_atomically(added, "new weights");
    }
    if (::write(ready[1], "x", 1) != 1) ::_exit(1);
    ::pause();
    ::_exit(0);
  }
  char byte = 0;
  ASSERT_EQ(::read(ready[0], &byte, 1), 1);
  ::kill(child, SIGTERM);
  int status = 0;
  ::waitpid(child, &status, 0);
  ::close(ready[0]);
  ::close(ready[1]);
  EXPECT_EQ(read(added), "new weights");
}

TEST(StaleTemporary, NamesTheWritingProcess) {
  EXPECT_EQ(stale_temporary_pid("autosave.json.tmp-4242-0", "autosave.json"), 4242);
  EXPECT_EQ(stale_temporary_pid("autosave.json.tmp-4242", "autosave.json"), 4242);  // older versions
  EXPECT_EQ(stale_temporary_pid("autosave.json", "autosave.json"), std::nullopt);
  EXPECT_EQ(stale_temporary_pid("autosave.json.tmp-", "autosave.json"), std::nullopt);
  EXPECT_EQ(stale_temporary_pid("autosave.json.tmp-12x", "autosave.json"), std::nullopt);
  EXPECT_EQ(stale_temporary_pid("other.json.tmp-12-1", "autosave.json"), std::nullopt);
}

}  // namespace
}  // namespace attnviz
