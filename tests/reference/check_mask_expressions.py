#!/usr/bin/env python3
"""`attnviz compute --blocks B` on masks given as expressions against float64 references written
from the definitions: the expression by mask_expression_reference.py (its own evaluator), the
attention by attention_reference.py's formulas with that mask, the tiles by a brute-force
count. Every named pattern of the Mask panel, a head-dependent expression, GQA and MQA,
cross-attention, fields ANDed with an expression; then the errors (exit 2 naming the field and
the column).

    check_mask_expressions.py ATTNVIZ_BINARY cpu|vulkan
"""
import json
import math
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mask_expression_reference import blocks_of, mask_of  # noqa: E402

CASES = [
    # name, mask, heads, kv_heads, n, m (None: self-attention), block size
    ('causal', {'expression': 'k <= q'}, 2, 2, 11, None, 4),
    ('sliding window 2', {'expression': 'k <= q && q - k <= 2'}, 1, 1, 11, None, 3),
    ('Longformer', {'expression': 'abs(q - k) <= 1 || global(q) || global(k)', 'global': [0, 6]}, 2, 1, 11, None, 4),
    ('strided 3', {'expression': 'k <= q && (q - k < 3 || (q - k) % 3 == 0)'}, 2, 2, 12, None, 4),
    ('sinks 2 + window 2', {'expression': 'k <= q && (k < 2 || q - k <= 2)'}, 3, 1, 12, None, 4),
    ('prefix-LM 4', {'expression': 'k < 4 || k <= q'}, 1, 1, 10, None, 3),
    ('block-local 3', {'expression': 'q / 3 == k / 3'}, 2, 2, 11, None, 3),
    ('dilated 2, 2', {'expression': 'abs(q - k) <= 2 * 2 && (q - k) % 2 == 0'}, 1, 1, 11, None, 2),
    ('documents', {'expression': 'doc(q) == doc(k)', 'documents': [0, 4, 7]}, 2, 2, 11, None, 4),
    ('documents causal', {'expression': 'doc(q) == doc(k) && k <= q', 'documents': [0, 5]}, 2, 1, 10, None, 5),
    ('head-dependent (GQA)', {'expression': 'k <= q && q - k <= h'}, 4, 2, 9, None, 2),
    ('head-dependent (MQA)', {'expression': '(q + k + h) % 3 != 0 || k == 0'}, 3, 1, 8, None, 3),
    ('cross-attention', {'expression': 'abs(q * m / n - k) <= 1 || k == m - 1'}, 2, 1, 7, 10, 3),
    ('fields and expression', {'causal': True, 'window': 3, 'global': [2],
                               'expression': '(q + k) % 2 == 0 || global(k)'}, 2, 2, 12, None, 4),
    ('negative arithmetic', {'expression': '(k - q) / 3 >= -1 && (k - q) % -4 != -1 && q / 0 == 0'}, 1, 1, 10, None, 3),
]


def scenario_for(name, mask, heads, kv_heads, n, m, seed):
    random = np.random.RandomState(seed)
    d_model, d_k, d_v = 4, 3, 2
    rounded = lambda a: [[float(np.float32(v)) for v in row] for row in a]
    scenario = {
        'format': 'attnviz-scenario/1', 'title': name, 'tokens': [f't{i}' for i in range(n)],
        'd_model': d_model, 'num_heads': heads, 'num_kv_heads': kv_heads, 'd_k': d_k, 'd_v': d_v,
        'embeddings': rounded(random.randn(n, d_model)),
        'wq': rounded(random.randn(d_model, heads * d_k) * 0.7),
        'wk': rounded(random.randn(d_model, kv_heads * d_k) * 0.7),
        'wv': rounded(random.randn(d_model, kv_heads * d_v)),
        'mask': mask,
    }
    if m is not None:
        scenario['source'] = {'tokens': [f's{j}' for j in range(m)], 'embeddings': rounded(random.randn(m, d_model))}
    return scenario


def reference(scenario):
    """docs/design.md "Attention as attnviz computes it" in float64, with each head's mask."""
    x = np.array(scenario['embeddings'])
    xs = np.array(scenario['source']['embeddings']) if 'source' in scenario else x
    n, m = x.shape[0], xs.shape[0]
    heads, kv_heads = scenario['num_heads'], scenario['num_kv_heads']
    d_k, d_v = scenario['d_k'], scenario['d_v']
    wq, wk, wv = (np.array(scenario[k]) for k in ('wq', 'wk', 'wv'))
    scale = 1.0 / math.sqrt(d_k)
    out = {'masks': [], 'heads': []}
    for h in range(heads):
        g = h // (heads // kv_heads)
        mask = np.array(mask_of(scenario['mask'], n, m, h))
        q, k, v = x @ wq[:, h * d_k:(h + 1) * d_k], xs @ wk[:, g * d_k:(g + 1) * d_k], xs @ wv[:, g * d_v:(g + 1) * d_v]
        weights = np.zeros((n, m))
        for i in range(n):
            seen = mask[i] == 1
            if seen.any():
                row = scale * (q[i] @ k.T)[seen]
                e = np.exp(row - row.max())
                weights[i, seen] = e / e.sum()
        out['masks'].append(mask)
        out['heads'].append({'weights': weights, 'context': weights @ v})
    return out


