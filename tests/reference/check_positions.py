#!/usr/bin/env python3
"""Every positional kind and dropout against positions_reference.py (float64, written from the
papers): the dense Eigen and Vulkan backends and the tiled kernels on the CPU and on Vulkan (all
four computed by positions_runner in one process), and `attnviz compute` itself on two of the
scenarios. MHA, GQA, MQA and cross-attention (more and fewer keys), a position offset, a RoPE
base other than 10000, a head count that is not a power of two for ALiBi, masks; the raw scores
(after RoPE), the weights (after dropout), the weights before dropout, the kept set (exactly), the
contexts and the output within 1e-5 (the tiled kernels: contexts and output).

usage: check_positions.py POSITIONS_RUNNER ATTNVIZ_BIN"""
import json
import pathlib
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from positions_reference import attention  # noqa: E402

TOLERANCE = 1e-5
PATHS = ('cpu', 'vulkan', 'tiled-cpu', 'tiled-vulkan')


def random_scenario(rng, n, m, heads, kv_heads, cross, mask, d_k=4, d_model=6):
    d_v = 3
    matrix = lambda rows, cols: rng.uniform(-1, 1, (rows, cols)).round(4).tolist()  # noqa: E731
    scenario = {'format': 'attnviz-scenario/1', 'tokens': [f'q{i}' for i in range(n)], 'd_model': d_model,
                'embeddings': matrix(n, d_model), 'num_heads': heads, 'num_kv_heads': kv_heads, 'd_k': d_k,
                'd_v': d_v, 'wq': matrix(d_model, heads * d_k), 'wk': matrix(d_model, kv_heads * d_k),
                'wv': matrix(d_model, kv_heads * d_v), 'scale': 'inv_sqrt_dk', 'mask': mask}
    if cross:
        scenario['source'] = {'tokens': [f'k{j}' for j in range(m)], 'embeddings': matrix(m, d_model)}
    return scenario


def cases():
    """(name, scenario): each kind under several head sharings, cross-attention and masks."""
    rng = np.random.default_rng(2024)
    causal, none, window, longformer = {'causal': True}, {}, {'causal': True, 'window': 2}, {'window': 1, 'global': [0]}
    plan = [
        ('none-cross-more-keys-gqa', 'none', (5, 11, 4, 2, True, none), {}),
        ('sinusoidal-mha-offset', 'sinusoidal', (9, 9, 3, 3, False, causal), {'position_offset': 37}),
        ('sinusoidal-cross-fewer-keys', 'sinusoidal', (10, 4, 2, 1, True, longformer), {}),
        ('sinusoidal-odd-d-model', 'sinusoidal', (6, 6, 1, 1, False, none), {}),
        ('rope-gqa-offset', 'rope', (9, 9, 4, 2, False, causal), {'position_offset': 37}),
        ('rope-mqa-theta', 'rope', (7, 7, 3, 1, False, window), {'rope_theta': 500.5}),
        ('rope-cross', 'rope', (6, 10, 2, 1, True, none), {}),
        ('alibi-six-heads', 'alibi', (9, 9, 6, 3, False, causal), {}),
        ('alibi-mqa-no-mask', 'alibi', (7, 7, 4, 1, False, none), {'position_offset': 5}),
        ('alibi-cross', 'alibi', (8, 5, 3, 3, True, longformer), {}),
        ('dropout-rope-gqa', 'rope', (9, 9, 4, 2, False, causal), {'dropout': {'p': 0.3, 'seed': 7}}),
        ('dropout-alibi-cross', 'alibi', (6, 9, 2, 1, True, none), {'dropout': {'p': 0.5, 'seed': 2 ** 40 + 3}}),
        ('dropout-none-p0', 'none', (5, 5, 1, 1, False, causal), {'dropout': {'p': 0.0, 'seed': 1}}),
    ]
    for name, kind, (n, m, heads, kv_heads, cross, mask), extra in plan:
        d_model = 5 if name.endswith('odd-d-model') else 6
        scenario = random_scenario(rng, n, m, heads, kv_heads, cross, mask, d_k=6 if kind == 'rope' else 4, d_model=d_model)
        scenario.update(extra)
        scenario['positional'] = kind
        yield name, scenario


def as_array(rows, shape):
    return np.array([[np.nan if v is None else v for v in row] for row in rows], dtype=np.float64).reshape(shape)


def error(want, got) -> float:
    if np.size(want) == 0:
        return 0.0
    return float(np.max(np.abs(want - as_array(got, np.shape(want))) / np.maximum(1.0, np.abs(want))))


def compare(name: str, want: dict, got: dict, tiled: bool) -> list:
    problems = []
    fields = ('context',) if tiled else ('scores', 'weights', 'context', 'weights_before_dropout')
    if not tiled and [list(map(int, row)) for row in got['mask']] != want['mask'].tolist():
        problems.append(f'{name}: the mask differs')
    for h, (w, g) in enumerate(zip(want['heads'], got['heads'])):
        for field in fields:
            if field not in w:
                if g.get(field):
                    problems.append(f'{name}: head {h} has "{field}" without dropout')
                continue
            e = error(w[field], g.get(field, []))
            if not e <= TOLERANCE:
                problems.append(f'{name}: head {h} {field} differs by {e:.2e}')
        if not tiled and 'kept' in w and g.get('kept') != w['kept'].tolist():
            problems.append(f'{name}: head {h}: the kept set differs')
    e = error(want['output'], got['output'])
    if not e <= TOLERANCE:
        problems.append(f'{name}: output differs by {e:.2e}')
    return problems


def main() -> int:
    runner, binary = sys.argv[1], sys.argv[2]
    problems, count = [], 0
    with tempfile.TemporaryDirectory() as folder:
        out = pathlib.Path(folder)
        files, wanted = [], {}
        for name, scenario in cases():
            path = out / f'{name}.json'
            path.write_text(json.dumps(scenario), encoding='utf-8')
            files.append(str(path))
            wanted[name] = attention(scenario)
        done = subprocess.run([runner, folder] + files, capture_output=True, text=True)
        if done.returncode != 0:
            print(f'positions_runner exited {done.returncode}: {done.stderr.strip()}')
            return 1
        for name, want in wanted.items():
            for path in PATHS:
                got = json.loads((out / f'{name}.{path}.json').read_text(encoding='utf-8'))
                problems += compare(f'{name} ({path})', want, got, path.startswith('tiled'))
                count += 1
        for name in ('dropout-rope-gqa', 'alibi-six-heads'):  # the command itself, as a user runs it
            done = subprocess.run([binary, 'compute', '--scenario', str(out / f'{name}.json')], capture_output=True, text=True)
            if done.returncode != 0:
                problems.append(f'attnviz compute {name} exited {done.returncode}: {done.stderr.strip()}')
                continue
            problems += compare(f'{name} (attnviz compute)', wanted[name], json.loads(done.stdout), False)
            count += 1
    for problem in problems:
        print(problem)
    print(f'{count} results of {len(wanted)} scenarios: {"all agree" if not problems else f"{len(problems)} problems"}')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
