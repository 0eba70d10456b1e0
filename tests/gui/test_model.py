"""A pretrained model in the real window (issue 15, item 4): `attnviz --model` opens a tiny
generated GPT-2 (tests/reference/check_models.py writes it), the Heatmaps view gets its layer
selector, the Model view its layers x heads thumbnails and next tokens; a click on a thumbnail
opens that layer and head in the Heatmaps view, switching the head off changes the next-token
probabilities, Undo brings them back; a --text-file too long for the model opens it with the
offer to keep the text's start that fits, and File > Open text... gives the model its text;
BERT shows its predictions at [MASK] (against a float64 reference) and its word pieces whole,
Ctrl+E exports the model's layer and head shown, as the command line does, and the Model
view's rollout exports as a float64 reference computes it.
Real binary, its own Xvfb display, xdotool events, widgets found by name in the widget log
(attnviz_gui.py).

usage: test_model.py [unittest arguments]   (ATTNVIZ_BIN names the binary)"""
import os
import pathlib
import re
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
import heads_reference as hr  # noqa: E402
import model_reference as ref  # noqa: E402
from attnviz_gui import Session  # noqa: E402

MISSING = attnviz_gui.have_tools()


def next_token_probabilities(app):
    """The Model view's next-token bars, as their IDs hold them: ["12.34%", ...]."""
    return [w['path'].rsplit('/', 1)[-1].split('##')[0] for w in app.widgets() if '##next-p-' in w['path']]


def window_title(app):
    """The title bar's text of the window (xdotool: by its WM_CLASS, the one that has a name)."""
    ids = subprocess.run(['xdotool', 'search', '--classname', 'attnviz'], env=app.environment(), capture_output=True,
                         text=True, timeout=30).stdout.split()
    names = [subprocess.run(['xdotool', 'getwindowname', i], env=app.environment(), capture_output=True, text=True,
                            timeout=30).stdout.strip() for i in ids]
    named = [n for n in names if n]
    return named[0] if named else ''


def slider_end(app, slider):
    """A slider's right end on the screen: its largest value."""
    x, y, w, h = app.find(slider)['visible']
    ox, oy = app.log().get('window_origin', [0, 0])
    return int(ox + x + w - 3), int(oy + y + h / 2)


def pick_last_layer(app, slider):
    """Clicks a layer slider at its right end: the last layer."""
    x, y, w, h = app.find(slider)['visible']
    ox, oy = app.log().get('window_origin', [0, 0])
    app.click_at(int(ox + x + w - 3), int(oy + y + h / 2))


