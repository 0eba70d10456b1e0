#!/usr/bin/env python3
"""`attnviz export --overview` (NPY) against overview_reference.py (float64, from the definition):
random scenarios with explicit values (MHA, GQA, cross-attention, every mask kind, rows that see
nothing), weights, raw and scaled scores, max and mean, whole matrices and windows, block sizes
that do and do not divide the window, exact cells; sinusoidal, RoPE and ALiBi positions; on each
backend given.

usage: check_overview.py ATTNVIZ_BIN [BACKEND...]   (default: cpu)"""
import json
import pathlib
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from overview_reference import overview  # noqa: E402

WEIGHT_TOLERANCE = 2e-6
SCORE_TOLERANCE = 1e-5
COMBINATIONS = [('weights', 'max'), ('weights', 'mean'), ('scores', 'max'), ('scaled', 'mean'), ('scores', 'mean')]


def random_scenario(rng, n, m, heads, kv_heads, mask, cross, d_k=3):
    d_model, d_v = 5, 2
    matrix = lambda rows, cols: rng.uniform(-1.5, 1.5, (rows, cols)).round(4).tolist()  # noqa: E731
    scenario = {'format': 'attnviz-scenario/1', 'tokens': [f'q{i}' for i in range(n)], 'd_model': d_model,
                'embeddings': matrix(n, d_model), 'num_heads': heads, 'num_kv_heads': kv_heads, 'd_k': d_k,
                'd_v': d_v, 'wq': matrix(d_model, heads * d_k), 'wk': matrix(d_model, kv_heads * d_k),
                'wv': matrix(d_model, kv_heads * d_v), 'scale': 'inv_sqrt_dk', 'mask': mask}
    if cross:
        scenario['source'] = {'tokens': [f'k{j}' for j in range(m)], 'embeddings': matrix(m, d_model)}
    return scenario


def cases():
    rng = np.random.default_rng(65536)
    masks = [{}, {'causal': True}, {'window': 3}, {'causal': True, 'window': 5},
             {'window': 2, 'global': [0, 31]}, {'causal': True, 'window': 1, 'global': [7]}]
    for index, mask in enumerate(masks):
        yield f'gqa-{index}', random_scenario(rng, 47, 47, 4, 2, mask, False), 6, None, None
        yield f'cross-{index}', random_scenario(rng, 33, 21, 2, 1, mask, True), 5, None, None
        yield f'window-{index}', random_scenario(rng, 40, 40, 1, 1, mask, False), 4, (9, 31), (3, 38)
        yield f'exact-{index}', random_scenario(rng, 32, 32, 1, 1, mask, False), 64, (2, 20), (5, 25)


def positional_cases():
    """Positions in the overview: each kind with GQA and a causal mask, cross-attention, and a
    window of a sinusoidal/RoPE/ALiBi problem at a position offset; weights and scaled scores."""
    rng = np.random.default_rng(4096)
    for kind in ('sinusoidal', 'rope', 'alibi'):
        extra = {'positional': kind, 'position_offset': 5}
        if kind == 'rope':
            extra['rope_theta'] = 100.0  # turns fast enough to matter over 50 positions
        gqa = {**random_scenario(rng, 50, 50, 4, 2, {'causal': True}, False, d_k=4), **extra}
        cross = {**random_scenario(rng, 33, 21, 2, 1, {'window': 3}, True, d_k=6), **extra}
        windowed = {**random_scenario(rng, 40, 40, 3, 3, {}, False, d_k=2), **extra}
        for what, pool in (('weights', 'max'), ('scaled', 'mean'), ('weights', 'mean')):
            yield f'{kind}-gqa', gqa, 7, None, None, what, pool
            yield f'{kind}-cross', cross, 5, None, None, what, pool
            yield f'{kind}-window', windowed, 6, (9, 31), (3, 38), what, pool
        yield f'{kind}-exact', windowed, 64, (2, 20), (5, 25), 'scaled', 'max'


def run(binary, backend, scenario_path, out, pixels, what, pool, rows, cols):
    command = [binary, 'export', '--scenario', str(scenario_path), '--overview', str(pixels), '--what', what,
               '--pool', pool, '--backend', backend, '--format', 'npy', '--out', str(out)]
    if rows:
        command += ['--rows', f'{rows[0]}:{rows[1]}']
    if cols:
        command += ['--cols', f'{cols[0]}:{cols[1]}']
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f'{" ".join(command)} failed ({done.returncode}): {done.stderr}')
    return np.load(out)


def compare(label, got, want, tolerance):
    """What differs between attnviz's image and the reference's, as lines (none: they agree)."""
    if got.shape != want.shape:
        return [f'{label}: shape {got.shape}, expected {want.shape}']
    if not np.array_equal(np.isnan(got), np.isnan(want)):
        return [f'{label}: hidden blocks differ']
    seen = ~np.isnan(want)
    worst = np.max(np.abs(got[seen] - want[seen]) / np.maximum(1.0, np.abs(want[seen])), initial=0.0)
    return [f'{label}: largest difference {worst:.2e} (tolerance {tolerance:.0e})'] if worst > tolerance else []


def main() -> int:
    binary = sys.argv[1]
    backends = sys.argv[2:] or ['cpu']
    problems = []
    checked = 0
    with tempfile.TemporaryDirectory() as tmp:
        for index, (name, scenario, pixels, rows, cols) in enumerate(cases()):
            path = pathlib.Path(tmp) / f'{name}.json'
            path.write_text(json.dumps(scenario), encoding='utf-8')
            # One quantity and pooling per case, in turn; the first backend every time, the
            # others (a device start each) on a quarter of the cases.
            what, pool = COMBINATIONS[index % len(COMBINATIONS)]
            want = overview(scenario, pixels, what, pool, rows, cols)
            tolerance = WEIGHT_TOLERANCE if what == 'weights' else SCORE_TOLERANCE
            others = index % 4 == (index // 4) % 4  # each kind of case, across the masks
            for backend in backends if others else backends[:1]:
                got = run(binary, backend, path, pathlib.Path(tmp) / 'o.npy', pixels, what, pool, rows, cols)
                label = f'{name} {what} {pool} {backend}'
                checked += 1
                problems += compare(label, got, want, tolerance)

        # Positions: every case on every backend (the RoPE pass and the bias are each's own).
        for name, scenario, pixels, rows, cols, what, pool in positional_cases():
            path = pathlib.Path(tmp) / f'{name}.json'
            path.write_text(json.dumps(scenario), encoding='utf-8')
            want = overview(scenario, pixels, what, pool, rows, cols)
            tolerance = WEIGHT_TOLERANCE if what == 'weights' else SCORE_TOLERANCE
            for backend in backends:
                got = run(binary, backend, path, pathlib.Path(tmp) / 'o.npy', pixels, what, pool, rows, cols)
                label = f'{name} {what} {pool} {backend}'
                checked += 1
                problems += compare(label, got, want, tolerance)

    for problem in problems:
        print(problem)
    print(f'{checked} overviews checked, {len(problems)} differ')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
