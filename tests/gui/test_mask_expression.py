"""A mask typed as an expression in the Mask panel (issue 14), with the real window, binary,
pointer and keyboard: the sinks pattern `k <= q && (k < 4 || q - k <= 8)` typed into the field
shows on the weights heatmap and lands in the autosave; a typo after it shows an error at the
field and changes nothing: the last valid mask stays, on screen and in the autosave.

usage: test_mask_expression.py [unittest arguments]   (ATTNVIZ_BIN names the binary)"""
import json
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
SINKS = 'k <= q && (k < 4 || q - k <= 8)'


@unittest.skipIf(MISSING is not None, f'{MISSING} is not installed (scripts/install-deps.sh installs it)')
class MaskExpression(unittest.TestCase):
    def setUp(self):
        self.dir = pathlib.Path(tempfile.mkdtemp(prefix='attnviz-gui-mask-expression-'))

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    @staticmethod
    def weights_cells(app):
        for item in app.widgets():
            if item['path'].endswith('##weights/##heatmap') or item['path'].endswith('##focused/##heatmap'):
                return item['visible']
        raise AssertionError('no weights heatmap on screen')

    @staticmethod
    def cells(image, app, rect):
        """The cells' square on the screen: the widget's rectangle holds the labels too, left and
        above; the cells fill its bottom-right corner, where the labels' background ends."""
        ox, oy = app.log()['window_origin']
        x, y, w, h = (int(ox + rect[0]), int(oy + rect[1]), int(rect[2]), int(rect[3]))
        background = image.pixel(x + 1, y + 1)  # the empty corner above the row labels
        left = x + w - 3
        while left > x and image.pixel(left - 1, y + h - 4) != background:
            left -= 1
        top = y + h - 3
        while top > y and image.pixel(x + w - 4, top - 1) != background:
            top -= 1
        return left, top, x + w - left, y + h - top

    def hatched(self, image, app, rect, tokens, row, col):
        """Whether cell (row, col) is hatched grey (hidden) rather than a colour of the colormap.
        Read near its top-left corner, away from an in-cell number and the grid lines."""
        x, y, w, h = self.cells(image, app, rect)
        cx = int(x + (col + 0.25) * w / tokens)
        cy = int(y + (row + 0.25) * h / tokens)
        pixels = [image.pixel(cx + dx, cy + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)]
        return all(max(p) - min(p) <= 3 for p in pixels)

    def test_typing_an_expression_shows_its_pattern_and_a_typo_keeps_the_last_mask(self):
        with Session(self.dir / 'session', ['--scenario', 'preset:longformer']) as app:
            tokens = 21
            rect = self.weights_cells(app)
            first = app.screenshot(self.dir / 'longformer.png')
            # Longformer (window 2, globals 0 and 9): row 20 does not see key 2, row 5 sees key 9.
            self.assertTrue(self.hatched(first, app, rect, tokens, 20, 2))
            self.assertFalse(self.hatched(first, app, rect, tokens, 5, 9))

            app.reveal('Mask/##expression')
            app.click('Mask/##expression')
            app.key('ctrl+a')
            app.type(SINKS)
            saved = app.autosave(lambda s: s['mask'].get('expression') == SINKS)
            self.assertEqual(saved['mask'].get('window'), 2, 'the fields stay: the expression is ANDed with them')
            # The column may have moved under the field: as the error lines below it came and
            # went, the content shrank and Dear ImGui pulled the scrolled column back.
            self.assertFalse(app.reveal('Mask/##expression').get('error'))
            sinks = app.screenshot(self.dir / 'sinks.png')
            # AND the window of 2 with its globals: row 20 sees sink key 2? No: |20 - 2| > 2 and
            # neither is global. Row 9 (global) sees sink key 2, and key 9 stays hidden from row 5.
            self.assertFalse(self.hatched(sinks, app, rect, tokens, 9, 2))
            self.assertTrue(self.hatched(sinks, app, rect, tokens, 5, 9))

            # The patterns are the whole mask: with None first, the sinks pattern alone.
            app.reveal('Mask/None##preset')
            app.click('Mask/None##preset')
            app.autosave(lambda s: not s['mask'].get('expression') and 'window' not in s['mask'])
            app.reveal('Mask/##expression')
            app.click('Mask/##expression')
            app.key('ctrl+a')
            app.type(SINKS)
            app.autosave(lambda s: s['mask'].get('expression') == SINKS and 'window' not in s['mask'])
            alone = app.screenshot(self.dir / 'alone.png')
            self.assertFalse(self.hatched(alone, app, rect, tokens, 20, 2), 'a sink: the first 4 keys stay visible')
            self.assertFalse(self.hatched(alone, app, rect, tokens, 20, 12), 'the last 9 keys are visible')
            self.assertTrue(self.hatched(alone, app, rect, tokens, 20, 10), 'between them nothing is')
            self.assertTrue(self.hatched(alone, app, rect, tokens, 5, 9), 'causal')

            # A typo: an error at the field; the mask stays the last valid one, on screen and saved.
            app.key('End')
            app.type(' && x > ')
            self.assertTrue(app.reveal('Mask/##expression').get('error'), 'the error shows at the field')
            time.sleep(2.0)  # past the autosave's delay
            kept = json.loads(app.autosave_file.read_text())
            # (the space typed first left a valid expression, applied with its trailing space)
            self.assertEqual(kept['mask'].get('expression').strip(), SINKS, 'nothing lost: the last valid mask is kept')
            typo = app.screenshot(self.dir / 'typo.png')
            self.assertFalse(self.hatched(typo, app, rect, tokens, 20, 2))
            self.assertTrue(self.hatched(typo, app, rect, tokens, 20, 10))
            # Finishing the condition applies it.
            app.type('2')
            self.assertTrue(app.reveal('Mask/##expression').get('error'), "'x' is not a name: still an error")
            app.key(*(['BackSpace'] * len(' && x > 2')))
            self.assertFalse(app.reveal('Mask/##expression').get('error'))


if __name__ == '__main__':
    unittest.main()
