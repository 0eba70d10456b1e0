"""The first ten minutes of a new user (issue 11), with the real window, the real binary and
real pointer and keyboard events: each test starts attnviz on a display of its own (Xvfb),
finds widgets by name in the window's widget log, clicks and types with xdotool, and checks
what a person would see (the screen) and what the window keeps (the autosaved scenario).

Every session runs with --validation: a Vulkan validation message or two widgets sharing an
ImGui ID anywhere along the way fail the test when the window closes.

usage: test_first_ten_minutes.py [unittest arguments]   (ATTNVIZ_BIN names the binary)"""
import json
import os
import pathlib
import shutil
import sys
import tempfile
import time
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import attnviz_gui  # noqa: E402
from attnviz_gui import Session  # noqa: E402

MISSING = attnviz_gui.have_tools()


@unittest.skipIf(MISSING is not None, f'{MISSING} is not installed (scripts/install-deps.sh installs it)')
class WindowTest(unittest.TestCase):
    def setUp(self):
        self.dir = pathlib.Path(tempfile.mkdtemp(prefix=f'attnviz-gui-{self._testMethodName}-'))

    def tearDown(self):
        if os.environ.get('ATTNVIZ_KEEP_GUI_TESTS'):
            print(f'\nkept {self.dir}', file=sys.stderr)
        else:
            shutil.rmtree(self.dir, ignore_errors=True)

    def session(self, args=(), **kwargs):
        return Session(self.dir / 'session', args, **kwargs)

    def write_scenario(self, name, scenario):
        path = self.dir / name
        path.write_text(json.dumps(scenario))
        return str(path)

    @staticmethod
    def heatmap_rect(app):
        """The weights heatmap (the three steps' third, or the focused one) on the screen."""
        for item in app.widgets():
            if item['path'].endswith('##weights/##heatmap') or item['path'].endswith('##focused/##heatmap'):
                return item['visible']
        raise AssertionError('no weights heatmap on screen')


class TypingASentence(WindowTest):
    def test_typing_on_first_start_makes_the_text_the_tokens_and_one_undo_brings_them_back(self):
        with self.session() as app:  # no autosave yet: the first-start preset, which lists its tokens
            # The window keeps what it shows 750 ms after it starts (under load that may be
            # before this look): if it has, it is the untouched preset.
            first = app.autosave_file.exists() and json.loads(app.autosave_file.read_text())
            if first:
                self.assertEqual(first['sentence'], 'Life is short, eat dessert first', 'the first-start preset')
                self.assertIn('tokens', first, 'nothing edited yet')
            before = app.screenshot(self.dir / 'before.png')
            weights = self.heatmap_rect(app)
            app.click('Sentence/##sentence')
            app.key('ctrl+a')
            app.type('the cat sat on the mat today')
            kept = app.autosave(lambda s: s['sentence'] == 'the cat sat on the mat today')
            self.assertNotIn('tokens', kept, 'the typed text is the tokens')
            self.assertNotIn('embeddings', kept, "the listed tokens' embeddings gave way to generated ones")
            self.assertEqual(app.count('/##chip'), 7, 'seven chips, one per word')
            after = app.screenshot(self.dir / 'after.png')
            self.assertTrue(before.crop_differs(after, weights), 'the heatmaps follow the typed sentence')
            # Leave the text box (the Heatmaps tab is already selected), then one Ctrl+Z.
            app.click('##views/Heatmaps')
            self.assertFalse(app.log()['want_text_input'])
            app.key('ctrl+z')
            restored = app.autosave(lambda s: 'tokens' in s)
            self.assertEqual(restored['sentence'], 'Life is short, eat dessert first')
            self.assertIn('embeddings', restored)

    def test_keep_these_tokens_makes_the_text_a_caption(self):
        with self.session(['--scenario', 'preset:longformer']) as app:
            app.click('Sentence/Keep these tokens')
            self.assertFalse(app.has('Sentence/Split the text into tokens now'), 'ticked: nothing to split')
            app.click('Sentence/##sentence')
            app.key('ctrl+End')  # End alone ends the clicked line: the box wraps the sentence
            app.type(' Really?')
            kept = app.autosave(lambda s: s['sentence'].endswith('Really?'))
            self.assertEqual(len(kept['tokens']), 21, 'the listed tokens stay')


