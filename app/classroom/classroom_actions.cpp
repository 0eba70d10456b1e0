#include "app/classroom/classroom_actions.h"

#include <algorithm>

#include "app/classroom/classroom_edits.h"
#include "app/classroom/view_steps.h"
#include "app/document/document.h"
#include "app/i18n/translate.h"
#include "app/ui/keys.h"
#include "core/common/number_text.h"
#include "core/lesson/steps.h"

namespace attnviz::classroom {
namespace {

// None of these collide with the window's keys (Ctrl+letters, F8–F10, Ctrl+= / - / 0): the
// menu ignores presses with Ctrl, Alt or Super held.
constexpr int kKeys[] = {
    ui::keys::kRight,   ui::keys::kPageDown, ui::keys::kLeft,    ui::keys::kPageUp,  ui::keys::kHome,
    ui::keys::kEnd,     ui::keys::kDown,     ui::keys::kUp,      ui::keys::key('h'), ui::keys::key('c'),
    ui::keys::key('m'), ui::keys::key('s'),  ui::keys::key('t'), ui::keys::key('x'), ui::keys::key('a'),
    ui::keys::key('n'), ui::keys::key('r'),  ui::keys::key('w'), ui::keys::key('1'), ui::keys::key('2'),
    ui::keys::key('3'), ui::keys::key('4'),  ui::keys::key('5'), ui::keys::key('6'), ui::keys::key('7'),
    ui::keys::key('p'), ui::keys::kF11,      ui::keys::kEscape,  ui::keys::kF1};

constexpr int kMaxWindow = 8;  // the compare toolbar's slider

// Left / Right / Home / End in the view on screen (a big delta reaches the first or last step).
// Stepping by hand stops the play button: the teacher has taken over.
void move_step(ActionTarget& t, int delta) {
  const ui::MainView shown = t.state.shown;
  ViewStates& views = t.views;
  switch (shown) {
    case ui::MainView::Tiled:
      views.tiled.playback.playing = false;
      views.tiled.tile = moved_step(views.tiled.tile, delta, t.tiles);
      break;
    case ui::MainView::Decode:
      views.decode.playback.playing = false;
      views.decode.step = moved_step(views.decode.step, delta, t.decode_steps);
      break;
    default: views.step = moved_step(views.step, delta, lesson::kStepCount); break;
  }
}

void toggle_play(ActionTarget& t) {
  const ui::MainView shown = t.state.shown;
  ViewStates& views = t.views;
  if (shown == ui::MainView::Tiled) toggle_playback(views.tiled.playback, views.tiled.tile, t.tiles, t.now);
  if (shown == ui::MainView::Decode) toggle_playback(views.decode.playback, views.decode.step, t.decode_steps, t.now);
}

constexpr int kToTheEnd = 1 << 30;

void next_head(ActionTarget& t, int delta) {
  if (t.heads <= 0) return;
  t.view.selected_head = ((t.view.selected_head + delta) % t.heads + t.heads) % t.heads;
}

// From the query the view on screen follows: in the step view, the first token is followed
// before any is pinned, so Down goes to the second (pinning the first would change nothing).
void next_query(ActionTarget& t, int delta) {
  if (t.queries <= 0) return;
  const std::optional<int> followed = followed_query(t.view.pinned_query, t.state.shown, t.queries);
  const int current = followed.value_or(delta > 0 ? -1 : t.queries);
  t.view.pinned_query = std::clamp(current + delta, 0, t.queries - 1);
}

lesson::CompareAxis next_axis(lesson::CompareAxis axis, int delta) {
  const int count = lesson::kCompareAxisCount;  // masks, heads, K/V heads, positions, patterns
  return static_cast<lesson::CompareAxis>(((static_cast<int>(axis) + delta) % count + count) % count);
}

std::string axis_notice(lesson::CompareAxis axis) {
  switch (axis) {
    case lesson::CompareAxis::Masks: return i18n::tr("Compare: masks");
    case lesson::CompareAxis::Heads: return i18n::tr("Compare: number of heads");
    case lesson::CompareAxis::KvHeads: return i18n::tr("Compare: MHA / GQA / MQA");
    case lesson::CompareAxis::Positions: return i18n::tr("Compare: positions (none, sinusoidal, RoPE, ALiBi)");
    case lesson::CompareAxis::Patterns: return i18n::tr("Compare: mask patterns (causal, sinks, strided, block-local)");
  }
  return "";
}

std::string temperature_notice(const Scenario& s) {
  const double t = temperature_of(s);
  return i18n::format(i18n::tr("Temperature T = %s (scale 1/T = %s)"), format_significant(t).c_str(),
                      format_significant(1.0 / t).c_str());
}

}  // namespace

Action action_for_key(int key, bool shift, ui::MainView shown, bool presenting, bool help_open) {
  const bool playing = shown == ui::MainView::Tiled || shown == ui::MainView::Decode;
  const bool stepping = shown == ui::MainView::Step || playing;
  const bool comparing = shown == ui::MainView::Compare;
  switch (key) {
    case ui::keys::kRight:
    case ui::keys::kPageDown: return stepping ? Action::NextStep : Action::None;
    case ui::keys::kLeft:
    case ui::keys::kPageUp: return stepping ? Action::PreviousStep : Action::None;
    case ui::keys::kHome: return stepping ? Action::FirstStep : Action::None;
    case ui::keys::kEnd: return stepping ? Action::LastStep : Action::None;
    case ui::keys::kDown: return Action::NextQuery;
    case ui::keys::kUp: return Action::PreviousQuery;
    case ui::keys::key('h'): return shift ? Action::PreviousHead : Action::NextHead;
    case ui::keys::key('c'): return Action::ToggleCausal;
    case ui::keys::key('m'): return Action::CycleMask;
    case ui::keys::key('s'): return Action::ToggleScaling;
    case ui::keys::key('t'): return shift ? Action::ColderTemperature : Action::HotterTemperature;
    case ui::keys::key('x'): return Action::ToggleCross;
    case ui::keys::key('a'):
      return !comparing ? Action::None : shift ? Action::PreviousCompareAxis : Action::NextCompareAxis;
    case ui::keys::key('n'): return comparing ? Action::ToggleCompareCount : Action::None;
    case ui::keys::key('r'): return !comparing ? Action::None : shift ? Action::NarrowerWindow : Action::WiderWindow;
    case ui::keys::key('w'): return comparing ? Action::ToggleCompareScores : Action::None;
    case ui::keys::key('1'): return Action::ShowHeatmaps;
    case ui::keys::key('2'): return Action::ShowStep;
    case ui::keys::key('3'): return Action::ShowCompare;
    case ui::keys::key('4'): return Action::ShowCross;
    case ui::keys::key('5'): return Action::ShowTiled;
    case ui::keys::key('6'): return Action::ShowDecode;
    case ui::keys::key('7'): return Action::ShowModelView;
    case ui::keys::key('p'): return playing ? Action::TogglePlay : Action::None;
    case ui::keys::kF11: return Action::TogglePresentation;
    case ui::keys::kEscape:
      return help_open ? Action::CloseHelp : presenting ? Action::LeavePresentation : Action::None;
    case ui::keys::kF1: return Action::ToggleHelp;
    default: return Action::None;
  }
}

bool key_repeats(int key) {
  return key == ui::keys::kRight || key == ui::keys::kLeft || key == ui::keys::kPageDown || key == ui::keys::kPageUp ||
         key == ui::keys::kDown || key == ui::keys::kUp || key == ui::keys::key('r');
}

std::span<const int> classroom_keys() { return kKeys; }

const char* key_name(int key) {
  switch (key) {
    // The keys as their caps say, the same in every language (Korean keyboards print them so).
    case ui::keys::kRight: return "Right";         // not translated: a key
    case ui::keys::kLeft: return "Left";           // not translated: a key
    case ui::keys::kUp: return "Up";               // not translated: a key
    case ui::keys::kDown: return "Down";           // not translated: a key
    case ui::keys::kPageDown: return "Page Down";  // not translated: a key
    case ui::keys::kPageUp: return "Page Up";      // not translated: a key
    case ui::keys::kHome: return "Home";           // not translated: a key
    case ui::keys::kEnd: return "End";             // not translated: a key
    case ui::keys::kEscape: return "Esc";
    case ui::keys::kF1: return "F1";
    case ui::keys::kF11: return "F11";
    default: break;
  }
  static const char* const kLetters[] = {"A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L", "M",
                                         "N", "O", "P", "Q", "R", "S", "T", "U", "V", "W", "X", "Y", "Z"};
  static const char* const kDigits[] = {"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"};
  if (key >= ui::keys::kLetterFirst && key <= ui::keys::kLetterLast) return kLetters[key - ui::keys::kLetterFirst];
  if (key >= ui::keys::kDigitFirst && key <= ui::keys::kDigitLast) return kDigits[key - ui::keys::kDigitFirst];
  return "?";
}

std::optional<int> followed_query(const std::optional<int>& pinned, ui::MainView shown, int queries) {
  if (queries <= 0) return std::nullopt;
  if (pinned) return std::clamp(*pinned, 0, queries - 1);
  if (shown == ui::MainView::Step) return 0;
  return std::nullopt;
}

std::string apply_action(Action action, ActionTarget& t) {
  document::Document& document = t.document;
  lesson::CompareOptions& compare = t.views.compare;
  switch (action) {
    case Action::NextStep: move_step(t, 1); break;
    case Action::PreviousStep: move_step(t, -1); break;
    case Action::FirstStep: move_step(t, -kToTheEnd); break;
    case Action::LastStep: move_step(t, kToTheEnd); break;
    case Action::TogglePlay: toggle_play(t); break;
    case Action::NextQuery: next_query(t, 1); break;
    case Action::PreviousQuery: next_query(t, -1); break;
    case Action::NextHead: next_head(t, 1); break;
    case Action::PreviousHead: next_head(t, -1); break;
    case Action::ToggleCausal: {
      Scenario next = toggle_causal(document.scenario());
      const bool causal = next.mask.causal;
      const char* said = causal ? i18n::tr("Causal mask on") : i18n::tr("Causal mask off");
      document.apply(std::move(next), said);
      return said;
    }
    case Action::CycleMask: {
      Scenario next = document.scenario();
      const MaskStep step = next_mask(next.mask);
      next.mask = step.mask;
      const std::string said = i18n::format(i18n::tr("Mask: %s"), i18n::tr(step.name));
      document.apply(std::move(next), said);
      return said;
    }
    case Action::ToggleScaling: {
      Scenario next = toggle_scaling(document.scenario());
      const bool scaled = next.scale.kind == ScaleSetting::Kind::InvSqrtDk;
      document.apply(std::move(next), scaled ? i18n::tr("Scale by 1/\xe2\x88\x9a"
                                                        "d_k")
                                             : i18n::tr("No scaling"));
      // What it does to this sentence's softmax is on the Scaling page, in numbers: the notice
      // promises nothing the data may not show.
      return scaled ? i18n::tr(
                          "Scores scaled by 1/\xe2\x88\x9a"
                          "d_k")
                    : i18n::tr("No scaling (the classic mistake): see the Scaling page");
    }
    case Action::HotterTemperature:
    case Action::ColderTemperature: {
      Scenario next = scale_temperature(document.scenario(), action == Action::HotterTemperature ? 2.0 : 0.5);
      const std::string notice = temperature_notice(next);
      document.apply(std::move(next), i18n::tr("Temperature"), "classroom:temperature");
      document.end_merge();  // each press is its own undo step
      return notice;
    }
    case Action::ToggleCross: {
      const bool on = !document.scenario().source.has_value();
      document.apply(on ? add_source(document.scenario()) : remove_source(document.scenario()),
                     on ? i18n::tr("Add a source sentence") : i18n::tr("Remove the source sentence"));
      return on ? i18n::tr("Cross-attention on: type the source sentence in the Source sentence panel")
                : i18n::tr("Cross-attention off");
    }
    case Action::NextCompareAxis:
    case Action::PreviousCompareAxis:
      compare.axis = next_axis(compare.axis, action == Action::NextCompareAxis ? 1 : -1);
      return axis_notice(compare.axis);
    case Action::ToggleCompareCount: compare.count = compare.count == 4 ? 2 : 4; break;
    case Action::WiderWindow:
    case Action::NarrowerWindow:
      compare.window = std::clamp(compare.window + (action == Action::WiderWindow ? 1 : -1), 0, kMaxWindow);
      return (compare.axis == lesson::CompareAxis::Masks && compare.count == 4) ||
                     compare.axis == lesson::CompareAxis::Patterns
                 ? ""
                 : i18n::format(i18n::tr("Window r = %d (shown when comparing 4 masks, or patterns)"), compare.window);
    case Action::ToggleCompareScores: t.views.compare_scores = !t.views.compare_scores; break;
    case Action::ShowHeatmaps: t.state.select_tab = ui::MainView::Heatmaps; break;
    case Action::ShowStep: t.state.select_tab = ui::MainView::Step; break;
    case Action::ShowCompare: t.state.select_tab = ui::MainView::Compare; break;
    case Action::ShowCross: t.state.select_tab = ui::MainView::Cross; break;
    case Action::ShowTiled: t.state.select_tab = ui::MainView::Tiled; break;
    case Action::ShowDecode: t.state.select_tab = ui::MainView::Decode; break;
    case Action::ShowModelView:
      if (!t.model_open)
        return i18n::tr("No model is open: File \xe2\x96\xb8 Open model\xe2\x80\xa6, then 7 shows its Model view");
      t.view.select_main_tab = ui::kModelViewTitle;
      break;
    case Action::ToggleHelp: t.state.help_open = !t.state.help_open; break;
    case Action::CloseHelp: t.state.help_open = false; break;
    case Action::TogglePresentation:
    case Action::LeavePresentation:
    case Action::None: break;
  }
  return "";
}

}  // namespace attnviz::classroom
