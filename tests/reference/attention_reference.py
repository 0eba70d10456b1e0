#!/usr/bin/env python3
"""Attention in float64, written from the formulas of docs/design.md ("Attention as attnviz
computes it", "Masks") and Vaswani et al. 2017, eq. 1, and nothing else: no attnviz code and
no attnviz output. Tests use it as an independent reference.

    attention(scenario) -> {"mask": N×M 0/1, "masked_rows": [...], "heads": [{"scores",
                            "weights", "context"}], "output": N × (H·dv or d_out)}

The scenario must carry its embeddings and weights explicitly (the fixtures do); generated
values are the subject of their own test (tests/scenario/generate_test.cpp)."""
import math

import numpy as np


def visible(mask: dict, i: int, j: int) -> bool:
    """docs/design.md, "Masks": (no window, or |i-j| <= r, or i or j global) and (not causal, or j <= i)."""
    if mask.get('causal', False) and j > i:
        return False
    window = mask.get('window')
    if window is None:
        return True
    globals_ = set(mask.get('global', []))
    return abs(i - j) <= window or i in globals_ or j in globals_


def scale_of(scenario: dict, d_k: int) -> float:
    scale = scenario.get('scale', 'inv_sqrt_dk')
    if scale == 'inv_sqrt_dk':
        return 1.0 / math.sqrt(d_k)
    if scale == 'none':
        return 1.0
    return float(scale)


def attention(scenario: dict) -> dict:
    x = np.array(scenario['embeddings'], dtype=np.float64)
    source = scenario.get('source')
    xs = np.array(source['embeddings'], dtype=np.float64) if source else x
    n, m = x.shape[0], xs.shape[0]
    heads = scenario.get('num_heads', 1)
    kv_heads = scenario.get('num_kv_heads', heads)
    d_k, d_v = scenario['d_k'], scenario['d_v']
    wq, wk, wv = (np.array(scenario[k], dtype=np.float64) for k in ('wq', 'wk', 'wv'))
    mask = np.array([[1 if visible(scenario.get('mask', {}), i, j) else 0 for j in range(m)] for i in range(n)])
    scale = scale_of(scenario, d_k)
    out_heads, contexts = [], []
    for h in range(heads):
        g = h // (heads // kv_heads)
        q = x @ wq[:, h * d_k:(h + 1) * d_k]
        k = xs @ wk[:, g * d_k:(g + 1) * d_k]
        v = xs @ wv[:, g * d_v:(g + 1) * d_v]
        scores = q @ k.T
        weights = np.zeros((n, m))
        for i in range(n):
            seen = mask[i] == 1
            if not seen.any():
                continue  # a row with no visible key: zero weights, zero context
            row = scale * scores[i, seen]
            e = np.exp(row - row.max())
            weights[i, seen] = e / e.sum()
        context = weights @ v
        out_heads.append({'scores': scores, 'weights': weights, 'context': context})
        contexts.append(context)
    output = np.concatenate(contexts, axis=1)
    if 'wo' in scenario:
        output = output @ np.array(scenario['wo'], dtype=np.float64)
    masked_rows = [i for i in range(n) if not mask[i].any()]
    return {'mask': mask, 'masked_rows': masked_rows, 'heads': out_heads, 'output': output}
