#include "core/common/worker.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <stdexcept>
#include <thread>
#include <vector>

namespace attnviz {
namespace {

using namespace std::chrono_literals;

// A task that runs until it is asked to stop, saying when it has started.
WorkerTask until_stopped(std::promise<void>& started, std::atomic<bool>& saw_stop) {
  return [&started, &saw_stop](const TaskContext& task) {
    started.set_value();
    while (!task.stop.stop_requested()) std::this_thread::sleep_for(1ms);
    saw_stop = true;
  };
}

TEST(Worker, RunsATaskAndBecomesIdle) {
  Worker worker;
  std::atomic<int> runs{0};
  const std::uint64_t id = worker.submit([&](const TaskContext& task) {
    EXPECT_EQ(task.id, 1u);
    ++runs;
  });
  EXPECT_EQ(id, 1u);
  worker.wait_idle();
  EXPECT_EQ(runs, 1);
  EXPECT_TRUE(worker.idle());
  EXPECT_FALSE(worker.active().has_value());
}

TEST(Worker, CancelStopsTheRunningTaskAndDropsTheWaitingOne) {
  Worker worker;
  std::promise<void> started;
  std::atomic<bool> saw_stop{false};
  worker.submit(until_stopped(started, saw_stop));
  started.get_future().wait();
  worker.set_paused(true);  // keeps the next one waiting
  std::atomic<bool> waiting_ran{false};
  // Submitting stops the running task; pause so the waiting one is still there to cancel.
  worker.submit([&](const TaskContext&) { waiting_ran = true; });
  const CancelOutcome outcome = worker.cancel();
  EXPECT_TRUE(outcome.dropped_waiting);
  worker.set_paused(false);
  worker.wait_idle();
  EXPECT_TRUE(saw_stop);
  EXPECT_FALSE(waiting_ran);
}

TEST(Worker, ANewerTaskReplacesTheWaitingOneAndStopsTheRunningOne) {
  Worker worker;
  std::promise<void> started;
  std::atomic<bool> saw_stop{false};
  worker.submit(until_stopped(started, saw_stop));
  started.get_future().wait();
  worker.set_paused(true);
  std::vector<int> ran;
  std::mutex ran_mutex;
  for (int i = 0; i < 3; ++i) {
    worker.submit([&, i](const TaskContext&) {
      const std::lock_guard lock(ran_mutex);
      ran.push_back(i);
    });
  }
  worker.set_paused(false);
  worker.wait_idle();
  EXPECT_TRUE(saw_stop);
  EXPECT_EQ(ran, std::vector<int>{2});  // only the latest request ran
}

TEST(Worker, ShutsDownWhileBusyAndEndsOnItsOwnThread) {
  std::promise<void> started;
  std::atomic<bool> saw_stop{false};
  std::thread::id exit_thread;
  std::thread::id task_thread;
  {
    Worker worker(0, [&] { exit_thread = std::this_thread::get_id(); });
    worker.submit([&](const TaskContext& task) {
      task_thread = std::this_thread::get_id();
      started.set_value();
      while (!task.stop.stop_requested()) std::this_thread::sleep_for(1ms);
      saw_stop = true;
    });
    started.get_future().wait();
  }  // the destructor stops the task and waits for it
  EXPECT_TRUE(saw_stop);
  EXPECT_EQ(exit_thread, task_thread);
  EXPECT_NE(exit_thread, std::this_thread::get_id());
}

TEST(Worker, AnExceptionInATaskIsReportedAndTheWorkerGoesOn) {
  Worker worker;
  worker.submit([](const TaskContext&) { throw std::runtime_error("the file vanished"); });
  worker.wait_idle();
  EXPECT_EQ(worker.take_escaped_failure(), "the file vanished");
  EXPECT_FALSE(worker.take_escaped_failure().has_value());  // said once
  std::atomic<bool> ran{false};
  worker.submit([&](const TaskContext&) { ran = true; });
  worker.wait_idle();
  EXPECT_TRUE(ran);
}

TEST(Worker, ProgressIsTheRunningTasksAndStartsAfreshWithEachTask) {
  Worker worker;
  std::promise<void> reported;
  std::promise<void> go_on;
  std::shared_future<void> go = go_on.get_future().share();
  worker.submit([&](const TaskContext&) {
    worker.report({"layer 3 of 12", 0.25});
    reported.set_value();
    go.wait();
  });
  reported.get_future().wait();
  EXPECT_EQ(worker.progress().stage, "layer 3 of 12");
  EXPECT_DOUBLE_EQ(worker.progress().fraction, 0.25);
  go_on.set_value();
  worker.wait_idle();
  std::promise<void> second_started;
  std::promise<void> second_go;
  std::shared_future<void> second = second_go.get_future().share();
  worker.submit([&](const TaskContext&) {
    second_started.set_value();
    second.wait();
  });
  second_started.get_future().wait();
  EXPECT_EQ(worker.progress().stage, "");
  EXPECT_DOUBLE_EQ(worker.progress().fraction, 0.0);
  second_go.set_value();
  worker.wait_idle();  // the task holds references to this test's promises until it returns
}

TEST(Worker, ActiveSaysWhatRunsElseWhatWaits) {
  Worker worker;
  worker.set_paused(true);
  worker.submit([](const TaskContext&) {}, 2, "gpt2/");
  std::optional<ActiveTask> active = worker.active();
  ASSERT_TRUE(active.has_value());
  EXPECT_EQ(active->kind, 2);
  EXPECT_EQ(active->subject, "gpt2/");
  EXPECT_FALSE(active->started);
  EXPECT_TRUE(worker.has_waiting());

  std::promise<void> started;
  std::atomic<bool> saw_stop{false};
  worker.submit(until_stopped(started, saw_stop), 7, "endless");
  worker.set_paused(false);
  started.get_future().wait();
  active = worker.active();
  ASSERT_TRUE(active.has_value());
  EXPECT_EQ(active->kind, 7);
  EXPECT_TRUE(active->started);
  EXPECT_EQ(active->id, 2u);
  const CancelOutcome outcome = worker.cancel();
  EXPECT_TRUE(outcome.stopping_running);
  EXPECT_FALSE(outcome.dropped_waiting);
  worker.wait_idle();
  EXPECT_TRUE(saw_stop);
}

}  // namespace
}  // namespace attnviz