class EveryControl(WindowTest):
    """Every checkbox and button of the Mask, Model and Sentence panels changes the scenario
    (the autosave) or the view (the widgets on screen)."""

    def changes(self, app, widget, predicate, what):
        before = json.loads(app.autosave_file.read_text()) if app.autosave_file.exists() else None
        app.click(widget)
        after = app.autosave(lambda s: s != before and predicate(s))
        self.assertTrue(predicate(after), what)
        return after

    def test_mask_panel(self):
        with self.session(['--scenario', 'preset:longformer']) as app:
            # The Causal checkbox shared its ID with the Causal preset button: a click did nothing.
            self.changes(app, 'Mask/Causal', lambda s: s['mask'].get('causal') is True, 'Causal on')
            self.changes(app, 'Mask/Causal', lambda s: not s['mask'].get('causal'), 'Causal off')
            self.changes(app, 'Mask/Window', lambda s: 'window' not in s['mask'], 'the window off')
            self.changes(app, 'Mask/Window', lambda s: 'window' in s['mask'], 'the window on')
            self.changes(app, 'Mask/None##preset', lambda s: s['mask'] in ({}, {'causal': False}), 'no mask')
            self.changes(app, 'Mask/Causal##preset', lambda s: s['mask'].get('causal') and 'window' not in s['mask'],
                         'the causal preset')
            self.changes(app, 'Mask/Sliding window##preset', lambda s: s['mask'].get('causal') and 'window' in s['mask'],
                         'the sliding window preset')
            self.changes(app, 'Mask/Longformer##preset', lambda s: not s['mask'].get('causal') and 'window' in s['mask'],
                         'the Longformer preset')

    def test_model_panel(self):
        # Vulkan computing on lavapipe (chosen: the automatic choice is Eigen there), where a new
        # shape may take lavapipe a while to compile for.
        with self.session(['--scenario', 'preset:gqa', '--backend', 'vulkan']) as app:
            # Vulkan's first run, once its kernels are built, compiles them on lavapipe (seconds):
            # a frame says so first (issue 44), rather than the window freezing without a word.
            attnviz_gui._wait(lambda: '##preparing_kernels' in app.log()['windows_seen'], 60,
                              'the first Vulkan run announced')
            self.changes(app, 'Model/none', lambda s: s['scale'] == 'none', 'no scaling')
            self.changes(app, 'Model/temperature', lambda s: isinstance(s['scale'], (int, float)), 'a temperature')
            self.changes(app, 'Model/1/\u221ad_k', lambda s: s['scale'] == 'inv_sqrt_dk', '1/sqrt(d_k)')
            self.changes(app, 'Model/Regenerate', lambda s: s['seed'] == 4, 'the next seed')
            self.changes(app, 'Model/Output projection W_O', lambda s: s.get('generate_wo') or 'wo' in s, 'W_O on')
            app.click('Model/##kv_heads')
            app.click_label('1 ', window='##Combo')
            self.assertEqual(app.autosave(lambda s: s['num_kv_heads'] == 1)['num_kv_heads'], 1)
            # A shape not computed before announces itself before the (possibly slow) recompute.
            # (With Eigen, the automatic choice on lavapipe, it computes at once: no notice.)
            self.assertIn('##preparing_shaders', app.log()['windows_seen'])

    def test_sentence_panel(self):
        with self.session(['--scenario', 'preset:longformer']) as app:
            app.click('Sentence/Keep these tokens')
            self.assertFalse(app.has('Sentence/Split the text into tokens now'))
            app.click('Sentence/Keep these tokens')
            self.changes(app, 'Sentence/Split the text into tokens now', lambda s: 'tokens' not in s, 'tokens from the text')
            self.changes(app, '3/##chip', lambda s: 3 in s['mask'].get('global', []), 'token 3 global')
            app.click('Sentence/##tokenizer')
            app.click_label('Characters', window='##Combo')
            app.autosave(lambda s: s.get('tokenizer') == 'chars')
            self.assertGreater(app.count('/##chip'), 50, 'a chip per character')


