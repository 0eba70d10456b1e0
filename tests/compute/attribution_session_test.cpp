// The Model view's direct logit attribution off the window's thread
// (app/compute/attribution_session.h): the parts sum to the target's logit, which at the last
// position is the logit the window's own pass gives the likeliest next token; a chosen target
// and position are honoured, and an edit moves the parts of the head switched off to 0.

#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "app/compute/attribution_session.h"
#include "app/compute/model_session.h"
#include "model_session_support.h"

namespace attnviz::compute {
namespace {

using model_session_support::gpt2;
using model_session_support::kText;

const LogitAttribution& attribution_of(const ModelSession& session, AttributionSession& dla,
                                       std::optional<int> target = std::nullopt,
                                       std::optional<int> position = std::nullopt) {
  dla.request(session.shared_model(), session.shared_result(), session.shown_edits(),
              AttributionAsk{session.generation(), target, position});
  dla.wait();
  EXPECT_EQ(dla.error(), "");
  EXPECT_NE(dla.attribution(), nullptr);
  return *dla.attribution();
}

double sum(const heads::Attribution& a) {
  double total = 0.0;
  for (const heads::AttributionPart& part : a.parts) total += part.value;
  return total;
}

TEST(AttributionSession, ThePartsSumToTheLogitTheWindowsPassGivesTheNextToken) {
  ModelSession session;
  session.open(gpt2(), kText);
  session.wait();
  ASSERT_NE(session.result(), nullptr);
  AttributionSession dla;
  const LogitAttribution& got = attribution_of(session, dla);
  const model::ForwardResult& result = *session.result();
  EXPECT_EQ(got.ask.source, session.generation());
  EXPECT_EQ(got.attribution.position, static_cast<int>(result.ids.size()) - 1);
  EXPECT_EQ(got.attribution.target, result.next_tokens.front().id);
  EXPECT_NEAR(got.attribution.logit, result.next_tokens.front().logit, 1e-4);
  EXPECT_NEAR(sum(got.attribution), got.attribution.logit, 1e-4);
  const int heads = static_cast<int>(result.layers.front().attention.heads.size());
  int head_parts = 0;
  for (const heads::AttributionPart& part : got.attribution.parts) head_parts += part.kind == heads::PartKind::Head;
  EXPECT_EQ(head_parts, heads * static_cast<int>(result.layers.size()));
}

TEST(AttributionSession, AChosenTargetAndPositionAndAHeadSwitchedOff) {
  ModelSession session;
  session.open(gpt2(), kText);
  session.wait();
  AttributionSession dla;
  const int target = session.result()->next_tokens[3].id;
  const LogitAttribution& chosen = attribution_of(session, dla, target, 2);
  EXPECT_EQ(chosen.attribution.target, target);
  EXPECT_EQ(chosen.attribution.position, 2);
  EXPECT_NEAR(sum(chosen.attribution), chosen.attribution.logit, 1e-4);

  session.set_head_factor(0, 1, 0.0f);
  session.wait();
  const LogitAttribution& off = attribution_of(session, dla);  // the edited pass's likeliest token
  EXPECT_EQ(off.attribution.target, session.result()->next_tokens.front().id);
  EXPECT_NEAR(off.attribution.logit, session.result()->next_tokens.front().logit, 1e-4);
  EXPECT_NEAR(sum(off.attribution), off.attribution.logit, 1e-4);
  for (const heads::AttributionPart& part : off.attribution.parts) {
    if (part.kind == heads::PartKind::Head && part.layer == 0 && part.head == 1) {
      EXPECT_EQ(part.value, 0.0);
    }
  }
}

TEST(AttributionSession, AfterClearNothingIsShownAndTheOldAskIsDropped) {
  ModelSession session;
  session.open(gpt2(), kText);
  session.wait();
  AttributionSession dla;
  dla.request(session.shared_model(), session.shared_result(), session.shown_edits(),
              AttributionAsk{session.generation(), std::nullopt, std::nullopt});
  dla.clear();
  dla.wait();
  EXPECT_EQ(dla.attribution(), nullptr);
  EXPECT_EQ(dla.requested().source, 0u);
}

}  // namespace
}  // namespace attnviz::compute
