#!/usr/bin/env python3
"""Fails when a user-visible string literal in a translated source file bypasses translation.

The files below have been converted to app/i18n/translate.h (or, in core/, to the Wording of
core/common/wording.h, whose calls have the same names) (issue 49 converts the window file
by file: add each file here once every string in it goes through tr(), trn(), trc(), tr_label()
or N_()). In them every string literal that holds words must be an argument of one of those
calls, unless it is plainly not text for people:

  - an ImGui ID ("##listing") or a name made for the program ("file-dialog", "preset:", "HOME"),
  - a key or shortcut ("Ctrl+Shift+S", "F11", "H / Shift+H"), the same in every language,
  - or its line says why in a comment containing "not translated" (a language's own name).

Run with the source root:   check_translated_sources.py SOURCE_DIR
It first checks itself on a sample with known mistakes, so it cannot pass by finding nothing."""
import pathlib
import re
import sys

TRANSLATED_FILES = [
    'app/classroom/classroom_actions.cpp',
    'app/classroom/classroom_edits.cpp',
    'app/classroom/classroom_menu.cpp',
    'app/classroom/compare_layers.cpp',
    'app/classroom/compare_view.cpp',
    'app/classroom/cross_view.cpp',
    'app/classroom/decode_view.cpp',
    'app/classroom/decode_view_model.cpp',
    'app/classroom/decode_view_parts.cpp',
    'app/classroom/draw_helpers.cpp',
    'app/classroom/position_picture.cpp',
    'app/classroom/presentation.cpp',
    'app/classroom/scaling_lesson.cpp',
    'app/classroom/shortcuts.cpp',
    'app/classroom/source_panel.cpp',
    'app/classroom/step_trace.cpp',
    'app/classroom/step_view.cpp',
    'app/classroom/tiled_view.cpp',
    'app/classroom/tiled_view_parts.cpp',
    'app/classroom/view_widgets.cpp',
    'app/compute/compute_session.cpp',
    'app/compute/model_backend_policy.cpp',
    'app/compute/model_messages.cpp',
    'app/compute/model_runner.cpp',
    'app/compute/model_session.cpp',
    'app/compute/training_session.cpp',
    'app/document/autosave.cpp',
    'app/document/document_names.cpp',
    'app/edits/mask_edits.cpp',
    'app/edits/matrix_edits.cpp',
    'app/edits/model_edits.cpp',
    'app/edits/position_edits.cpp',
    'app/edits/sentence_edits.cpp',
    'app/edits/text_edits.cpp',
    'app/export_ui/export_button.cpp',
    'app/export_ui/export_dialog.cpp',
    'app/export_ui/export_plan.cpp',
    'app/export_ui/export_popup.cpp',
    'app/export_ui/export_runner.cpp',
    'app/export_ui/heads_export.cpp',
    'app/export_ui/model_rollout_export.cpp',
    'app/export_ui/overview_export.cpp',
    'app/export_ui/view_image.cpp',
    'app/export_ui/view_image_dialog.cpp',
    'app/heatmap/axis_math.cpp',
    'app/heatmap/heatmap_labels.cpp',
    'app/heatmap/query_bars.cpp',
    'app/panels/backend_panel.cpp',
    'app/panels/bundled_models.cpp',
    'app/panels/edit_menu.cpp',
    'app/panels/file_menu.cpp',
    'app/panels/heatmaps_panel.cpp',
    'app/panels/heatmaps_parts.cpp',
    'app/panels/heatmaps_toolbar.cpp',
    'app/panels/help_menu.cpp',
    'app/panels/kv_cache_panel.cpp',
    'app/panels/language_menu.cpp',
    'app/panels/mask_panel.cpp',
    'app/panels/matrices_panel.cpp',
    'app/panels/model_attribution.cpp',
    'app/panels/model_lens.cpp',
    'app/panels/model_panel.cpp',
    'app/panels/model_parts.cpp',
    'app/panels/model_patching.cpp',
    'app/panels/model_roles.cpp',
    'app/panels/model_view.cpp',
    'app/panels/model_weights.cpp',
    'app/panels/open_model_dialog.cpp',
    'app/panels/overview_find.cpp',
    'app/panels/overview_labels.cpp',
    'app/panels/overview_locator.cpp',
    'app/panels/overview_query.cpp',
    'app/panels/overview_toolbar.cpp',
    'app/panels/overview_view.cpp',
    'app/panels/sentence_panel.cpp',
    'app/panels/status_bar.cpp',
    'app/panels/training_charts.cpp',
    'app/panels/training_close.cpp',
    'app/panels/training_view.cpp',
    'app/panels/view_menu.cpp',
    'app/ui/classroom_state.cpp',
    'app/ui/layout.cpp',
    'app/ui/long_text.cpp',
    'app/ui/model_layer.cpp',
    'app/ui/notices.cpp',
    'app/ui/scenario_files.cpp',
    # core/lesson words its pages through the Wording the window passes in (core/common/wording.h):
    # the same tr()/trn()/N_() names, so the same check; formulas are notation, "not translated".
    'core/lesson/mistakes.cpp',
    'core/lesson/mistakes_page.cpp',
    'core/lesson/position_page.cpp',
    'core/lesson/row_stats.cpp',
    'core/lesson/step_pages.cpp',
    'core/lesson/steps.cpp',
    'core/lesson/variants.cpp',
]

