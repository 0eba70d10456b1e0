#!/usr/bin/env python3
"""The tiled attention of FlashAttention-2 (Dao 2023, "FlashAttention-2: Faster Attention with
Better Parallelism and Work Partitioning", algorithm 1, forward pass) in float64, written from
the paper and docs/design.md ("Masks", "Traces"), and nothing else: no attnviz code or output.

For query block i and key block j (visited j = 0, 1, ... for each i):
    S   = scale · Q_i K_jᵀ            masked entries −∞
    m'  = max(m, rowmax(S))
    P   = exp(S − m')
    l'  = exp(m − m') · l + rowsum(P)
    O'  = diag(exp(m − m')) · O + P V_j
and at the end O / l (a row that saw no key: 0).

    tiled_trace(scenario, head, br, bc) -> {"tiles": [{"qb", "kb", "skipped", "m", "l"}],
                                            "context": N × d_v}
A tile is skipped when the mask hides all of its cells; m is None while a row has seen nothing."""
import math

import numpy as np

from attention_reference import scale_of, visible


def head_operands(scenario: dict, head: int):
    x = np.array(scenario['embeddings'], dtype=np.float64)
    source = scenario.get('source')
    xs = np.array(source['embeddings'], dtype=np.float64) if source else x
    heads = scenario.get('num_heads', 1)
    kv_heads = scenario.get('num_kv_heads', heads)
    d_k, d_v = scenario['d_k'], scenario['d_v']
    g = head // (heads // kv_heads)
    q = x @ np.array(scenario['wq'], dtype=np.float64)[:, head * d_k:(head + 1) * d_k]
    k = xs @ np.array(scenario['wk'], dtype=np.float64)[:, g * d_k:(g + 1) * d_k]
    v = xs @ np.array(scenario['wv'], dtype=np.float64)[:, g * d_v:(g + 1) * d_v]
    return q, k, v, scale_of(scenario, d_k)


def tiled_trace(scenario: dict, head: int, br: int, bc: int) -> dict:
    q, k, v, scale = head_operands(scenario, head)
    n, m_keys, d_v = q.shape[0], k.shape[0], v.shape[1]
    mask_fields = scenario.get('mask', {})
    seen = np.array([[visible(mask_fields, i, j) for j in range(m_keys)] for i in range(n)], dtype=bool)
    tiles, context = [], np.zeros((n, d_v))
    for qb in range(math.ceil(n / br)):
        rows = slice(qb * br, min(n, (qb + 1) * br))
        count = rows.stop - rows.start
        m, l, o = np.full(count, -math.inf), np.zeros(count), np.zeros((count, d_v))
        for kb in range(math.ceil(m_keys / bc)):
            cols = slice(kb * bc, min(m_keys, (kb + 1) * bc))
            s = np.where(seen[rows, cols], scale * (q[rows] @ k[cols].T), -math.inf)
            m_new = np.maximum(m, s.max(axis=1))
            # exp(m − m') with both −∞ (a row still empty) is 1: nothing to rescale yet.
            alpha = np.where(np.isinf(m_new), 1.0, np.exp(m - np.where(np.isinf(m_new), 0.0, m_new)))
            p = np.where(np.isinf(s), 0.0, np.exp(s - np.where(np.isinf(m_new), 0.0, m_new)[:, None]))
            l = alpha * l + p.sum(axis=1)
            o = alpha[:, None] * o + p @ v[cols]
            m = m_new
            tiles.append({'qb': qb, 'kb': kb, 'skipped': not seen[rows, cols].any(),
                          'm': [None if math.isinf(x) else x for x in m], 'l': list(l)})
        context[rows] = np.where(l[:, None] > 0, o / np.where(l > 0, l, 1.0)[:, None], 0.0)
    return {'tiles': tiles, 'context': context}