@unittest.skipIf(MISSING is not None, f'{MISSING} is not installed (scripts/install-deps.sh installs it)')
class RealModel(unittest.TestCase):
    def setUp(self):
        self.dir = pathlib.Path(tempfile.mkdtemp(prefix=f'attnviz-gui-{self._testMethodName}-'))
        self.model = self.dir / 'gpt2'
        cm.write_gpt2_folder(self.model, cm.gpt2_weights(np.random.default_rng(3), cm.GPT2), cm.GPT2)

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def test_the_rollout_exports_as_a_float64_reference_computes_it(self):
        text = 'the cat sat on the mat'
        weights = cm.gpt2_weights(np.random.default_rng(3), cm.GPT2)  # setUp's model
        ids = ref.byte_level_encode(text, {t: i for i, t in enumerate(cm.byte_vocab())}, cm.BYTE_MERGES)
        want = ref.rollout(ref.gpt2_forward(cm.stored_all(weights, 'F32'), cm.GPT2, ids)[0], cm.GPT2['layers'] - 1)
        target = self.dir / 'figures'
        with Session(self.dir / 'session', ['--model', str(self.model), '--text', text]) as app:
            attnviz_gui._wait(lambda: app.has('##model-layer-heatmaps'), 60, 'the model')
            app.click('##views/Model view')
            button = attnviz_gui._wait(lambda: next((w['path'] for w in app.widgets() if w['path'].endswith('rollout/##export')), None),
                                       30, "the rollout's export button")
            app.click(button)
            attnviz_gui._wait(lambda: app.has('NPY##rollout_export'), 30, 'the popup')
            self.assertTrue(app.has('CSV##rollout_export') and app.has('SVG##rollout_export'), 'PNG, SVG, CSV and NPY')
            app.click('NPY##rollout_export')
            app.replace_text('##rollout_out', target)
            app.click('Export##rollout_export', settle=10)
            exported = attnviz_gui._wait(lambda: (f := target / 'rollout.npy').exists() and f, 30, 'rollout.npy')
            attnviz_gui._wait(lambda: not app.has('NPY##rollout_export'), 20, 'the popup closed after the export')
            # PNG next, into the folder the popup now proposes.
            app.click(button)
            attnviz_gui._wait(lambda: app.has('PNG##rollout_export'), 30, 'the popup again')
            app.click('PNG##rollout_export')
            app.click('Export##rollout_export', settle=10)
            attnviz_gui._wait(lambda: (target / 'rollout.png').exists(), 30, 'rollout.png beside it')
        got = np.load(exported)
        self.assertEqual(got.shape, (len(ids), len(ids)))
        np.testing.assert_allclose(got, want, atol=1e-5, err_msg="the window's rollout against the float64 reference")

    def test_the_grid_coloured_by_previous_token_ranks_the_heads_as_a_float64_reference_does(self):
        """Issue 48 item 1: Colour by previous token lists the highest heads with the values a
        float64 forward pass gives; a head switched off brings the reference's new values; a
        click on a listed head opens it in the Heatmaps view."""
        text = 'the cat sat on the mat'
        weights = cm.gpt2_weights(np.random.default_rng(3), cm.GPT2)  # setUp's model
        ids = ref.byte_level_encode(text, {t: i for i, t in enumerate(cm.byte_vocab())}, cm.BYTE_MERGES)

        def reference(factors=None):  # (layer, head, previous-token score), highest first
            layers = ref.gpt2_forward(cm.stored_all(weights, 'F32'), cm.GPT2, ids, factors)[0]
            scores = [(l, h, float(np.mean([a['weights'][i, i - 1] for i in range(1, len(ids))])))
                      for l, layer in enumerate(layers) for h, a in enumerate(layer)]
            return sorted(scores, key=lambda s: -s[2])[:8]

        def listed(app):  # the list's bars, as their IDs hold them: [(layer, head, value)]
            rows = [w['path'].rsplit('/', 1)[-1] for w in app.widgets() if '##role-value-' in w['path']]
            return [(int(r.split('-')[-2]), int(r.split('-')[-1]), float(r.split('##')[0])) for r in rows]

        def expect_reference(got, want):
            self.assertEqual(len(got), len(want))
            for g, w in zip(got, want):
                self.assertAlmostEqual(g[2], w[2], delta=1e-4)
            self.assertEqual({(l, h) for l, h, v in got if v > want[-1][2] + 1e-4},
                             {(l, h) for l, h, v in want if v > want[-1][2] + 1e-4}, 'the same heads, in order')

        with Session(self.dir / 'session', ['--model', str(self.model), '--text', text]) as app:
            attnviz_gui._wait(lambda: app.has('##model-layer-heatmaps'), 150, 'the model')
            app.click('##views/Model view')
            app.click('##model-role')
            app.click_label('previous token', window='##Combo')
            got = attnviz_gui._wait(lambda: listed(app), 60, 'the highest heads by previous token')
            expect_reference(got, reference())
            self.assertFalse(app.has('##thumb-1-2/##heatmap'), 'the grid shows colours, not thumbnails')
            self.assertTrue(app.has('##thumb-1-2'), 'each head still a cell of the grid')

            # Layer 0 head 0 off: layer 1's weights, and so its scores, change.
            app.click('##thumb-0-0')
            attnviz_gui._wait(lambda: app.has('heatmaps-switch/Switch off##0-0'), 30, 'the Heatmaps view on head 0-0')
            app.click('heatmaps-switch/Switch off##0-0')
            attnviz_gui._wait(lambda: app.has('heatmaps-switch/Switch on##0-0'), 30, 'the head off')
            app.click('##views/Model view')
            want = reference({0: {0: 0.0}})
            self.assertGreater(max(abs(a[2] - b[2]) for a, b in zip(reference(), want)), 1e-3, 'a change to see')
            attnviz_gui._wait(lambda: all(abs(g[2] - w[2]) < 1e-4 for g, w in zip(listed(app), want)) and listed(app),
                              60, 'the roles recomputed with the head off')
            expect_reference(listed(app), want)

            second = listed(app)[1]
            app.click_label('2. layer %d head %d' % (second[0], second[1]))
            attnviz_gui._wait(lambda: app.has('heatmaps-switch/Switch off##%d-%d' % (second[0], second[1])), 30,
                              'the listed head opened in the Heatmaps view')

    def test_the_logit_lens_reads_every_layer_as_a_float64_reference_does(self):
        """Issue 48 item 2: Show > Logit lens fills the column with layers x positions, each cell
        the likeliest token and its probability and the text's next token's probability, as a
        float64 forward pass reads them; a head switched off brings the reference's new lens."""
        text = 'the cat sat on the mat'
        weights = cm.gpt2_weights(np.random.default_rng(3), cm.GPT2)  # setUp's model
        ids = ref.byte_level_encode(text, {t: i for i, t in enumerate(cm.byte_vocab())}, cm.BYTE_MERGES)
        model = hr.Gpt2(cm.stored_all(weights, 'F32'), cm.GPT2)

        def reference(patch=None):  # [layer][position] -> (probabilities, p_next, rank_next)
            return hr.lens(model, model.run(ids, patch), ids)

        def cells(app):  # {(layer, position): (top id, top p, p_next or -1)}, as the cells' IDs hold them
            got = {}
            for w in app.widgets():
                name = w['path'].rsplit('/', 1)[-1]
                if '##lens-' in name:
                    top, p, p_next = name.split('##')[0].split()
                    layer, position = name.rsplit('-', 2)[1:]
                    got[(int(layer), int(position))] = (int(top), float(p), float(p_next))
            return got

        def matches(got, want):
            if len(got) != len(want) * len(ids):
                return False
            for (layer, position), (top, p, p_next) in got.items():
                probabilities, want_next, _ = want[layer][position]
                # Ties within float32 rounding may pick another token: compare the probabilities.
                if abs(p - probabilities.max()) > 1e-5 or abs(probabilities[top] - p) > 1e-5:
                    return False
                if (p_next < 0) != (want_next is None) or (want_next is not None and abs(p_next - want_next) > 1e-5):
                    return False
            return True

        with Session(self.dir / 'session', ['--model', str(self.model), '--text', text]) as app:
            attnviz_gui._wait(lambda: app.has('##model-layer-heatmaps'), 150, 'the model')
            app.click('##views/Model view')
            app.click_label('Logit lens')
            got = attnviz_gui._wait(lambda: cells(app), 60, 'the logit lens')
            want = reference()
            self.assertEqual(len(got), (cm.GPT2['layers'] + 1) * len(ids), 'the embeddings and every layer, every token')
            self.assertTrue(matches(got, want), f'the lens {got} against the float64 reference')
            last = got[(cm.GPT2['layers'], len(ids) - 1)]
            self.assertEqual(last[2], -1.0, 'the last token has no next token')

            # Layer 0 head 0 off: every later row changes, the embeddings' stays.
            app.click('model-switch/Switch off##0-0')
            switched = reference((0, 0, 0.0))
            change = max(abs(a[0].max() - b[0].max()) for a, b in zip(switched[-1], want[-1]))
            self.assertGreater(change, 1e-3, 'a change to see')
            attnviz_gui._wait(lambda: matches(cells(app), switched), 60, 'the lens recomputed with the head off')

    def test_the_logit_attribution_splits_the_logit_as_a_float64_reference_does(self):
        """Issue 48 item 3: Show > Logit attribution splits the likeliest next token's logit into
        the embeddings', each head's, each attention bias's, each MLP's and the final bias's parts,
        as a float64 forward pass does, largest first, summing to the logit; a chosen position
        brings its own; a head's bar opens it in the Heatmaps view."""
        text = 'the cat sat on the mat'
        weights = cm.gpt2_weights(np.random.default_rng(3), cm.GPT2)  # setUp's model
        ids = ref.byte_level_encode(text, {t: i for i, t in enumerate(cm.byte_vocab())}, cm.BYTE_MERGES)
        model = hr.Gpt2(cm.stored_all(weights, 'F32'), cm.GPT2)
        stream = model.run(ids)

        def reference(position, target=None):  # (target, logit, {(kind, layer, head): value})
            if target is None:
                target = int(np.argmax(hr.logits(model, stream.residuals[-1][position][None, :])[0]))
            logit, parts = hr.attribution(model, stream, position, target)
            return target, logit, {(k, -1 if l is None else l, -1 if h is None else h): v for k, l, h, v in parts}

        def shown(app):  # (target, position, logit, sum, [((kind, layer, head), value)] as drawn)
            sums = [w['path'].rsplit('/', 1)[-1].split('##')[0].split() for w in app.widgets() if '##dla-sum' in w['path']]
            if not sums:
                return None
            bars = []
            for w in app.widgets(visible=False):
                name = w['path'].rsplit('/', 1)[-1]
                bar = re.fullmatch(r'([-+.0-9e]+)##dla-([a-z_]+)-(-?[0-9]+)-(-?[0-9]+)', name)
                if bar:
                    bars.append(((bar[2], int(bar[3]), int(bar[4])), float(bar[1])))
            logit, total, target, position = sums[0]
            return int(target), int(position), float(logit), float(total), bars

        def expect(got, position, want):
            target, logit, parts = want
            self.assertEqual(got[0], target)
            self.assertEqual(got[1], position)
            self.assertAlmostEqual(got[2], logit, delta=1e-4)
            self.assertAlmostEqual(got[3], logit, delta=1e-4, msg='the parts sum to the logit')
            self.assertEqual({k for k, _ in got[4]}, set(parts), 'every part, once')
            for key, value in got[4]:
                self.assertAlmostEqual(value, parts[key], delta=1e-4, msg=str(key))
            sizes = [abs(v) for _, v in got[4]]
            self.assertEqual(sizes, sorted(sizes, reverse=True), 'largest first')

        with Session(self.dir / 'session', ['--model', str(self.model), '--text', text]) as app:
            attnviz_gui._wait(lambda: app.has('##model-layer-heatmaps'), 150, 'the model')
            app.click('##views/Model view')
            app.click_label('Logit attribution')
            got = attnviz_gui._wait(lambda: shown(app), 60, 'the logit attribution')
            expect(got, len(ids) - 1, reference(len(ids) - 1))

            # Position 2, by the slider's keyboard input (Ctrl+click types a value).
            app.click('##dla-position')
            app.key('ctrl+a')
            slider = app.find('##dla-position')
            x, y, w, h = slider['visible']
            ox, oy = app.log().get('window_origin', [0, 0])
            app.move_to(int(ox + x + w / 2), int(oy + y + h / 2))
            app.xdotool('keydown', 'ctrl')
            app.xdotool('click', 1)
            app.xdotool('keyup', 'ctrl')
            app.wait_frames(3)
            app.key('ctrl+a')
            app.type('2')
            app.key('Return')
            got = attnviz_gui._wait(lambda: (lambda g: g if g and g[1] == 2 else None)(shown(app)), 60,
                                    'the attribution at position 2')
            expect(got, 2, reference(2))

            # A typed target: " cat", one token of the vocabulary.
            cat = ref.byte_level_encode(' cat', {t: i for i, t in enumerate(cm.byte_vocab())}, cm.BYTE_MERGES)
            self.assertEqual(len(cat), 1)
            app.click('##dla-typed')
            app.type(' cat')
            app.key('Return')
            got = attnviz_gui._wait(lambda: (lambda g: g if g and g[0] == cat[0] else None)(shown(app)), 60,
                                    'the attribution of the typed target')
            expect(got, 2, reference(2, cat[0]))

            layer, head = next(k[1:] for k, _ in got[4] if k[0] == 'head')
            app.click([w['path'] for w in app.widgets() if w['path'].endswith('dla-head-%d-%d-label' % (layer, head))][0])
            attnviz_gui._wait(lambda: app.has('heatmaps-switch/Switch off##%d-%d' % (layer, head)), 30,
                              'the largest head opened in the Heatmaps view')

            # Issue 48 item 4: Show > Patching, a second text of another length refused saying both,
            # then one of the same length: every head's effect as the float64 reference patches it.
            second = 'the mat sat on the cat'
            corrupted = ref.byte_level_encode(second, {t: i for i, t in enumerate(cm.byte_vocab())}, cm.BYTE_MERGES)
            self.assertEqual(len(corrupted), len(ids))
            app.click('##views/Model view')
            app.click_label('Patching')
            app.click('##patch-second-text')
            app.type(second + ' again')
            cut = attnviz_gui._wait(lambda: app.has('patch-cut') and app.find('patch-cut'), 30,
                                    'the offer to cut the longer text')
            self.assertIn('Cut the second text to %d tokens' % len(ids), cut['label'])
            app.click('patch-cut')

            def patched(app):  # (clean, corrupted, target, position, {(layer, head): effect}) as drawn
                logits = [w['path'].rsplit('/', 1)[-1].split('##')[0].split() for w in app.widgets()
                          if '##patch-logits' in w['path']]
                cells = {}
                for w in app.widgets(visible=False):
                    cell = re.fullmatch(r'([-+.0-9e]+)##patch-([0-9]+)-([0-9]+)', w['path'].rsplit('/', 1)[-1])
                    if cell:
                        cells[(int(cell[2]), int(cell[3]))] = float(cell[1])
                if not logits or not cells:
                    return None
                a, b, target, position = logits[0]
                return float(a), float(b), int(target), int(position), cells

            attnviz_gui._wait(lambda: not app.has('patch-cut'), 30, 'the second text cut to the text\'s length')
            app.click('##patch-second-text')  # the cut text typed over with the one the reference runs
            app.key('ctrl+a')
            app.type(second)
            target = reference(len(ids) - 1)[0]
            clean, corrupt, want = hr.patching(model, ids, corrupted, len(ids) - 1, target)
            got = attnviz_gui._wait(lambda: (lambda g: g if g and abs(g[1] - corrupt) < 1e-4 else None)(patched(app)),
                                    60, 'the patching of the second text')
            self.assertEqual(got[2:4], (target, len(ids) - 1))
            self.assertAlmostEqual(got[0], clean, delta=1e-4)
            self.assertAlmostEqual(got[1], corrupt, delta=1e-4)
            self.assertEqual(set(got[4]), {(l, h) for l in range(len(want)) for h in range(len(want[0]))})
            for (l, h), effect in got[4].items():
                self.assertAlmostEqual(effect, want[l][h] - clean, delta=1e-4, msg=f'layer {l} head {h}')
            shots = os.environ.get('ATTNVIZ_SHOTS_DIR')
            if shots:
                app.screenshot(pathlib.Path(shots) / 'model-patching.png')

            # Issue 48, patching positions: Patch > one position (the last, the target's) recomputes;
            # each effect as the reference's run patching that row alone.
            app.click('##patch-positions')
            app.click_label('one position', window='##Combo')
            _, _, want_one = hr.patching(model, ids, corrupted, len(ids) - 1, target, len(ids) - 1)

            def one_position(app):
                g = patched(app)
                near = g and all(abs(e - (want_one[l][h] - clean)) < 1e-4 for (l, h), e in g[4].items())
                return g if near and len(g[4]) == len(got[4]) else None
            attnviz_gui._wait(lambda: one_position(app), 60, 'the patching of the last position alone')
            self.assertTrue(app.has('##patch-position'), 'the position slider beside the choice')
            app.click('##patch-positions')
            app.click_label('all positions', window='##Combo')
            attnviz_gui._wait(lambda: (lambda g: g and g[4] == got[4])(patched(app)), 60, 'every position again')

            # Issue 48 item 5: the heatmap's export, as SVG with its title (the CSV's numbers: tests/export and
            # tests/reference/check_heads.py, which call the same core functions).
            button = attnviz_gui._wait(lambda: next((w['path'] for w in app.widgets()
                                                     if w['path'].endswith('heads-patching/##export')), None),
                                       30, "the patching's export button")
            figures = self.dir / 'figures'
            app.click(button)
            attnviz_gui._wait(lambda: app.has('SVG##heads-export-patching'), 30, 'the popup')
            self.assertTrue(app.has('JSON##heads-export-patching') and app.has('CSV##heads-export-patching'))
            app.click('SVG##heads-export-patching')
            app.replace_text('##heads-export-patching-out', figures)
            app.click('Export##heads-export-patching', settle=10)
            svg = attnviz_gui._wait(lambda: (f := figures / 'patching.svg').exists() and f, 30, 'patching.svg')
            self.assertIn('Activation patching', svg.read_text(encoding='utf-8'))
            attnviz_gui._wait(lambda: not app.has('SVG##heads-export-patching'), 20, 'the popup closed')
            l, h = max(got[4], key=lambda k: abs(got[4][k]))
            app.click([w['path'] for w in app.widgets() if w['path'].endswith('##patch-%d-%d' % (l, h))][0])
            attnviz_gui._wait(lambda: app.has('heatmaps-switch/Switch off##%d-%d' % (l, h)), 30,
                              'the strongest patched head opened in the Heatmaps view')

    def test_thumbnail_opens_a_head_and_switching_it_off_changes_the_next_tokens(self):
        layers, heads = cm.GPT2['layers'], cm.GPT2['heads']
        # A scenario with a source sentence beside --model: the window opens on the model's Heatmaps
        # view all the same (it opened on Cross-attention, which shows the scenario).
        args = ['--scenario', 'preset:cross-attention', '--model', str(self.model), '--text', 'the cat sat on the mat']
        with Session(self.dir / 'session', args) as app:
            # The model opens off the window's thread: under a loaded CI machine (two GUI tests side by
            # side) that took over a minute once.
            attnviz_gui._wait(lambda: app.has('##model-layer-heatmaps'), 150, "the Heatmaps view's layer selector")
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

    def test_the_classroom_views_walk_a_chosen_layer_and_the_keys_undo_the_model(self):
        layers = cm.GPT2['layers']
        # A scenario with a source sentence beside --model: the window opens on the model's Heatmaps
        # view all the same (it opened on Cross-attention, which shows the scenario).
        args = ['--scenario', 'preset:cross-attention', '--model', str(self.model), '--text', 'the cat sat on the mat']
        with Session(self.dir / 'session', args) as app:
            # The model opens off the window's thread: under a loaded CI machine (two GUI tests side by
            # side) that took over a minute once.
            attnviz_gui._wait(lambda: app.has('##model-layer-heatmaps'), 150, "the Heatmaps view's layer selector")
            # The title bar names the real folder, its architecture and layers x heads.
            title = window_title(app)
            self.assertIn('gpt2', title)
            self.assertIn('GPT2LMHeadModel', title)
            self.assertIn(f"{layers} layers \u00d7 {cm.GPT2['heads']} heads", title)

            # Step by step walks the chosen layer: its selector, layer 1 picked at the slider's end.
            app.click('##views/Step by step')
            attnviz_gui._wait(lambda: app.has('##model-layer-step'), 30, "the Step by step view's layer selector")
            attnviz_gui._wait(lambda: any('##step-matrix0-layer0' in w['path'] for w in app.widgets()), 30,
                              "layer 0's matrices")
            pick_last_layer(app, '##model-layer-step')
            attnviz_gui._wait(lambda: any('##step-matrix0-layer1' in w['path'] for w in app.widgets()), 30,
                              "layer 1's matrices in Step by step")

            app.click('##views/Tiled')
            attnviz_gui._wait(lambda: app.has('##model-layer-tiled'), 30, "the Tiled view's layer selector")

            # Compare's layers axis: one heatmap per layer, the chosen head or the heads averaged.
            app.click('##views/Compare')
            app.click('layers')
            attnviz_gui._wait(lambda: all(app.has(f'##compare-layer-{l}/##heatmap') for l in range(layers)), 30,
                              'one heatmap per layer in Compare')
            app.click('heads averaged')
            attnviz_gui._wait(lambda: not app.has('##compare-model-head'), 30, 'the head selector gone while averaged')
            self.assertTrue(app.has(f'##compare-layer-{layers - 1}/##heatmap'))
            # A click on a row pins the model's query there, not the scenario's (checked once the
            # model is closed, below).
            app.click('##compare-layer-0/##heatmap')
            attnviz_gui._wait(lambda: app.find('##compare-layer-0/##heatmap').get('pinned_row', '-1') != '-1', 30,
                              "the model's query pinned")

            # 7, the seventh tab's key, shows the Model view, also while presenting (no tab bar then).
            app.key('7')
            before = attnviz_gui._wait(lambda: next_token_probabilities(app), 30, 'the Model view (key 7)')
            app.key('F11')
            app.key('1')
            attnviz_gui._wait(lambda: not next_token_probabilities(app), 30, 'the Heatmaps view while presenting')
            app.key('7')
            attnviz_gui._wait(lambda: next_token_probabilities(app) == before, 30, 'the Model view while presenting')
            app.key('Escape')
            attnviz_gui._wait(lambda: app.has('##views/Model view'), 30, 'the tab bar back')

            # Ctrl+Z and Ctrl+Shift+Z / Ctrl+Y undo and redo a head switch, as Edit > Undo model does.
            app.click('##thumb-1-2/##heatmap')
            attnviz_gui._wait(lambda: app.has('heatmaps-switch/Switch off##1-2'), 30, 'layer 1, head 2 opened')
            app.click('heatmaps-switch/Switch off##1-2')
            app.click('##views/Model view')
            after = attnviz_gui._wait(lambda: (p := next_token_probabilities(app)) != before and p, 30,
                                      'the next tokens to change')
            app.key('ctrl+z')
            attnviz_gui._wait(lambda: next_token_probabilities(app) == before, 30, 'Ctrl+Z to switch the head on')
            app.key('ctrl+shift+z')
            attnviz_gui._wait(lambda: next_token_probabilities(app) == after, 30, 'Ctrl+Shift+Z to switch it off')
            app.key('ctrl+z')
            attnviz_gui._wait(lambda: next_token_probabilities(app) == before, 30, 'Ctrl+Z again')
            app.key('ctrl+y')
            attnviz_gui._wait(lambda: next_token_probabilities(app) == after, 30, 'Ctrl+Y to redo')

            # A text field being typed in keeps its own Ctrl+Z: the model's head stays off.
            app.click('model-view/##model-text')
            app.key('End')
            app.type(' dog')
            app.key('ctrl+z')
            app.key('Escape')
            attnviz_gui._wait(lambda: app.has('model-switch/Switch on##1-2'), 30, 'the head still off')

            # Closed, the title names the scenario again.
            app.click_file_menu_item(4)  # Close model
            attnviz_gui._wait(lambda: 'gpt2' not in window_title(app), 30, 'the title to drop the model')
            self.assertTrue(window_title(app).startswith('attnviz'))
            app.click('##views/Heatmaps')
            attnviz_gui._wait(lambda: app.has('##weights/##heatmap'), 30, "the scenario's heatmaps")
            self.assertFalse(app.has('Unpin query'), "the model's pinned row pinned the scenario's query too")

    def test_a_double_click_on_a_folder_only_enters_it(self):
        # The folder the dialog starts in (the window's working directory) lists 'aa/' first; in
        # it, a model folder is listed on the same row. The second click of the double click that
        # enters 'aa/' opened that model, which the user never chose.
        session = self.dir / 'session'
        shutil.copytree(self.model, session / 'aa' / 'gpt2')
        with Session(session, ['--scenario', 'preset:causal-gpt']) as app:
            app.click_file_menu_item(3)  # Open model...
            folder = attnviz_gui._wait(lambda: [w for w in app.widgets() if w['label'] == 'aa/'], 20, 'the aa/ folder')[0]
            x, y, w, h = folder['visible']
            ox, oy = app.log().get('window_origin', [0, 0])
            app.move_to(int(ox + x + w / 2), int(oy + y + h / 2))
            app.xdotool('click', '--repeat', 2, '--delay', 80, 1)
            app.wait_frames(10)
            model = attnviz_gui._wait(lambda: [w for w in app.widgets() if w['label'].startswith('gpt2/')], 20,
                                      "aa/'s listing, the dialog still open")[0]
            self.assertFalse(app.has('##model-layer-heatmaps'), 'no model opened by the second click')
            x, y, w, h = model['visible']
            app.move_to(int(ox + x + w / 2), int(oy + y + h / 2))
            app.xdotool('click', '--repeat', 2, '--delay', 80, 1)  # a double click on the model opens it
            attnviz_gui._wait(lambda: app.has('##model-layer-heatmaps'), 60, 'the model open in the Heatmaps view')

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
            self.assertFalse(app.has('##model-layer-heatmaps'), 'no layer selector without a model')
            app.click('##views/Model view')
            app.click('model-view/Dismiss##model-error')
            attnviz_gui._wait(lambda: not app.has('model-view/Dismiss##model-error'), 30, 'the error dismissed')


    def test_a_text_file_too_long_for_the_model_opens_it_and_keeps_the_start_that_fits(self):
        words = ' '.join(['the cat sat on the mat'] * 20)  # 120 words, the model has 32 positions
        text = self.dir / 'essay.txt'
        text.write_text(words)
        with Session(self.dir / 'session', ['--model', str(self.model), '--text-file', str(text), '--model-view']) as app:
            # The model reads the file (no --text): it opens, and says why it cannot run on all of it.
            attnviz_gui._wait(lambda: app.has('model-view/Dismiss##model-error'), 60, 'the error in the Model view')
            self.assertIn('gpt2', window_title(app), 'the model is open although its text was refused')
            self.assertFalse(next_token_probabilities(app), 'no result of a text it did not run on')
            cut = attnviz_gui._wait(lambda: [w['path'] for w in app.widgets() if w['path'].endswith('##model-text-cut')],
                                    30, 'the offer to keep the start that fits')[0]
            kept = int(cut.rsplit('/', 1)[-1].split()[3])  # "Keep the first 29 tokens##model-text-cut"
            self.assertLessEqual(kept, cm.GPT2['positions'])
            self.assertGreater(kept, cm.GPT2['positions'] - 8, 'all but the word that would pass the limit')

            app.click(cut)
            attnviz_gui._wait(lambda: next_token_probabilities(app), 60, 'the next tokens of the start kept')
            self.assertFalse(app.has('model-view/Dismiss##model-error'), 'no error left')
            tokens = [w for w in app.widgets() if '##token' in w['path'] and 'model-view' in w['path']]
            self.assertEqual(len(tokens), kept, 'the model read exactly the tokens the button named')

            app.key('ctrl+z')  # the whole text again, refused again
            attnviz_gui._wait(lambda: app.has('model-view/Dismiss##model-error'), 30, 'Ctrl+Z to bring the whole text back')
            self.assertTrue([w for w in app.widgets() if w['path'].endswith('##model-text-cut')], 'offered again')

            # File > Open text... with a model open: the model reads the text too.
            short = self.dir / 'short.txt'
            short.write_text('the cat sat')
            app.click_file_menu_item(2)
            app.key('ctrl+a')
            app.xdotool('type', '--delay', 5, str(short))
            app.key('Return')
            attnviz_gui._wait(lambda: not app.has('model-view/Dismiss##model-error') and next_token_probabilities(app), 60,
                              'the model to run on the opened text')
            chips = [w for w in app.widgets() if '##token' in w['path'] and 'model-view' in w['path']]
            self.assertEqual(len(chips), 3, 'the, ␣cat, ␣sat: the tokens of the file opened')


    def test_bert_shows_what_it_predicts_at_mask_and_its_word_pieces_whole(self):
        weights = cm.bert_weights(np.random.default_rng(5), cm.BERT)
        bert = self.dir / 'bert'
        cm.write_bert_folder(bert, weights, cm.BERT)
        text = 'the cafe sat on the [MASK] .'
        vocab = {t: i for i, t in enumerate(cm.WORDPIECE)}
        ids = ref.wordpiece_encode(text, vocab)
        _, logits = ref.bert_forward(cm.stored_all(weights, 'F32'), cm.BERT, ids, [0] * len(ids))
        at_mask = logits[ids.index(vocab['[MASK]'])]  # float64, from the paper's equations
        p = np.exp(at_mask - at_mask.max())
        p /= p.sum()
        want = [f'{100.0 * q:.2f}%' for q in np.sort(p)[::-1][:10]]
        with Session(self.dir / 'session', ['--model', str(bert), '--text', text, '--model-view']) as app:
            got = attnviz_gui._wait(lambda: next_token_probabilities(app), 60, "BERT's predictions")
            self.assertEqual(got, want, 'the predictions at [MASK], not after the last [SEP]')
            # "##e" (cafe is caf + ##e) shows as a chip of its own, not as an empty one.
            chips = [w['path'].rsplit('/', 1)[-1] for w in app.widgets() if '##token' in w['path'] and 'model-view' in w['path']]
            self.assertEqual(chips[3].split('##token')[0].replace('\u2060', ''), '##e')
            app.click('##views/Decode')
            attnviz_gui._wait(lambda: app.has('Generate##decode-model'), 30, "the Decode view's toolbar")
            self.assertTrue(app.find('Generate##decode-model').get('disabled'), 'BERT does not generate')

            # Ctrl+E exports what the Heatmaps view shows: the model's layer 1, head 2, as
            # `attnviz export --model ... --layer 1 --heads 2` writes it.
            app.click('##views/Heatmaps')
            pick_last_layer(app, '##model-layer-heatmaps')
            app.click_at(*slider_end(app, '##model-head'))
            attnviz_gui._wait(lambda: app.has('heatmaps-switch/Switch off##1-3'), 30, 'layer 1, head 3 shown')
            buttons = [w['path'] for w in app.widgets() if w['path'].endswith('/##export')]
            self.assertEqual(len(buttons), 3, f"the model's scores, weights and context have export buttons: {buttons}")
            target = self.dir / 'window-export'
            app.key('ctrl+e')
            attnviz_gui._wait(lambda: app.has('Export##export_dialog/Export'), 30, 'the Export dialog')
            app.click('Export##export_dialog/NPY')
            app.replace_text('Export##export_dialog/##out', target)
            app.click('Export##export_dialog/Export', settle=10)
            window_file = attnviz_gui._wait(lambda: (f := target / 'weights_head3.npy').exists() and f, 30, "the window's export")
        command = self.dir / 'command-export'
        cm.run(attnviz_gui.ATTNVIZ, 'export', '--model', str(bert), '--text', text, '--layer', '1', '--heads', '3',
               '--what', 'weights', '--format', 'npy', '--out', str(command) + '/')
        exported, wanted = np.load(window_file), np.load(command / 'weights_head3.npy')
        self.assertEqual(exported.shape, (len(ids), len(ids)), "the model's tokens, not the scenario's")
        # The window's pass and the command's may sum in another order: float32 rounding apart.
        np.testing.assert_allclose(exported, wanted, atol=1e-6,
                                   err_msg="the window exported the model's layer 1, head 3, as the command line does")


if __name__ == '__main__':
    attnviz_gui.ATTNVIZ = os.environ.get('ATTNVIZ_BIN', attnviz_gui.ATTNVIZ)
    unittest.main()
