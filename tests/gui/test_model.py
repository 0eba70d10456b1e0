"""A pretrained model in the real window (issue 15, item 4): `attnviz --model` opens a tiny
generated GPT-2 (tests/reference/check_models.py writes it), the Heatmaps view gets its layer
selector, the Model view its layers x heads thumbnails and next tokens; a click on a thumbnail
opens that layer and head in the Heatmaps view, switching the head off changes the next-token
probabilities, Undo brings them back. Real binary, its own Xvfb display, xdotool events, widgets
found by name in the widget log (attnviz_gui.py).

usage: test_model.py [unittest arguments]   (ATTNVIZ_BIN names the binary)"""
import os
import pathlib
import shutil
import sys
import tempfile
import unittest

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / 'reference'))
import attnviz_gui  # noqa: E402
import check_models as cm  # noqa: E402
from attnviz_gui import Session  # noqa: E402

MISSING = attnviz_gui.have_tools()


def next_token_probabilities(app):
    """The Model view's next-token bars, as their IDs hold them: ["12.34%", ...]."""
    return [w['path'].rsplit('/', 1)[-1].split('##')[0] for w in app.widgets() if '##next-p-' in w['path']]


@unittest.skipIf(MISSING is not None, f'{MISSING} is not installed (scripts/install-deps.sh installs it)')
class RealModel(unittest.TestCase):
    def setUp(self):
        self.dir = pathlib.Path(tempfile.mkdtemp(prefix=f'attnviz-gui-{self._testMethodName}-'))
        self.model = self.dir / 'gpt2'
        cm.write_gpt2_folder(self.model, cm.gpt2_weights(np.random.default_rng(3), cm.GPT2), cm.GPT2)

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def test_thumbnail_opens_a_head_and_switching_it_off_changes_the_next_tokens(self):
        layers, heads = cm.GPT2['layers'], cm.GPT2['heads']
        with Session(self.dir / 'session', ['--model', str(self.model), '--text', 'the cat sat on the mat']) as app:
            attnviz_gui._wait(lambda: app.has('##model-layer'), 60, "the Heatmaps view's layer selector")
            self.assertTrue(app.has('##model-head'), 'a head selector beside it')
            self.assertTrue(app.has('##model-scores/##heatmap') and app.has('##model-weights/##heatmap'),
                            "the layer's scores and weights")

            app.click('##views/Model view')
            attnviz_gui._wait(lambda: app.has('##thumb-1-2/##heatmap'), 30, 'the thumbnails')
            thumbnails = [w for w in app.widgets() if '##thumb-' in w['path'] and w['path'].endswith('##heatmap')]
            self.assertEqual(len(thumbnails), layers * heads, 'one thumbnail per layer and head')
            self.assertTrue(app.has('##model-rollout/##heatmap'), 'the rollout heatmap')
            before = attnviz_gui._wait(lambda: next_token_probabilities(app), 30, 'the next tokens')
            self.assertEqual(len(before), 10)

            app.click('##thumb-1-2/##heatmap')
            attnviz_gui._wait(lambda: app.has('heatmaps-switch/Switch off##1-2'), 30,
                              'the Heatmaps view on layer 1, head 2')
            app.click('heatmaps-switch/Switch off##1-2')
            attnviz_gui._wait(lambda: app.has('heatmaps-switch/Switch on##1-2'), 30, 'the head switched off')

            app.click('##views/Model view')
            after = attnviz_gui._wait(lambda: (p := next_token_probabilities(app)) != before and p, 30,
                                      'the next-token probabilities to change')
            self.assertEqual(len(after), 10)
            self.assertTrue(app.has('model-switch/Switch on##1-2'), 'the Model view shows the head off too')

            app.click('Undo##model')
            attnviz_gui._wait(lambda: next_token_probabilities(app) == before, 30, 'Undo to bring the head back')
            self.assertTrue(app.has('model-switch/Switch off##1-2'))

            # The head scaled: its slider in the Model view dragged to the left and let go.
            x, y, w, h = app.find('model-switch/scale')['visible']
            ox, oy = app.log().get('window_origin', [0, 0])
            app.move_to(int(ox + x + w / 2), int(oy + y + h / 2))
            app.xdotool('mousedown', 1)
            app.move_to(int(ox + x + w / 4), int(oy + y + h / 2))
            app.xdotool('mouseup', 1)
            attnviz_gui._wait(lambda: (p := next_token_probabilities(app)) != before and p, 30,
                              'the next tokens to follow the scaled head')
            self.assertTrue(app.has('model-switch/Switch off##1-2'), 'scaled, not off')
            app.click('Undo##model')
            attnviz_gui._wait(lambda: next_token_probabilities(app) == before, 30, 'Undo to scale it back')

            # The same head's W_Q edited in the Heatmaps view: a cell clicked and typed in.
            app.click('##views/Heatmaps')
            app.click('W_Q, W_K, W_V##model-shows')
            attnviz_gui._wait(lambda: app.has('##model-W_Q/##heatmap'), 30, "the head's W_Q")
            app.click('##model-W_Q/##heatmap')
            attnviz_gui._wait(lambda: app.has('##model-weight-value'), 30, "the cell's value field")
            app.type('40')
            app.key('Return')
            app.click('##views/Model view')
            attnviz_gui._wait(lambda: (p := next_token_probabilities(app)) != before and p, 30,
                              'the next tokens to follow the edited W_Q')
            app.click('Undo##model')
            attnviz_gui._wait(lambda: next_token_probabilities(app) == before, 30, 'Undo to put W_Q back')

    def test_a_model_that_cannot_open_leaves_the_window_working(self):
        broken = self.dir / 'broken'
        shutil.copytree(self.model, broken)
        data = (broken / 'model.safetensors').read_bytes()
        (broken / 'model.safetensors').write_bytes(data[:len(data) // 2])  # truncated
        with Session(self.dir / 'session', ['--scenario', 'preset:causal-gpt', '--model', str(broken)]) as app:
            app.click('##views/Model view')
            attnviz_gui._wait(lambda: app.has('model-view/Dismiss##model-error'), 60, 'the error in the Model view')
            self.assertTrue(app.has('Open a model\u2026##model-view'), 'the offer to open another model')
            app.click('##views/Heatmaps')
            attnviz_gui._wait(lambda: app.has('##head1/##heatmap'), 30, "the scenario's heads in the Heatmaps view")
            self.assertFalse(app.has('##model-layer'), 'no layer selector without a model')
            app.click('##views/Model view')
            app.click('model-view/Dismiss##model-error')
            attnviz_gui._wait(lambda: not app.has('model-view/Dismiss##model-error'), 30, 'the error dismissed')


if __name__ == '__main__':
    attnviz_gui.ATTNVIZ = os.environ.get('ATTNVIZ_BIN', attnviz_gui.ATTNVIZ)
    unittest.main()
