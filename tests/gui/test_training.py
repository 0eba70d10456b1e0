"""The Training view in the real window (issue 47 item 4): key 8 opens it, a tiny induction run
starts, its loss curve grows while it trains and stops growing on Pause, the snapshot slider goes
back to the initialisation, Open in Model view writes that snapshot as a model folder and opens
it in the Model view (its thumbnails), the Classroom menu and presentation mode's overlay bring the
view back, and quitting with steps not saved asks first: Keep and close saves the last step.
Real binary, its own Xvfb display, xdotool events (attnviz_gui.py). Screenshots go to
ATTNVIZ_SHOTS_DIR when set (English, and Korean with LANG=ko_KR.UTF-8 as ATTNVIZ_TEST_LANG).

usage: test_training.py [unittest arguments]   (ATTNVIZ_BIN names the binary)"""
import json
import os
import pathlib
import shutil
import sys
import tempfile
import time
import unittest

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import attnviz_gui  # noqa: E402
from attnviz_gui import Session  # noqa: E402

MISSING = attnviz_gui.have_tools()


def shot(app, path):
    image = app.screenshot(path)
    shots = os.environ.get('ATTNVIZ_SHOTS_DIR')
    if shots:
        pathlib.Path(shots).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, shots)
    return image


def screen_rect(app, name):
    x, y, w, h = app.find(name)['visible']
    ox, oy = app.log().get('window_origin', [0, 0])
    return ox + x, oy + y, w, h


def korean():
    return os.environ.get('ATTNVIZ_TEST_LANG', '').startswith('ko')


def run_folder(data):
    return next(data.glob('attnviz/training/induction-*'))


@unittest.skipIf(MISSING is not None, f'{MISSING} is not installed (scripts/install-deps.sh installs it)')
class TrainingView(unittest.TestCase):
    def setUp(self):
        self.dir = pathlib.Path(tempfile.mkdtemp(prefix='attnviz-gui-training-'))

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def test_train_pause_scrub_and_open_in_the_model_view(self):
        data = self.dir / 'data'
        env = {'XDG_DATA_HOME': str(data)}
        if os.environ.get('ATTNVIZ_TEST_LANG'):
            env['LANG'] = os.environ['ATTNVIZ_TEST_LANG']
        with Session(self.dir / 'window', extra_env=env) as app:
            app.key('8')
            for field, value in (('##training-heads', 2), ('##training-d-model', 32), ('##training-context', 24),
                                 ('##training-batch', 8), ('##training-steps', 3000)):
                app.replace_text(field, value)
            app.key('Return')
            app.click('training-start')
            curve = screen_rect(app, '##training-loss-curve')
            before = shot(app, self.dir / 'training-1.png')
            time.sleep(1.5)
            app.wait_frames(3)
            during = shot(app, self.dir / 'training-2.png')
            self.assertTrue(before.crop_differs(during, curve), 'the loss curve did not grow while training')
            self.assertTrue(app.has('##train-thumb-1-1/##heatmap'), 'no thumbnail for layer 1 head 1')

            app.click('training-pause')
            time.sleep(0.5)
            app.wait_frames(3)
            paused = shot(app, self.dir / 'training-3.png')
            time.sleep(0.5)
            app.wait_frames(3)
            still = app.screenshot(self.dir / 'training-4.png')
            self.assertFalse(paused.crop_differs(still, curve), 'the loss curve grew after Pause')

            # The slider's left end: the initialisation (step 0).
            x, y, w, h = screen_rect(app, '##training-snapshot')
            app.click_at(int(x + 3), int(y + h / 2))
            shot(app, self.dir / 'training-scrubbed.png')
            app.click('training-open')
            step0 = next(data.glob('attnviz/training/induction-*/checkpoints/step-0'))
            self.assertTrue((step0 / 'model.safetensors').exists())
            attnviz_gui._wait(lambda: app.has('##thumb-0-0/##heatmap'), 30, 'the Model view of the saved snapshot')
            shot(app, self.dir / 'training-model-view.png')

            # Back from the Model view through the Classroom menu (its item after the Model view),
            # then through presentation mode's overlay.
            classroom_menu = [w for w in app.widgets() if w['path'] == '##MainMenuBar/##menubar//'][3]
            app.click_widget(classroom_menu)
            items = attnviz_gui._wait(lambda: [w for w in app.widgets() if w['window'] == '##Menu_00'], 10,
                                      'the Classroom menu')
            app.click_widget(items[7])
            attnviz_gui._wait(lambda: app.has('training-start'), 10, 'the Training view from the Classroom menu')
            app.key('1')
            app.key('F11')
            app.point_at_overlay_corner()
            label = '8  ' + ('\ud559\uc2b5' if korean() else 'Training')
            pill = attnviz_gui._wait(
                lambda: next((w for w in app.widgets() if w['window'] == '##presentation-overlay' and
                              w['label'] == label), None), 10, 'the overlay\'s Training pill')
            app.click_widget(pill)
            attnviz_gui._wait(lambda: app.has('##training-loss-curve'), 10, 'the Training view from the overlay')
            app.key('F11')

            # Quitting with the run's last steps not saved asks first; Keep and close saves the
            # last step's model into the run's folder before the window goes.
            steps_logged = run_folder(data) / 'training.jsonl'
            self.assertFalse((run_folder(data) / 'model.safetensors').exists())
            app.key('ctrl+q')
            x, y = app.centre('training-keep')
            app.move_to(x, y)
            app.xdotool('click', 1)  # no frames waited for: the window closes
            self.assertEqual(app.process.wait(60), 0, app.stderr())
            self.assertTrue((run_folder(data) / 'model.safetensors').exists(), 'Keep and close saved no model')
            last = json.loads(steps_logged.read_text().splitlines()[-1])
            self.assertGreater(last['step'], 0)


if __name__ == '__main__':
    unittest.main()