def run(binary, *args):
    return subprocess.run([binary, *args], capture_output=True, text=True, timeout=120)


def check_case(binary, backend, case, folder, seed):
    name, mask, heads, kv_heads, n, m, size = case
    scenario = scenario_for(name, mask, heads, kv_heads, n, m, seed)
    path = os.path.join(folder, f'case{seed}.json')
    with open(path, 'w') as f:
        json.dump(scenario, f)
    done = run(binary, 'compute', '--scenario', path, '--backend', backend, '--blocks', str(size))
    if done.returncode != 0:
        return [f'{name}: exit {done.returncode}: {done.stderr.strip()}']
    result = json.loads(done.stdout)
    want = reference(scenario)
    problems = []
    depends_on_head = any((want['masks'][h] != want['masks'][0]).any() for h in range(heads))
    if not (np.array(result['mask']) == want['masks'][0]).all():
        problems.append(f'{name}: "mask" differs from head 0\'s reference mask')
    for h in range(heads):
        head = result['heads'][h]
        mask = want['masks'][h]
        if depends_on_head:
            if 'mask' not in head or not (np.array(head['mask']) == mask).all():
                problems.append(f'{name}: head {h}: its own "mask" is missing or differs')
            rows = [i for i in range(n) if not mask[i].any()]
            if head.get('masked_rows') != rows:
                problems.append(f'{name}: head {h}: masked_rows {head.get("masked_rows")} != {rows}')
        weights = np.array(head['weights'])
        if np.abs(weights - want['heads'][h]['weights']).max() > 1e-5:
            problems.append(f'{name}: head {h}: weights differ by {np.abs(weights - want["heads"][h]["weights"]).max():.2e}')
        if (weights[mask == 0] != 0).any():
            problems.append(f'{name}: head {h}: a hidden weight is not exactly 0')
        context = np.array(head['context'])
        if np.abs(context - want['heads'][h]['context']).max() > 1e-5 * max(1.0, np.abs(want['heads'][h]['context']).max()):
            problems.append(f'{name}: head {h}: context differs')
        blocks = blocks_of(mask.tolist(), size)
        if head.get('blocks') != blocks:
            problems.append(f'{name}: head {h}: blocks {head.get("blocks")} != brute force {blocks}')
    return problems


VULKAN_CASES = {'strided 3', 'sinks 2 + window 2', 'documents causal', 'head-dependent (GQA)', 'head-dependent (MQA)',
                'cross-attention', 'fields and expression'}

ERRORS = [
    # mask, the field the message must name, words it must hold
    ({'expression': 'k <= q && x > 1'}, '/mask/expression', 'column 11'),
    ({'expression': 'k <= q &&'}, '/mask/expression', 'column 10'),
    ({'expression': 'doc(q) == doc(k)'}, '/mask/expression', 'column 1'),
    ({'expression': 'doc(q) == doc(k)', 'documents': [0, 5, 3]}, '/mask/documents/2', 'ascend'),
    ({'expression': 'doc(q) == doc(k)', 'documents': [0, 50]}, '/mask/documents/1', 'out of range'),
    ({'expression': 'k <= q', 'documents': [-1]}, '/mask/documents/0', 'out of range'),
    ({'expression': 3}, '/mask/expression', 'string'),
]


def check_errors(binary, folder):
    problems = []
    for index, (mask, field, words) in enumerate(ERRORS):
        scenario = scenario_for('error', mask, 1, 1, 6, None, 100 + index)
        path = os.path.join(folder, f'error{index}.json')
        with open(path, 'w') as f:
            json.dump(scenario, f)
        done = run(binary, 'compute', '--scenario', path)
        if done.returncode != 2 or field not in done.stderr or words not in done.stderr:
            problems.append(f'{mask}: expected exit 2 naming {field} and "{words}", got {done.returncode}: {done.stderr.strip()}')
    for bad in ('0', 'x', '-4'):
        done = run(binary, 'compute', '--scenario', 'preset:strided', '--blocks', bad)
        if done.returncode != 2 or '--blocks' not in done.stderr:
            problems.append(f'--blocks {bad}: expected exit 2 naming --blocks, got {done.returncode}: {done.stderr.strip()}')
    return problems


def main():
    binary, backend = sys.argv[1], sys.argv[2]
    problems = []
    with tempfile.TemporaryDirectory() as folder:
        for seed, case in enumerate(CASES):
            # Vulkan: the cases that differ in kind (runs across tiles, documents, heads, GQA and
            # MQA, cross-attention, fields ANDed), so that the test stays quick on lavapipe.
            if backend == 'vulkan' and case[0] not in VULKAN_CASES:
                continue
            problems += check_case(binary, backend, case, folder, seed)
        if backend == 'cpu':
            problems += check_errors(binary, folder)
    for problem in problems:
        print(problem)
    count = len(CASES) if backend == 'cpu' else len(VULKAN_CASES)
    print(f'{count} patterns on {backend}: {"FAILED" if problems else "all agree with the float64 reference"}')
    sys.exit(1 if problems else 0)


if __name__ == '__main__':
    main()
