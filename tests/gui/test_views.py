"""The Tiled view and Save view as image (issue 13) with the real window: the view opened from
the command line, a tile stepped with the keyboard, and the view saved as a PNG through
File > Save view as image's shortcut and dialog, each image checked for what it must show;
the arrow keys step the views without moving Dear ImGui's keyboard focus along the tabs.

usage: test_views.py [unittest arguments]   (ATTNVIZ_BIN names the binary)"""
import os
import pathlib
import shutil
import sys
import tempfile
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import attnviz_gui  # noqa: E402
from attnviz_gui import Image, Session  # noqa: E402

MISSING = attnviz_gui.have_tools()
GOLD = (255, 215, 0)  # the current tile's outline


def near(pixel, colour, tolerance=16):
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, colour))


def gold_rows(image):
    """The rows of `image` with gold pixels in them (where the current tile is)."""
    rows = set()
    for y in range(0, image.height, 2):
        for x in range(0, image.width, 2):
            if near(image.pixel(x, y), GOLD):
                rows.add(y)
                break
    return rows


@unittest.skipIf(MISSING is not None, f'{MISSING} is not installed (scripts/install-deps.sh installs it)')
class TiledViewToImage(unittest.TestCase):
    def setUp(self):
        self.dir = pathlib.Path(tempfile.mkdtemp(prefix='attnviz-gui-views-'))

    def tearDown(self):
        if os.environ.get('ATTNVIZ_KEEP_GUI_TESTS'):
            print(f'\nkept {self.dir}', file=sys.stderr)
        else:
            shutil.rmtree(self.dir, ignore_errors=True)

    def save_view(self, app, expected_name):
        """Ctrl+Shift+E, then Return in the dialog: the proposed name in the pictures folder."""
        app.key('ctrl+shift+e')
        self.assertIn('Save view as image##view_image', app.log()['windows'], 'Ctrl+Shift+E opens the dialog')
        app.key('Return', settle=8)
        path = self.dir / 'home' / 'Pictures' / expected_name
        attnviz_gui._wait(path.exists, 20, f'{path.name} to be written')
        self.assertNotIn('Save view as image##view_image', app.log()['windows'], 'the dialog closed')
        return Image.load(path)

    def test_step_a_tile_with_the_keyboard_and_save_the_view_as_an_image(self):
        home = self.dir / 'home'
        (home / 'Pictures').mkdir(parents=True)
        # --head 9 of a 4-head scenario: a warning notice that stays over the view until closed
        # (the views show head 3).
        args = ['--scenario', 'preset:sliding-window', '--view', 'tiled', '--block-q', '4', '--block-k', '4', '--head', '9']
        with Session(self.dir / 'session', args, home=home) as app:
            log = app.log()
            main = log['windows']['##main']['rect']
            notices = [w['rect'] for name, w in log['windows'].items() if name.startswith('##notice')]
            self.assertTrue(notices, 'the --head warning is on screen')
            screen = app.screenshot(self.dir / 'screen.png')
            first = self.save_view(app, 'attnviz-tiled-tile-1.png')
            self.assertEqual((first.width, first.height), (round(main[2]), round(main[3])),
                             'the image is the main area, not the whole window')
            # Where the screen shows the notice, the image shows the view: notices stay out of it.
            ox, oy = log.get('window_origin', [0, 0])
            nx, ny, nw, nh = notices[0]
            inside = [(int(nx + nw * fx), int(ny + nh * fy)) for fx in (0.2, 0.5, 0.8) for fy in (0.3, 0.6)]
            inside = [(x, y) for x, y in inside if main[0] <= x < main[0] + main[2] and main[1] <= y < main[1] + main[3]]
            self.assertTrue(inside, 'the notice lies over the view')
            differing = [(x, y) for x, y in inside
                         if screen.pixel(int(ox + x), int(oy + y)) != first.pixel(int(x - main[0]), int(y - main[1]))]
            self.assertTrue(differing, 'the notice is in the saved image')

            app.key('Right')  # the next tile: query block 0, key block 1
            second = self.save_view(app, 'attnviz-tiled-tile-2.png')
            self.assertEqual((second.width, second.height), (first.width, first.height))
            # The gold outline moved right along the same query block: the same rows of the
            # image, other columns.
            self.assertTrue(gold_rows(first), 'the current tile is outlined in gold')
            self.assertEqual(gold_rows(first), gold_rows(second), 'still the first query block')
            self.assertTrue(first.crop_differs(second, (0, 0, first.width, first.height)), 'tile 2 looks like tile 1')


@unittest.skipIf(MISSING is not None, f'{MISSING} is not installed (scripts/install-deps.sh installs it)')
class ArrowKeysStepTheLesson(unittest.TestCase):
    """Right steps the Step view and nothing else: Dear ImGui's keyboard navigation once moved
    along the tab bar with it, and Space then opened the tab it had reached (the Tiled view)."""

    def setUp(self):
        self.dir = pathlib.Path(tempfile.mkdtemp(prefix='attnviz-gui-arrows-'))

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def test_right_then_space_stays_in_the_step_view(self):
        with Session(self.dir / 'session', ['--scenario', 'preset:life-is-short']) as app:
            app.click('##views/Step by step', settle=10)
            before = app.screenshot(self.dir / 'step1.png')
            app.key('Right', 'Right', 'Right', settle=8)
            after = app.screenshot(self.dir / 'step4.png')
            log = app.log()
            ox, oy = log.get('window_origin', [0, 0])
            x, y, w, h = log['windows']['##main']['rect']
            self.assertTrue(before.crop_differs(after, (ox + x, oy + y, w, h)), 'Right steps the lesson')
            app.key('space', settle=8)
            self.assertTrue(app.has('##views/Step by step/Next ▶'), 'still the Step view after Space')
            self.assertFalse(app.has('##speed'), 'the Tiled view did not open')
            app.click('##views/Tiled', settle=10)
            app.key('Right', 'Right', 'space', settle=8)
            self.assertTrue(app.has('##speed'), 'Right and Space in the Tiled view leave it open')


if __name__ == '__main__':
    attnviz_gui.ATTNVIZ = os.environ.get('ATTNVIZ_BIN', attnviz_gui.ATTNVIZ)
    unittest.main()
