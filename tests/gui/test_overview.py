"""A text past 4,096 tokens in the real window (issue 18): the Heatmaps panel says why it shows
an overview, draws it, zooms into an exact window with the wheel, stops a long computation with
Cancel at once, offers a pattern's parameters for the text's length when its own leave more runs
than a mask holds and to turn dropout off, finds a word or a token's number (from a button
where the panel is narrow), keeps the first 65,536 tokens of a text typed past them, and
File > Open text... puts a file's text in the sentence. Real binary, its own Xvfb display,
xdotool events, widgets found by name in the widget log (attnviz_gui.py).

usage: test_overview.py [unittest arguments]   (ATTNVIZ_BIN names the binary)"""
import array
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
WORDS = 'the cat sat on a mat and then it ran to see what was happening in the wide world'.split()


def write_text(path, words):
    path.write_text(' '.join(WORDS[(i * 7 + i // 3) % len(WORDS)] for i in range(words)))
    return str(path)


@unittest.skipIf(MISSING is not None, f'{MISSING} is not installed (scripts/install-deps.sh installs it)')
class LongText(unittest.TestCase):
    def setUp(self):
        self.dir = pathlib.Path(tempfile.mkdtemp(prefix=f'attnviz-gui-{self._testMethodName}-'))

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    @staticmethod
    def image(app, timeout=120):
        """The overview's image on the screen (x, y, w, h), once one is drawn."""
        return attnviz_gui._wait(lambda: app.has('##overview_image/##heatmap') and app.find('##overview_image/##heatmap')['visible'],
                                 timeout, 'the overview image')

    def test_a_long_text_shows_its_overview_and_zooms_into_an_exact_window(self):
        text = write_text(self.dir / 'long.txt', 5000)
        with Session(self.dir / 'session', ['--text-file', text]) as app:
            self.assertTrue(app.has('Weights##overview'), 'past 4,096 tokens the Heatmaps panel shows the overview')
            x, y, w, h = self.image(app)
            image = app.find('##overview_image/##heatmap')
            self.assertEqual(image['visible'], image['rect'], 'the whole image fits in the panel, its last rows too')
            attnviz_gui._wait(lambda: not app.has('Cancel##overview'), 120, 'the first overview')
            app.wait_frames(8)
            # The progress bar going must not resize the image: a new pixel count would compute
            # the overview again (and again, each size asking for the other).
            self.assertFalse(app.has('Cancel##overview'), 'the overview was computed a second time')
            whole = app.screenshot(self.dir / 'whole.png')
            # Pooled pixels are labelled with the first position of their block.
            self.assertEqual(app.find('##overview_image/##heatmap')['first_row_label'], '0')
            self.assertEqual(app.find('##overview_image/##heatmap')['first_col_label'], '0')
            self.assertFalse(app.has('Whole matrix##overview'), 'nothing to go back to yet')
            self.assertFalse(app.find('##overview_image/##heatmap')['numbers'], 'a pooled pixel has no one value to write')
            app.move_to(int(x + w / 2), int(y + h / 2))
            for _ in range(4):
                app.xdotool('click', '4')  # the wheel, up: zoom in around the mouse
                app.wait_frames(2)
            attnviz_gui._wait(lambda: app.has('Whole matrix##overview'), 30, 'the zoomed window')
            attnviz_gui._wait(lambda: not app.has('Cancel##overview'), 60, 'the zoomed overview')
            app.wait_frames(4)
            zoomed = app.screenshot(self.dir / 'zoomed.png')
            self.assertTrue(zoomed.crop_differs(whole, (int(x), int(y), int(w), int(h))), 'the zoomed window is drawn')
            self.assertNotEqual(app.find('##overview_image/##heatmap')['first_row_label'].split(' ')[0], '0', 'zoomed into the middle')
            # Beside the zoomed window, the whole matrix says where it lies; a click there moves it.
            lx, ly, lw, lh = app.find('##overview_locator/##thumbnail/##heatmap')['visible']
            zx, _, zw, _ = app.find('##overview_image/##heatmap')['visible']
            self.assertGreaterEqual(lx, zx + zw, 'the locator is right of the image, not over it')
            app.click_at(int(lx + 2), int(ly + 2))
            first = lambda key: app.find('##overview_image/##heatmap')[key].split(' ')[0]  # "0" or "0 the"
            attnviz_gui._wait(lambda: first('first_row_label') == '0', 30, 'the window moved to the top left corner')
            self.assertEqual(first('first_col_label'), '0')
            attnviz_gui._wait(lambda: not app.has('Cancel##overview'), 60, 'the moved window')
            app.move_to(int(x + w / 2), int(y + h / 2))
            for _ in range(12):  # on to single cells: 8 x 8 at most
                app.xdotool('click', '4')
                app.wait_frames(2)
            attnviz_gui._wait(lambda: ' ' in app.find('##overview_image/##heatmap').get('first_row_label', ''), 60,
                              'single cells, labelled with their tokens')
            # Cells this large carry their values, as the materialised heatmaps' do.
            attnviz_gui._wait(lambda: app.find('##overview_image/##heatmap').get('numbers') is True, 30, 'numbers in the cells')
            # Single cells are labelled with their position and token ("2,497 cat").
            image = app.find('##overview_image/##heatmap')
            for key in ('first_row_label', 'first_col_label'):
                position, word = image[key].split(' ', 1)
                self.assertRegex(position, r'^[0-9,]+$')
                self.assertEqual(word, WORDS[(int(position.replace(',', '')) * 7 + int(position.replace(',', '')) // 3) % len(WORDS)])
            app.key('Home')  # as on every heatmap
            attnviz_gui._wait(lambda: not app.has('Whole matrix##overview'), 30, 'the whole matrix again')
            self.assertFalse(app.has('##overview_locator/##thumbnail/##heatmap'), 'no locator over the whole matrix')
            app.move_to(int(x + w / 2), int(y + h / 2))
            app.xdotool('click', '4')
            attnviz_gui._wait(lambda: app.has('Whole matrix##overview'), 30, 'zoomed in again')
            app.click('Whole matrix##overview')
            attnviz_gui._wait(lambda: not app.has('Whole matrix##overview'), 30, 'the whole matrix after the button')

    @staticmethod
    def export_npy(app, out, pixels=None):
        """Export… ▸ NPY (▸ `pixels` across) into `out`, waiting for the file and the popup closing."""
        app.click('Export\u2026##overview')
        app.click('NPY##overview_export')
        if pixels:
            app.click(f'{pixels}##overview_export_pixels')
        app.click('##overview_out')
        app.key('ctrl+a')
        app.xdotool('type', '--delay', 5, str(out))
        app.click('Export##overview_export')
        attnviz_gui._wait(lambda: out.exists(), 120, f'{out.name}')
        attnviz_gui._wait(lambda: not app.has('Export##overview_export'), 20, 'the popup closed after the export')

    def read_npy(self, path):
        """(shape, float32 values) of an NPY file, its header checked."""
        data = path.read_bytes()
        self.assertEqual(data[:6], b'\x93NUMPY')
        header_end = 10 + int.from_bytes(data[8:10], 'little')
        header = data[10:header_end].decode()
        self.assertIn("'descr': '<f4'", header)
        shape = tuple(int(v) for v in header.split("'shape': (")[1].split(')')[0].split(',') if v.strip())
        values = array.array('f', data[header_end:])
        count = 1
        for extent in shape:
            count *= extent
        self.assertEqual(len(values), count, header)
        return shape, values

    def test_the_overview_shown_and_a_finer_one_are_exported_as_npy(self):
        text = write_text(self.dir / 'long.txt', 4500)
        with Session(self.dir / 'session', ['--text-file', text]) as app:
            self.image(app)
            attnviz_gui._wait(lambda: not app.has('Cancel##overview'), 120, 'the overview')
            image_width = app.find('##overview_image/##heatmap')['rect'][2]
            self.export_npy(app, self.dir / 'long.npy')
            # One head; 4,500 tokens pooled into the image's pixels, at most the panel's size.
            shape, shown = self.read_npy(self.dir / 'long.npy')
            self.assertEqual(len(shape), 3, shape)
            self.assertEqual(shape[0], 1, shape)
            self.assertTrue(64 <= shape[1] <= 1024 and shape[1] == shape[2], shape)
            # A finer image than the panel holds, computed for the export alone: 4,500 tokens in
            # at most 1,024 pixels are blocks of 5, so 900 × 900 pixels.
            self.assertLess(shape[1], 900)
            self.export_npy(app, self.dir / 'finer.npy', pixels='1,024')
            finer_shape, finer = self.read_npy(self.dir / 'finer.npy')
            self.assertEqual(finer_shape, (1, 900, 900))
            # The largest weight of the whole matrix is the same however it is pooled.
            self.assertAlmostEqual(max(shown), max(finer), delta=1e-6 * max(shown))
            self.assertEqual(app.find('##overview_image/##heatmap')['rect'][2], image_width, 'the panel\'s image is untouched')

    def test_cancel_stops_a_long_overview_at_once(self):
        scenario = self.dir / 'wide.json'
        scenario.write_text(json.dumps({'format': 'attnviz-scenario/1', 'sentence': 'x', 'd_model': 64, 'num_heads': 1,
                                        'd_k': 64, 'd_v': 8}))
        text = write_text(self.dir / 'long.txt', 65536)
        with Session(self.dir / 'session', ['--scenario', str(scenario), '--text-file', text]) as app:
            attnviz_gui._wait(lambda: app.has('Cancel##overview'), 30, 'the progress bar')
            start = time.monotonic()
            app.click('Cancel##overview', settle=1)
            attnviz_gui._wait(lambda: app.has('Compute again##overview'), 15, 'the cancelled notice')
            # The whole overview takes at least 13 s of both cores on a quiet machine (minutes on a
            # busy one); Cancel ends it within a tile per thread (OverviewCpu.AStopRequestEndsTheRunEarly
            # checks the runner): here the window must say so long before the overview could end.
            self.assertLess(time.monotonic() - start, 12.0, 'Cancel waited for the overview to finish')
            self.assertFalse(app.has('Cancel##overview'), 'still computing after Cancel')

    def test_a_pattern_too_fine_for_the_text_is_offered_its_stride_for_this_length(self):
        # The strided preset's stride of 4 over 20,000 tokens is 50 million runs, more than a mask
        # holds: the window says so and offers the pattern with √N; the click is undone as any edit.
        text = write_text(self.dir / 'long.txt', 20000)
        preset = 'k <= q && (q - k < 4 || (q - k) % 4 == 0)'
        with Session(self.dir / 'session', ['--scenario', 'preset:strided', '--text-file', text]) as app:
            # The button's ID is the same in every language; its label names the pattern.
            offer = attnviz_gui._wait(lambda: app.has('overview_pattern'), 60,
                                      'the offer of the stride for 20,000 tokens')
            self.assertTrue(offer)
            self.assertEqual(app.find('overview_pattern')['label'], 'Use Strided, s = 141 (for 20,000 tokens)')
            self.assertFalse(app.has('##overview_image/##heatmap'), 'no image while the mask cannot be held')
            app.click('overview_pattern')
            saved = app.autosave(lambda s: s['mask'].get('expression') == 'k <= q && (q - k < 141 || (q - k) % 141 == 0)')
            self.assertEqual(len(saved['sentence'].split()), 20000)
            self.image(app)
            self.assertFalse(app.has('overview_pattern'), 'the offer goes with the error')
            app.key('ctrl+z')
            app.autosave(lambda s: s['mask'].get('expression') == preset)
            attnviz_gui._wait(lambda: app.has('overview_pattern'), 60,
                              'the error and the offer again after undo')

    def test_dropout_is_turned_off_from_the_overview_and_undone(self):
        text = write_text(self.dir / 'long.txt', 5000)
        with Session(self.dir / 'session', ['--scenario', 'preset:dropout', '--text-file', text]) as app:
            attnviz_gui._wait(lambda: app.has('Turn dropout off##overview_dropout'), 60, 'the offer to turn dropout off')
            app.click('Turn dropout off##overview_dropout')
            app.autosave(lambda s: 'dropout' not in s)
            self.image(app)
            app.key('ctrl+z')
            app.autosave(lambda s: s.get('dropout', {}).get('p') == 0.2)
            attnviz_gui._wait(lambda: app.has('Turn dropout off##overview_dropout'), 60, 'the offer again after undo')

    def test_the_views_that_show_every_matrix_lead_back_to_the_overview(self):
        text = write_text(self.dir / 'long.txt', 4500)
        with Session(self.dir / 'session', ['--text-file', text]) as app:
            self.image(app)
            for view in ('Step by step', 'Compare', 'Tiled'):
                app.click(f'##main/##views/{view}')
                attnviz_gui._wait(lambda: app.has('Show the overview##only_the_overview'), 20, f'the way back from {view}')
                self.assertFalse(app.has('Weights##overview'), f'{view} is shown')
                app.click('Show the overview##only_the_overview')
                attnviz_gui._wait(lambda: app.has('Weights##overview'), 20, 'the Heatmaps view again')
            # Or the text's first 4,096 tokens, followed in the view itself; Ctrl+Z brings back the whole.
            app.click('##main/##views/Step by step')
            app.click('Keep the first 4,096 tokens##only_the_overview')
            kept = app.autosave(lambda s: len(s['sentence'].split()) < 4500)
            self.assertEqual(kept['sentence'].split(), pathlib.Path(text).read_text().split()[:4096])
            attnviz_gui._wait(lambda: not app.has('Show the overview##only_the_overview'), 60, 'Step by step shows the text')
            # The Decode view steps through 2,895 tokens at most, and offers to keep them.
            app.click('##main/##views/Decode')
            app.click('Keep the first 2,895 tokens##decode')
            kept = app.autosave(lambda s: len(s['sentence'].split()) < 4096)
            self.assertEqual(kept['sentence'].split(), pathlib.Path(text).read_text().split()[:2895])
            attnviz_gui._wait(lambda: not app.has('Keep the first 2,895 tokens##decode'), 60, 'Decode steps through the text')
            app.click('##main/##views/Heatmaps')
            app.key('ctrl+z')
            app.autosave(lambda s: len(s['sentence'].split()) == 4096)
            app.key('ctrl+z')
            app.autosave(lambda s: s['sentence'].split() == pathlib.Path(text).read_text().split())

    def test_a_clicked_row_pins_its_query_with_the_keys_it_attends_to_most(self):
        text = write_text(self.dir / 'long.txt', 5000)
        # StreamingLLM's mask: each query sees the first 4 keys and the 8 before it, itself included.
        with Session(self.dir / 'session', ['--scenario', 'preset:attention-sinks', '--text-file', text]) as app:
            x, y, w, h = self.image(app)
            attnviz_gui._wait(lambda: not app.has('Cancel##overview'), 120, 'the overview')
            app.wait_frames(4)
            # Blocks the mask hides entirely are light grey (drawn into the heatmap's image); the
            # sinks' column, seen by every query, is not.
            shot = app.screenshot(self.dir / 'sinks.png')
            self.assertEqual(shot.pixel(int(x + w * 0.9), int(y + h * 0.1)), (212, 212, 212), 'a hidden block')
            self.assertNotEqual(shot.pixel(int(x + 1), int(y + h * 0.9)), (212, 212, 212), 'the sinks, seen')
            self.assertFalse(app.has('Unpin##overview_query'), 'nothing pinned yet')
            app.click_at(int(x + w * 0.6), int(y + h * 0.7))
            strip = attnviz_gui._wait(lambda: app.has('##overview_query_strip') and app.find('##overview_query_strip'),
                                      30, 'the pinned query')
            query = int(strip['query'])
            image = app.find('##overview_image/##heatmap')
            self.assertLess(image['rect'][0] + image['rect'][2], strip['rect'][0], 'beside the image, not over it')

            def top_keys():
                items = [i for i in app.widgets() if '##overview_top_key' in i['path']]
                return [int(i['label'].split()[1].replace(',', '')) for i in items]

            keys = attnviz_gui._wait(top_keys, 30, 'the keys it attends to most')
            self.assertEqual(len(keys), 10)
            for key in keys:
                self.assertTrue(key < 4 or 0 <= query - key <= 8, f'key {key} is one query {query} sees')
            # Down pins the next query.
            app.key('Down')
            attnviz_gui._wait(lambda: app.find('##overview_query_strip')['query'] == str(query + 1), 30, 'the next query')
            # A key of the list shows its cell: the image zooms onto the query's row.
            app.click(next(i['path'] for i in app.widgets() if i['path'].endswith('##overview_top_key0')))
            attnviz_gui._wait(lambda: app.has('Whole matrix##overview'), 30, 'the zoomed window')
            attnviz_gui._wait(lambda: not app.has('Cancel##overview'), 60, 'the zoomed overview')
            app.wait_frames(4)
            first_row = int(app.find('##overview_image/##heatmap')['first_row_label'].split(' ')[0].replace(',', ''))
            self.assertTrue(first_row <= query + 1 < first_row + 64, f'row {query + 1} is in the window from {first_row}')
            app.click('Unpin##overview_query')
            attnviz_gui._wait(lambda: not app.has('##overview_query_strip'), 20, 'the query unpinned')

    def test_find_pins_a_word_and_a_token_number_and_zooms_onto_them(self):
        words = write_text(self.dir / 'plain.txt', 5000)
        words = pathlib.Path(words).read_text().split(' ')
        for at, word in ((1234, 'zebra'), (3456, 'ZEBRA'), (4321, 'zebras')):
            words[at] = word
        text = self.dir / 'zebras.txt'
        text.write_text(' '.join(words))
        with Session(self.dir / 'session', ['--text-file', str(text)]) as app:
            self.image(app)
            attnviz_gui._wait(lambda: not app.has('Cancel##overview'), 120, 'the overview')

            def pinned():
                return app.has('##overview_query_strip') and int(app.find('##overview_query_strip')['query'])

            def shows_row(row):
                attnviz_gui._wait(lambda: not app.has('Cancel##overview'), 60, 'the zoomed overview')
                app.wait_frames(4)
                first = int(app.find('##overview_image/##heatmap')['first_row_label'].split(' ')[0].replace(',', ''))
                self.assertTrue(first <= row < first + 64, f'row {row} is in the window from {first}')

            # Ctrl+F, a word in any case: Enter pins the first match, Enter again the next, whole
            # tokens only ("zebras" is not "zebra"); Shift+Enter goes back.
            app.key('ctrl+f')
            app.type('Zebra')
            app.key('Return')
            attnviz_gui._wait(lambda: pinned() == 1234, 30, 'the first zebra pinned')
            shows_row(1234)
            app.key('Return')
            attnviz_gui._wait(lambda: pinned() == 3456, 30, 'the second zebra pinned')
            shows_row(3456)
            app.key('Return')
            attnviz_gui._wait(lambda: pinned() == 1234, 30, 'around to the first zebra')
            app.key('shift+Return')
            attnviz_gui._wait(lambda: pinned() == 3456, 30, 'back to the last zebra')
            # A token's number, with its thousands separated.
            app.key('ctrl+a')
            app.type('4,999')
            app.key('Return')
            attnviz_gui._wait(lambda: pinned() == 4999, 30, 'token 4,999 pinned')
            shows_row(4999)
            # Past the text's end nothing moves.
            app.key('ctrl+a')
            app.type('7000')
            app.key('Return')
            app.wait_frames(6)
            self.assertEqual(pinned(), 4999)

    def test_a_projector_sized_window_keeps_every_control_and_the_pinned_query(self):
        text = write_text(self.dir / 'long.txt', 5000)
        with Session(self.dir / 'session', ['--text-file', text], size=(1024, 768)) as app:
            x, y, w, h = self.image(app)
            attnviz_gui._wait(lambda: not app.has('Cancel##overview'), 120, 'the overview')
            export = app.find('Export\u2026##overview')
            self.assertEqual(export['visible'], export['rect'], 'the Export button is not cut off')
            app.click_at(int(x + w * 0.5), int(y + h * 0.5))
            strip = attnviz_gui._wait(lambda: app.has('##overview_query_strip') and app.find('##overview_query_strip'),
                                      30, 'the pinned query beside the image')
            self.assertGreater(strip['rect'][0], x + w)
            unpin = app.find('Unpin##overview_query')
            self.assertEqual(unpin['visible'], unpin['rect'], 'Unpin is not cut off')
            app.wait_frames(6)
            self.assertFalse(app.has('Cancel##overview'), 'pinning computed the overview again')

    def test_an_800_by_600_window_reaches_every_control(self):
        text = write_text(self.dir / 'long.txt', 5000)
        with Session(self.dir / 'session', ['--text-file', text], size=(800, 600)) as app:
            self.image(app)
            attnviz_gui._wait(lambda: not app.has('Cancel##overview'), 120, 'the overview')
            for name in ('Weights##overview', 'Raw scores##overview', 'Scaled scores##overview', 'Max##overview',
                         'Mean##overview', 'Export\u2026##overview'):
                control = app.find(name)
                self.assertEqual(control['visible'], control['rect'], f'{name} is not cut off')
            app.click('Mean##overview')
            attnviz_gui._wait(lambda: not app.has('Cancel##overview'), 120, 'the mean overview')
            # No room beside the image for Find: a button (or Ctrl+F) opens it over the caption.
            self.assertFalse(app.has('##overview_side'), 'the side column fits after all')
            find = app.find('Find\u2026##overview')
            self.assertEqual(find['visible'], find['rect'], 'Find is not cut off')
            app.key('ctrl+f')
            app.type('wide')
            app.key('Return')
            attnviz_gui._wait(lambda: not app.has('Cancel##overview'), 60, 'the zoomed overview')
            app.wait_frames(4)
            wide = next(i for i in range(5000) if WORDS[(i * 7 + i // 3) % len(WORDS)] == 'wide')
            first = int(app.find('##overview_image/##heatmap')['first_row_label'].split(' ')[0].replace(',', ''))
            self.assertTrue(first <= wide < first + 64, f'the first "wide" (token {wide}) is in the window from {first}')
            field = app.find('##overview_find')
            self.assertEqual(field['visible'], field['rect'], 'the Find field is cut off')
            app.key('Escape')
            attnviz_gui._wait(lambda: not app.has('##overview_find'), 10, 'Escape closing Find')
            app.click('Find\u2026##overview')
            attnviz_gui._wait(lambda: app.has('##overview_find'), 10, 'the button opening Find')

    def test_a_text_typed_past_65536_tokens_keeps_its_first_65536_with_one_click(self):
        text = write_text(self.dir / 'full.txt', 65536)
        with Session(self.dir / 'session', ['--text-file', text]) as app:
            self.image(app, timeout=240)
            attnviz_gui._wait(lambda: not app.has('Cancel##overview'), 240, 'the overview')
            # Two words more at the end: past what even the overview takes.
            app.click('##sentence')
            app.key('ctrl+End')
            app.type(' two more')
            keep = 'Keep the first 65,536 tokens##overview'
            attnviz_gui._wait(lambda: app.has(keep), 30, 'the offer to keep the first 65,536 tokens')
            self.assertTrue(app.has('Keep the first 65,536 tokens##sentence'), 'the Sentence panel offers it too')
            self.assertFalse(app.has('##overview_image/##heatmap'))
            app.click(keep)
            self.image(app, timeout=240)
            attnviz_gui._wait(lambda: not app.has(keep), 30, 'the offer gone')
            whole = pathlib.Path(text).read_text().rstrip()
            app.autosave(lambda saved: saved['sentence'] == whole, timeout=30)  # the typed words cut, the rest kept
            # One undo step: Ctrl+Z brings the typed words back.
            app.key('ctrl+z')
            attnviz_gui._wait(lambda: app.has(keep), 30, 'the long text back after Ctrl+Z')

    @staticmethod
    def open_text(app, path):
        """File > Open text..., the path typed, Return."""
        app.click_file_menu_item(2)
        app.key('ctrl+a')
        app.xdotool('type', '--delay', 5, path)
        app.key('Return')

    def test_file_open_text_puts_a_file_in_the_sentence(self):
        text = write_text(self.dir / 'story.txt', 4500)
        broken = self.dir / 'broken.txt'
        broken.write_bytes(b'hello \xff world')
        with Session(self.dir / 'session', ['--scenario', 'preset:causal-gpt']) as app:
            # A text that is not UTF-8 is refused in the dialog; the sentence stays.
            self.open_text(app, str(broken))
            app.wait_frames(4)
            dialog = [w for w in app.widgets() if w['window'].startswith('Open a text as the sentence')]
            self.assertTrue(dialog, 'the dialog stays open to say why')
            app.key('Escape')
            app.wait_frames(4)
            self.assertFalse(app.has('Weights##overview'), 'the short sentence is still shown')
            self.open_text(app, text)
            saved = app.autosave(lambda s: s.get('sentence', '').startswith('the then happening') and s.get('title') == 'story.txt')
            self.assertTrue(saved['mask']['causal'], "the scenario's other settings stay")
            self.image(app)
            # File > Open Recent lists it as a text (issue 44): chosen once Ctrl+Z has taken it out, it
            # is the sentence again, not a scenario file read as one.
            recent = app.config / 'attnviz' / 'recent.json'
            attnviz_gui._wait(lambda: recent.exists() and {'path': text, 'kind': 'text'} in
                              json.loads(recent.read_text())['files'], 10, 'story.txt in recent.json as a text')
            app.key('ctrl+z')
            app.autosave(lambda s: not s.get('sentence', '').startswith('the then happening'))
            app.click_file_menu_item(5)  # Open Recent
            items = attnviz_gui._wait(lambda: [w for w in app.widgets() if w['window'] == '##Menu_01'], 10,
                                      'Open Recent')
            x, y, w, h = items[0]['visible']
            app.click_at(int(x + w / 2), int(y + h / 2))
            app.autosave(lambda s: s.get('sentence', '').startswith('the then happening') and s.get('title') == 'story.txt')

    def test_file_open_text_lists_text_files_and_offers_a_long_ones_first_65536_tokens(self):
        book = self.dir / 'book.txt'
        book.write_text(' '.join(f'w{i}' for i in range(65_600)))
        (self.dir / 'notes.md').write_text('a few words')
        with Session(self.dir / 'session', ['--scenario', 'preset:causal-gpt']) as app:
            app.click_file_menu_item(2)
            app.key('ctrl+a')
            app.xdotool('type', '--delay', 5, str(self.dir) + '/')
            app.key('Return')
            app.wait_frames(4)
            # The folder's texts are listed to click, whatever their names end in.
            for name in ('book.txt', 'notes.md'):
                self.assertTrue(app.has(name), f'{name} is listed in the Open text dialog')
            app.click('book.txt')
            app.click('Open')
            app.wait_frames(4)
            offer = 'Open its first 65,536 tokens'
            self.assertTrue(app.has(offer), 'a text past 65,536 tokens is offered in part')
            app.click(offer)
            saved = app.autosave(lambda s: s.get('title') == 'book.txt (first 65,536 tokens)')
            self.assertEqual(saved['sentence'], ' '.join(f'w{i}' for i in range(65_536)))
            self.image(app)
            # One undo step gives the sentence back.
            app.key('ctrl+z')
            app.autosave(lambda s: s.get('title') != 'book.txt (first 65,536 tokens)' and len(s.get('sentence', '')) < 200)

    def test_a_text_of_one_enormous_word_is_shown_read_only_and_the_window_keeps_up(self):
        blob = self.dir / 'blob.txt'
        blob.write_text('a' * 3_000_000)
        with Session(self.dir / 'session', ['--scenario', 'preset:causal-gpt']) as app:
            self.assertTrue(app.has('##sentence'), 'a short sentence is edited in the box')
            self.open_text(app, str(blob))
            app.autosave(lambda s: s.get('title') == 'blob.txt')
            # A word of 3,000,000 characters was drawn and logged whole every frame (seconds a
            # frame); it is cut on its chip and in the labels, and the box gives way to a
            # read-only view that says why.
            app.wait_frames(10, timeout=60)
            self.assertFalse(app.has('##sentence'), 'a word of 3,000,000 characters is not edited in the box')
            chip = app.find('Sentence/0/##chip')
            self.assertLess(chip['rect'][2], 400, 'the chip shows the start of its token')
            self.assertLess(len(app.find('##heatmap')['first_row_label']), 300)
            # Undo brings the sentence before back, editable.
            app.key('ctrl+z')
            app.autosave(lambda s: s.get('title') != 'blob.txt')
            app.wait_frames(4)
            self.assertTrue(app.has('##sentence'))


if __name__ == '__main__':
    attnviz_gui.ATTNVIZ = os.environ.get('ATTNVIZ_BIN', attnviz_gui.ATTNVIZ)
    unittest.main()