class PinUndoExport(WindowTest):
    def test_pin_a_row_then_undo_an_edit(self):
        with self.session(['--scenario', 'preset:korean-restaurant']) as app:
            self.assertFalse(app.has('Unpin query'))
            x, y, w, h = self.heatmap_rect(app)
            ox, oy = app.log()['window_origin']
            app.click_at(int(ox + x + w * 0.6), int(oy + y + h * 0.6))
            self.assertTrue(app.has('Unpin query'), 'a click on a row pins that query')
            self.assertTrue(app.has('##weights_bars', visible=False), "the pinned query's weights as bars")
            app.click('Mask/Causal')
            app.autosave(lambda s: s['mask'].get('causal'))
            app.key('ctrl+z')
            app.autosave(lambda s: not s['mask'].get('causal'))

    def test_export_a_changed_preset_through_the_dialog_to_a_typed_path(self):
        home = self.dir / 'home'
        (home / 'Pictures').mkdir(parents=True)
        with self.session(['--scenario', 'preset:korean-restaurant'], home=home) as app:
            # The sentence and the heads change: the preset's title no longer describes them.
            app.click('Sentence/##sentence')
            app.key('ctrl+a')
            app.type('five small words here now')
            app.click('##views/Heatmaps')
            app.xdotool('keydown', 'ctrl')
            app.click('Model/##heads', settle=2)
            app.xdotool('keyup', 'ctrl')
            app.wait_frames(3)
            app.key('ctrl+a')
            app.type('4')
            app.key('Return')
            edited = app.autosave(lambda s: s['num_heads'] == 4 and s['sentence'].startswith('five'))
            self.assertNotIn('title', edited, 'a stale title is not kept')
            scale_before, source_before = edited['scale'], edited.get('source')

            # Save to: the pictures folder, not the directory attnviz was started from.
            app.key('ctrl+e')
            self.assertTrue(app.has('Export##export_dialog/Export'), 'Ctrl+E opens the Export dialog')
            app.click('Export##export_dialog/SVG')
            app.click('Export##export_dialog/Export')
            self.assertTrue((home / 'Pictures' / 'weights_head0.svg').exists(),
                            f'exported to {sorted(p.name for p in home.rglob("*.svg"))}')
            figure = (home / 'Pictures' / 'weights_head0.svg').read_text()
            self.assertNotIn('Korean worked example', figure, "the preset's title over another figure")
            self.assertIn('five small words here now', figure)
            self.assertFalse(list((self.dir / 'session').glob('*.svg')), 'nothing in the working directory')

            # A typed path full of shortcut letters, then a quick click on Export: no key of it
            # reaches the shortcuts (T: temperature, X: cross-attention, S, C, M, ...).
            target = self.dir / 'text-exports' / 'tx'
            app.key('ctrl+e')
            app.click('Export##export_dialog/##out')
            app.key('ctrl+a')
            app.xdotool('type', '--delay', 5, str(target))
            app.click('Export##export_dialog/Export', settle=10)
            self.assertTrue((target / 'weights_head0.png').exists(), 'exported to the typed folder')
            time.sleep(1.0)
            after = json.loads(app.autosave_file.read_text())
            self.assertEqual(after['scale'], scale_before, 'a typed T changed the temperature')
            self.assertEqual(after.get('source'), source_before, 'a typed X switched cross-attention')
            self.assertEqual(after['mask'], edited['mask'], 'a typed C or M changed the mask')


class KillAndRestart(WindowTest):
    def test_the_autosave_brings_the_work_back_after_a_kill(self):
        with self.session(['--scenario', 'preset:korean-restaurant']) as app:
            app.click('Sentence/##sentence')
            app.key('ctrl+a')
            app.type('attention is all you need')
            app.click('##views/Heatmaps')
            app.click('Mask/Causal')
            saved = app.autosave(lambda s: s['sentence'] == 'attention is all you need' and s['mask'].get('causal'))
            self.assertNotIn('title', saved)
            app.kill()  # no chance to save on the way out
            app.start(args=[])  # no --scenario: the last session's work
            self.assertEqual(app.count('/##chip'), 5, 'the five typed tokens are back')
            self.assertEqual(json.loads(app.autosave_file.read_text()), saved)


class ClassroomAndHeatmaps(WindowTest):
    def test_presentation_overlay_never_covers_the_view(self):
        with self.session(['--scenario', 'preset:korean-restaurant', '--view', 'step', '--step', '7']) as app:
            app.key('F11')
            app.point_at_overlay_corner()
            app.wait_frames(3)
            log = app.log()
            overlay = log['windows'].get('##presentation-overlay')
            self.assertIsNotNone(overlay, 'the overlay shows after F11 and with the mouse in its corner')
            main = log['windows']['##main']['rect']
            ox, oy, ow, oh = overlay['rect']
            self.assertLessEqual(oy + oh, main[1] + 0.5, 'the overlay covers the top of the view')

    def test_nearly_uniform_weights_stretch_in_one_click(self):
        with self.session(['--scenario', 'preset:korean-restaurant']) as app:
            weights = self.heatmap_rect(app)
            flat = app.screenshot(self.dir / 'flat.png')
            app.click_label('Stretch colours to 0')
            self.assertTrue(app.find_label('Back to 0'))
            stretched = app.screenshot(self.dir / 'stretched.png')
            self.assertGreater(len(stretched.region_colours(*weights)), len(flat.region_colours(*weights)),
                               'the stretched weights show their differences in colour')
            app.click_label('Back to 0')
            self.assertTrue(app.find_label('Stretch colours to 0'))


if __name__ == '__main__':
    attnviz_gui.ATTNVIZ = os.environ.get('ATTNVIZ_BIN', attnviz_gui.ATTNVIZ)
    unittest.main()
