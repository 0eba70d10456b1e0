#!/usr/bin/env python3
"""`attnviz trace tiled` against tiled_reference.py (float64, from the FlashAttention-2 paper):
the same tiles in the same order, the same skipped ones, each row's m and l after every tile and
the final context within 1e-5, for the float64 fixtures and for random scenarios written here
(GQA, MQA, cross-attention with more and fewer keys, every mask kind, rows that see nothing),
with block sizes that divide N and that do not.

usage: check_tiled_trace.py ATTNVIZ_BIN FIXTURES_DIR"""
import json
import math
import pathlib
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from tiled_reference import tiled_trace  # noqa: E402

TOLERANCE = 1e-5
BLOCKS = [(1, 1), (2, 3), (3, 3), (4, 8), (5, 2), (16, 16)]


def random_scenario(rng, n, m, heads, kv_heads, mask, cross):
    d_model, d_k, d_v = 5, 3, 4
    matrix = lambda rows, cols: rng.uniform(-1, 1, (rows, cols)).round(4).tolist()  # noqa: E731
    scenario = {'format': 'attnviz-scenario/1', 'tokens': [f'q{i}' for i in range(n)], 'd_model': d_model,
                'embeddings': matrix(n, d_model), 'num_heads': heads, 'num_kv_heads': kv_heads, 'd_k': d_k,
                'd_v': d_v, 'wq': matrix(d_model, heads * d_k), 'wk': matrix(d_model, kv_heads * d_k),
                'wv': matrix(d_model, kv_heads * d_v), 'scale': 'inv_sqrt_dk', 'mask': mask}
    if cross:
        scenario['source'] = {'tokens': [f'k{j}' for j in range(m)], 'embeddings': matrix(m, d_model)}
    return scenario


def scenarios(fixtures: pathlib.Path):
    for path in sorted(fixtures.glob('*.json')):
        yield path.name, json.loads(path.read_text(encoding='utf-8'))
    rng = np.random.default_rng(2023)
    masks = [{}, {'causal': True}, {'window': 1}, {'causal': True, 'window': 2},
             {'window': 1, 'global': [0, 6]}, {'causal': True, 'window': 0, 'global': [3]}]
    for index, mask in enumerate(masks):
        yield f'gqa-{index}', random_scenario(rng, 11, 11, 4, 2, mask, False)
        yield f'mqa-{index}', random_scenario(rng, 9, 9, 3, 1, mask, False)
        yield f'cross-fewer-keys-{index}', random_scenario(rng, 10, 4, 2, 2, mask, True)
        yield f'cross-more-keys-{index}', random_scenario(rng, 6, 13, 2, 1, mask, True)


def close(want, got) -> bool:
    if want is None or got is None:
        return want is None and got is None
    return abs(want - got) <= TOLERANCE * max(1.0, abs(want))


def compare(name: str, want: dict, got: dict) -> list:
    problems = []
    if len(want['tiles']) != len(got['tiles']):
        return [f'{name}: {len(got["tiles"])} tiles, expected {len(want["tiles"])}']
    for index, (w, g) in enumerate(zip(want['tiles'], got['tiles'])):
        where = f'{name}: tile {index} (qb {w["qb"]}, kb {w["kb"]})'
        if (g['qb'], g['kb'], g['skipped']) != (w['qb'], w['kb'], w['skipped']):
            problems.append(f'{where}: got qb {g["qb"]}, kb {g["kb"]}, skipped {g["skipped"]}')
        for key in ('m', 'l'):
            if len(w[key]) != len(g[key]) or not all(close(a, b) for a, b in zip(w[key], g[key])):
                problems.append(f'{where}: {key} {g[key]}, expected {w[key]}')
    difference = np.max(np.abs(np.asarray(want['context']) - np.asarray(got['context'], dtype=np.float64)))
    if not difference <= TOLERANCE:
        problems.append(f'{name}: context differs by {difference:.3g}')
    return problems


def main() -> int:
    binary, fixtures = sys.argv[1], pathlib.Path(sys.argv[2])
    failures, runs = [], 0
    with tempfile.TemporaryDirectory() as folder:
        for name, scenario in scenarios(fixtures):
            path = pathlib.Path(folder) / f'{name}.json'
            path.write_text(json.dumps(scenario), encoding='utf-8')
            for head in sorted({0, scenario.get('num_heads', 1) - 1}):
                for br, bc in BLOCKS:
                    command = [binary, 'trace', 'tiled', '--scenario', str(path), '--block-q', str(br),
                               '--block-k', str(bc), '--head', str(head)]
                    ran = subprocess.run(command, capture_output=True, text=True, check=False)
                    label = f'{name} head {head} Br {br} Bc {bc}'
                    if ran.returncode != 0:
                        failures.append(f'{label}: exit {ran.returncode}: {ran.stderr.strip()}')
                        continue
                    got = json.loads(ran.stdout)
                    failures += compare(label, tiled_trace(scenario, head, br, bc), got)
                    runs += 1
    for failure in failures[:40]:
        print(failure)
    print(f'{runs} traces compared, {len(failures)} differences above {TOLERANCE}')
    return 1 if failures or runs == 0 else 0


if __name__ == '__main__':
    sys.exit(main())
