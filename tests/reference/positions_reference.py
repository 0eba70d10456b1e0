#!/usr/bin/env python3
"""Positions and dropout in float64, written from the papers and docs/design.md ("Positions",
"Dropout"), never from attnviz's code or output:

- the sinusoidal table of Vaswani et al. 2017, section 3.5:
      PE(pos, 2i) = sin(pos / 10000^(2i/d_model)),  PE(pos, 2i+1) = cos(pos / 10000^(2i/d_model));
- RoPE (Su et al. 2021) in Hugging Face Llama's rotate-half form: inv_freq = 1 / theta^(arange(0, d, 2)/d),
  cos/sin of outer(positions, inv_freq) repeated twice, x * cos + rotate_half(x) * sin with
  rotate_half(x) = [-x2, x1];
- ALiBi (Press et al. 2022): the paper's get_slopes (its repository's recursion, interleaving for
  a head count that is not a power of two) and the bias -slope * |i - j| on the scaled scores;
- dropout's kept set: MurmurHash3_x86_32 (Appleby) of the five little-endian uint32 words
  (seed low, seed high, head, query, key), kept when the hash >= floor(p * 2^32); kept weights
  scaled by 1/(1 - p) (rounded to float32, as docs/design.md says).

    attention(scenario) -> {"mask", "masked_rows", "heads": [{"scores", "weights", "context",
                            ["weights_before_dropout", "kept"]}], "output"}
"""
import math
import pathlib
import sys

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from attention_reference import scale_of, visible  # noqa: E402


def sinusoidal_table(positions, d_model: int) -> np.ndarray:
    table = np.zeros((len(positions), d_model))
    for row, pos in enumerate(positions):
        for i in range(0, d_model, 2):
            angle = pos / (10000.0 ** (i / d_model))
            table[row, i] = math.sin(angle)
            if i + 1 < d_model:
                table[row, i + 1] = math.cos(angle)
    return table


def rotate_half(x: np.ndarray) -> np.ndarray:
    half = x.shape[-1] // 2
    return np.concatenate([-x[..., half:], x[..., :half]], axis=-1)


def apply_rope(x: np.ndarray, positions, theta: float) -> np.ndarray:
    """x: (rows, d) for rows at `positions`."""
    d = x.shape[-1]
    inv_freq = 1.0 / (theta ** (np.arange(0, d, 2, dtype=np.float64) / d))
    freqs = np.outer(np.asarray(positions, dtype=np.float64), inv_freq)
    emb = np.concatenate([freqs, freqs], axis=-1)
    return x * np.cos(emb) + rotate_half(x) * np.sin(emb)


def alibi_slopes(n: int) -> list:
    """The ALiBi repository's get_slopes (Press et al. 2022)."""
    def power_of_2(count):
        start = 2 ** (-2 ** -(math.log2(count) - 3))
        return [start * start ** i for i in range(count)]
    if math.log2(n).is_integer():
        return power_of_2(n)
    closest = 2 ** math.floor(math.log2(n))
    return power_of_2(closest) + alibi_slopes(2 * closest)[0::2][:n - closest]


def murmur3_32(data: bytes, seed: int = 0) -> int:
    """MurmurHash3_x86_32 (Austin Appleby, public domain), for data of a multiple of 4 bytes."""
    mask = 0xffffffff
    c1, c2 = 0xcc9e2d51, 0x1b873593
    h = seed & mask
    for block in range(0, len(data) - len(data) % 4, 4):
        k = int.from_bytes(data[block:block + 4], 'little')
        k = (k * c1) & mask
        k = ((k << 15) | (k >> 17)) & mask
        k = (k * c2) & mask
        h ^= k
        h = ((h << 13) | (h >> 19)) & mask
        h = (h * 5 + 0xe6546b64) & mask
    assert len(data) % 4 == 0
    h ^= len(data)
    h ^= h >> 16
    h = (h * 0x85ebca6b) & mask
    h ^= h >> 13
    h = (h * 0xc2b2ae35) & mask
    h ^= h >> 16
    return h


def dropout_kept(seed: int, head: int, query: int, key: int, p: float) -> bool:
    words = [seed & 0xffffffff, seed >> 32, head, query, key]
    data = b''.join(w.to_bytes(4, 'little') for w in words)
    return murmur3_32(data) >= math.floor(p * 2 ** 32)


def attention(scenario: dict) -> dict:
    positional = scenario.get('positional', 'none')
    offset = scenario.get('position_offset', 0)
    theta = float(scenario.get('rope_theta', 10000))
    x = np.array(scenario['embeddings'], dtype=np.float64)
    source = scenario.get('source')
    xs = np.array(source['embeddings'], dtype=np.float64) if source else x.copy()
    n, m = x.shape[0], xs.shape[0]
    d_model = x.shape[1]
    if positional == 'sinusoidal':  # each sentence at its own positions
        x = x + sinusoidal_table(range(offset, offset + n), d_model)
        xs = xs + sinusoidal_table(range(offset, offset + m), d_model)
    heads = scenario.get('num_heads', 1)
    kv_heads = scenario.get('num_kv_heads', heads)
    d_k, d_v = scenario['d_k'], scenario['d_v']
    wq, wk, wv = (np.array(scenario[k], dtype=np.float64) for k in ('wq', 'wk', 'wv'))
    mask_setting = scenario.get('mask', {})
    mask = np.array([[1 if visible(mask_setting, i, j) else 0 for j in range(m)] for i in range(n)])
    scale = scale_of(scenario, d_k)
    slopes = alibi_slopes(heads) if positional == 'alibi' else [0.0] * heads
    dropout = scenario.get('dropout')
    out_heads, contexts = [], []
    for h in range(heads):
        g = h // (heads // kv_heads)
        q = x @ wq[:, h * d_k:(h + 1) * d_k]
        k = xs @ wk[:, g * d_k:(g + 1) * d_k]
        v = xs @ wv[:, g * d_v:(g + 1) * d_v]
        if positional == 'rope':
            q = apply_rope(q, range(offset, offset + n), theta)
            k = apply_rope(k, range(offset, offset + m), theta)
        scores = q @ k.T
        weights = np.zeros((n, m))
        for i in range(n):
            seen = mask[i] == 1
            if not seen.any():
                continue
            row = scale * scores[i] - slopes[h] * np.abs(i - np.arange(m))
            e = np.exp(row[seen] - row[seen].max())
            weights[i, seen] = e / e.sum()
        head = {'scores': scores}
        if dropout is not None:
            p = dropout['p']
            seed = dropout.get('seed', 1)
            kept = np.array([[1 if dropout_kept(seed, h, i, j, p) else 0 for j in range(m)] for i in range(n)])
            keep_scale = float(np.float32(1.0 / (1.0 - p)))
            head['weights_before_dropout'] = weights
            head['kept'] = kept
            weights = weights * kept * keep_scale
        head['weights'] = weights
        head['context'] = weights @ v
        out_heads.append(head)
        contexts.append(head['context'])
    output = np.concatenate(contexts, axis=1)
    if 'wo' in scenario:
        output = output @ np.array(scenario['wo'], dtype=np.float64)
    masked_rows = [i for i in range(n) if not mask[i].any()]
    return {'mask': mask, 'masked_rows': masked_rows, 'heads': out_heads, 'output': output}
