#pragma once
// QueryRowSession: the overview's pinned query, its exact weights over every key of a long
// text (core/overview/query_row.h), computed on a thread of its own below the window's
// priority (the one Worker): tens of milliseconds at 65,536 tokens (the head's keys projected again), longer
// while a mask expression's runs are found. A newer ask replaces one not yet started; the one
// in flight finishes and is kept only if it is still the one asked for.

#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "core/common/worker.h"
#include "core/overview/query_row.h"

namespace attnviz::compute {

class QueryRowSession {
 public:
  QueryRowSession();
  ~QueryRowSession();
  QueryRowSession(const QueryRowSession&) = delete;
  QueryRowSession& operator=(const QueryRowSession&) = delete;

  // Computes head `head`'s row `query` of `problem` (the overview shown's: the same tokens and
  // settings), unless it is what was asked last.
  void request(std::shared_ptr<const Problem> problem, int head, int query);
  // The row last finished, if it is the one asked last (null otherwise, or while computing).
  [[nodiscard]] std::shared_ptr<const overview::QueryRow> row() const;
  // Forgets the ask and its row (and so lets go of the problem: hundreds of MB at 65,536 tokens).
  void clear();
  [[nodiscard]] bool running() const;
  // Why the last ask failed ("" when it did not).
  [[nodiscard]] std::string error() const;

 private:
  struct Ask {
    std::shared_ptr<const Problem> problem;
    int head = 0;
    int query = 0;
    [[nodiscard]] bool same(const Ask& other) const {
      return problem == other.problem && head == other.head && query == other.query;
    }
  };
  void compute(Ask ask);

  mutable std::mutex mutex_;
  std::optional<Ask> asked_;                       // the last ask
  std::shared_ptr<const overview::QueryRow> row_;  // for asked_ when done_ is set
  bool done_ = false;
  std::string error_;
  std::unique_ptr<overview::OverviewRunner> runner_;
  Worker worker_{10};  // last: stopped and joined before the rest goes
};

}  // namespace attnviz::compute