CALL = re.compile(r'\b(?:tr|trn|trc|tr_label|N_)\s*\(')
LITERAL = re.compile(r'"(?:[^"\\\n]|\\.)*"')
CHAR_LITERAL = re.compile(r"'(?:[^'\\\n]|\\.)+'")
PRINTF = re.compile(r'%(?:[1-9]\$)?[-+ #0]*[0-9*]*(?:\.[0-9*]+)?(?:hh|h|ll|l|z|j|t|L)?[diouxXeEfgGcsp%]')
ESCAPE = re.compile(r'\\(?:u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|x[0-9a-fA-F]{1,2}|[0-7]{1,3}|.)')
KEY = r'(?:(?:Ctrl|Shift|Alt)\+)*(?:[A-Z0-9=+\-]|F\d{1,2}|Esc)'
SHORTCUT = re.compile(rf'^{KEY}(?:(?: / |, | ){KEY})*$')
PROGRAM_NAME = re.compile(r'^(?:[a-z0-9_.:/-]+|[A-Z][A-Z0-9_]+)$')
WORDS = re.compile(r'[A-Za-z]{2,}')


def blank_comments(source):
    """The source with comments replaced by spaces (newlines kept), literals untouched."""
    out, i, n = [], 0, len(source)
    while i < n:
        if source.startswith('//', i):
            end = source.find('\n', i)
            end = n if end < 0 else end
            out.append(' ' * (end - i))
            i = end
        elif source.startswith('/*', i):
            end = source.find('*/', i + 2)
            end = n if end < 0 else end + 2
            out.append(re.sub(r'[^\n]', ' ', source[i:end]))
            i = end
        elif source[i] == '"':
            match = LITERAL.match(source, i)
            end = match.end() if match else i + 1
            out.append(source[i:end])
            i = end
        elif source[i] == "'":
            match = CHAR_LITERAL.match(source, i)
            end = match.end() if match else i + 1
            out.append(' ' * (end - i))
            i = end
        else:
            out.append(source[i])
            i += 1
    return ''.join(out)


def call_spans(code):
    """(start, end) of every translation call's parentheses."""
    spans = []
    for match in CALL.finditer(code):
        depth, i = 0, match.end() - 1
        while i < len(code):
            if code[i] == '"':
                i = LITERAL.match(code, i).end()
                continue
            depth += code[i] == '('
            depth -= code[i] == ')'
            if depth == 0:
                break
            i += 1
        spans.append((match.start(), i))
    return spans


def is_text_for_people(literal):
    text = ESCAPE.sub(' ', PRINTF.sub(' ', literal[1:-1]))
    if literal[1:-1].startswith('##') or not WORDS.search(text):
        return False
    stripped = literal[1:-1]
    return not (SHORTCUT.match(stripped) or PROGRAM_NAME.match(stripped))


def untranslated(source):
    """(line number, literal) of each literal that holds text for people outside translation."""
    original_lines = source.split('\n')
    code = blank_comments(source)
    spans = call_spans(code)
    found = []
    for match in LITERAL.finditer(code):
        line = code.count('\n', 0, match.start())
        if code.split('\n')[line].lstrip().startswith('#include'):
            continue
        if 'not translated' in original_lines[line]:
            continue
        if any(start <= match.start() < end for start, end in spans):
            continue
        if is_text_for_people(match.group()):
            found.append((line + 1, match.group()))
    return found


SAMPLE = r'''
#include "app/i18n/translate.h"
void draw() {
  ImGui::MenuItem(i18n::tr_label("Next head").c_str(), "H");       // fine
  ImGui::TextUnformatted("Keys are ignored");                      // 1: shown as written
  ImGui::Begin("##status");                                        // fine: an ID
  post(i18n::format(i18n::trn("%s token", "%s tokens", n), s));   // fine
  std::string t = "Undo " + label;                                 // 2
  ImGui::Text("%d heads", n);                                      // 3
  const char* k = "Ctrl+Shift+S";                                  // fine: a shortcut
  const char* id = "file-dialog";                                  // fine: a name
  const char* x = N_("Heatmaps");                                  // fine
  const char* e = "English###English";  // not translated: its own name
  // "Text in a comment" is fine
  ImGui::Button("OK" "ay now");                                    // 4 (one of the two pieces)
}
'''


def self_test():
    lines = [line for line, _ in untranslated(SAMPLE)]
    expected = [5, 8, 9, 15]
    if lines != expected:
        sys.exit(f'check_translated_sources.py is broken: found lines {lines} in its sample, expected {expected}')


def main(root):
    self_test()
    root = pathlib.Path(root)
    failures = []
    for relative in TRANSLATED_FILES:
        source = (root / relative).read_text(encoding='utf-8')
        if not CALL.search(blank_comments(source)):
            failures.append(f'{relative}: listed as translated but makes no translation call')
        for line, literal in untranslated(source):
            failures.append(f'{relative}:{line}: {literal} is shown untranslated: wrap it in i18n::tr() '
                            '(or N_() where it is chosen, tr() where shown)')
    if failures:
        sys.exit('\n'.join(failures))
    print(f'{len(TRANSLATED_FILES)} translated files: every literal for people goes through translation')


if __name__ == '__main__':
    main(sys.argv[1])
