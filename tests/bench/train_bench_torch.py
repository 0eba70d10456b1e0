#!/usr/bin/env python3
"""PyTorch's training step on the same GPT-2 shape and batch as attnviz_train_bench (float32,
AdamW, the CPU's threads): prints the median step time in milliseconds. Called by the bench.

usage: train_bench_torch.py LAYERS HEADS D_MODEL CONTEXT BATCH VOCAB THREADS RUNS"""
import math
import sys
import time

import torch


def main():
    layers, heads, d, T, B, V, threads, runs = map(int, sys.argv[1:9])
    torch.set_num_threads(threads)
    torch.manual_seed(1)
    hs = d // heads

    def linear(i, o):
        return torch.nn.Parameter(torch.randn(i, o) * 0.02), torch.nn.Parameter(torch.zeros(o))

    params = {'wte': torch.nn.Parameter(torch.randn(V, d) * 0.02), 'wpe': torch.nn.Parameter(torch.randn(T, d) * 0.02)}
    for l in range(layers):
        for name, (i, o) in {'qkv': (d, 3 * d), 'proj': (d, d), 'fc': (d, 4 * d), 'fcproj': (4 * d, d)}.items():
            params[f'{l}.{name}.w'], params[f'{l}.{name}.b'] = linear(i, o)
        for ln in ('ln1', 'ln2'):
            params[f'{l}.{ln}.w'] = torch.nn.Parameter(torch.ones(d))
            params[f'{l}.{ln}.b'] = torch.nn.Parameter(torch.zeros(d))
    params['lnf.w'], params['lnf.b'] = torch.nn.Parameter(torch.ones(d)), torch.nn.Parameter(torch.zeros(d))
    p = params
    mask = torch.tril(torch.ones(T, T, dtype=torch.bool))

    def forward(ids, targets):
        x = p['wte'][ids] + p['wpe']
        for l in range(layers):
            h = torch.nn.functional.layer_norm(x, (d,), p[f'{l}.ln1.w'], p[f'{l}.ln1.b'])
            q, k, v = (t.view(B, T, heads, hs).transpose(1, 2) for t in (h @ p[f'{l}.qkv.w'] + p[f'{l}.qkv.b']).split(d, -1))
            att = torch.softmax(((q @ k.transpose(-1, -2)) / math.sqrt(hs)).masked_fill(~mask, float('-inf')), -1)
            x = x + (att @ v).transpose(1, 2).reshape(B, T, d) @ p[f'{l}.proj.w'] + p[f'{l}.proj.b']
            h = torch.nn.functional.layer_norm(x, (d,), p[f'{l}.ln2.w'], p[f'{l}.ln2.b'])
            h = torch.nn.functional.gelu(h @ p[f'{l}.fc.w'] + p[f'{l}.fc.b'], approximate='tanh')
            x = x + h @ p[f'{l}.fcproj.w'] + p[f'{l}.fcproj.b']
        x = torch.nn.functional.layer_norm(x, (d,), p['lnf.w'], p['lnf.b'])
        return torch.nn.functional.cross_entropy((x @ p['wte'].T).view(-1, V), targets.view(-1))

    optimizer = torch.optim.AdamW(params.values(), lr=1e-3, betas=(0.9, 0.95), weight_decay=0.0)
    ids = torch.randint(0, V, (B, T))
    targets = torch.randint(0, V, (B, T))
    times = []
    for _ in range(runs + 1):
        start = time.perf_counter()
        optimizer.zero_grad(set_to_none=False)
        loss = forward(ids, targets)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(params.values(), 1.0)
        optimizer.step()
        times.append((time.perf_counter() - start) * 1000)
    times = sorted(times[1:])
    print(times[len(times) // 2])


if __name__ == '__main__':
    main()
