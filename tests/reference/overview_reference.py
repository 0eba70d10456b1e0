#!/usr/bin/env python3
"""The overview of docs/design.md ("Overview") in float64, from its definition and nothing else:
the window's cells in blocks of ceil(rows / pixels) x ceil(cols / pixels) (the last block of a row
or column holds what is left); per block the largest value or the mean. Weights pool over every
cell of the block (a hidden cell's weight is 0); raw and scaled scores over its visible cells. A
block whose cells the mask hides entirely is hidden (NaN here, as in attnviz's NPY). Positions
(sinusoidal, RoPE, ALiBi) come from positions_reference.py; the scaled scores include ALiBi's bias.

    overview(scenario, pixels, what, pool, rows=None, cols=None) -> heads x R x C array"""
import math

import numpy as np

import attention_reference
import positions_reference
from attention_reference import scale_of


def overview(scenario: dict, pixels: int, what: str, pool: str, rows=None, cols=None) -> np.ndarray:
    positional = scenario.get('positional', 'none')
    dense = (attention_reference if positional == 'none' else positions_reference).attention(scenario)
    mask = dense['mask']
    n, m = mask.shape
    r0, r1 = rows if rows else (0, n)
    c0, c1 = cols if cols else (0, m)
    block_r = math.ceil((r1 - r0) / pixels)
    block_c = math.ceil((c1 - c0) / pixels)
    out_r = math.ceil((r1 - r0) / block_r)
    out_c = math.ceil((c1 - c0) / block_c)
    scale = scale_of(scenario, scenario['d_k'])
    heads = len(dense['heads'])
    slopes = positions_reference.alibi_slopes(heads) if positional == 'alibi' else [0.0] * heads
    distance = np.abs(np.arange(n)[:, None] - np.arange(m)[None, :])
    images = []
    for h, head in enumerate(dense['heads']):
        if what == 'weights':
            values = head['weights']
        elif what == 'scores':
            values = head['scores']
        else:  # what the softmax sees: with ALiBi, its bias too
            values = head['scores'] * scale - slopes[h] * distance
        image = np.full((out_r, out_c), np.nan)
        for pr in range(out_r):
            for pc in range(out_c):
                a, b = r0 + pr * block_r, min(r1, r0 + (pr + 1) * block_r)
                c, d = c0 + pc * block_c, min(c1, c0 + (pc + 1) * block_c)
                seen = mask[a:b, c:d] == 1
                if not seen.any():
                    continue
                block = values[a:b, c:d]
                if what == 'weights':
                    image[pr, pc] = block.max() if pool == 'max' else block.mean()
                else:
                    image[pr, pc] = block[seen].max() if pool == 'max' else block[seen].mean()
        images.append(image)
    return np.stack(images)
