#!/usr/bin/env python3
"""A float64 GPT-2 in PyTorch, written from the GPT-2 paper and Hugging Face's modeling_gpt2.py
(pre-LN blocks, learned positions, GELU tanh MLP, final LN, unembedding tied to wte; Conv1D
weights [in, out]), for checking `attnviz train` (check_training.py): its loss, every gradient by
autograd, one SGD step, attention weights. Never attnviz's own numbers."""
import json
import math
import struct

import numpy as np
import torch

torch.set_default_dtype(torch.float64)

LAYER_TENSORS = ['ln_1.weight', 'ln_1.bias', 'attn.c_attn.weight', 'attn.c_attn.bias', 'attn.c_proj.weight',
                 'attn.c_proj.bias', 'ln_2.weight', 'ln_2.bias', 'mlp.c_fc.weight', 'mlp.c_fc.bias',
                 'mlp.c_proj.weight', 'mlp.c_proj.bias']


def read_safetensors(path):
    """{name: float64 numpy array} of an F32 safetensors file, and its metadata."""
    data = open(path, 'rb').read()
    (length,) = struct.unpack('<Q', data[:8])
    header = json.loads(data[8:8 + length])
    base = 8 + length
    tensors = {}
    for name, info in header.items():
        if name == '__metadata__':
            continue
        assert info['dtype'] == 'F32', name
        begin, end = info['data_offsets']
        tensors[name] = np.frombuffer(data[base + begin:base + end], dtype='<f4').astype(np.float64).reshape(info['shape'])
    return tensors, header.get('__metadata__', {})


def read_model(folder):
    config = json.loads((folder / 'config.json').read_text())
    tensors, metadata = read_safetensors(folder / 'model.safetensors')
    return config, {k: torch.tensor(v, requires_grad=True) for k, v in tensors.items()}, metadata


def layer_norm(x, w, b, eps=1e-5):
    mean = x.mean(-1, keepdim=True)
    var = ((x - mean) ** 2).mean(-1, keepdim=True)
    return (x - mean) / torch.sqrt(var + eps) * w + b


def gelu_tanh(x):
    return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x ** 3)))


def forward(config, w, ids):
    """ids (B, T) → logits (B, T, V) and each layer's attention weights (B, H, T, T)."""
    heads, layers = config['n_head'], config['n_layer']
    B, T = ids.shape
    x = w['wte.weight'][ids] + w['wpe.weight'][torch.arange(T)]
    C = x.shape[-1]
    hs = C // heads
    mask = torch.tril(torch.ones(T, T, dtype=torch.bool))
    attention = []
    for l in range(layers):
        p = f'h.{l}.'
        h = layer_norm(x, w[p + 'ln_1.weight'], w[p + 'ln_1.bias'])
        qkv = h @ w[p + 'attn.c_attn.weight'] + w[p + 'attn.c_attn.bias']
        q, k, v = (t.view(B, T, heads, hs).transpose(1, 2) for t in qkv.split(C, dim=-1))
        scores = (q @ k.transpose(-1, -2)) / math.sqrt(hs)
        weights = torch.softmax(scores.masked_fill(~mask, float('-inf')), dim=-1)
        attention.append(weights)
        y = (weights @ v).transpose(1, 2).reshape(B, T, C)
        x = x + y @ w[p + 'attn.c_proj.weight'] + w[p + 'attn.c_proj.bias']
        h = layer_norm(x, w[p + 'ln_2.weight'], w[p + 'ln_2.bias'])
        h = gelu_tanh(h @ w[p + 'mlp.c_fc.weight'] + w[p + 'mlp.c_fc.bias'])
        x = x + h @ w[p + 'mlp.c_proj.weight'] + w[p + 'mlp.c_proj.bias']
    x = layer_norm(x, w['ln_f.weight'], w['ln_f.bias'])
    return x @ w['wte.weight'].T, attention


def losses(logits, targets):
    """The cross-entropy of each prediction (B, T)."""
    return -torch.log_softmax(logits, dim=-1).gather(-1, targets.unsqueeze(-1)).squeeze(-1)


def loss_and_gradients(config, w, inputs, targets):
    """The mean cross-entropy over all B·T predictions and its gradient for every tensor."""
    for t in w.values():
        t.grad = None
    logits, _ = forward(config, w, inputs)
    loss = losses(logits, targets).mean()
    loss.backward()
    return loss.item(), {k: t.grad.numpy().copy() for k, t in w.items()}


def induction_scores(config, w, ids, K):
    """Per layer and head: mean over i in [K, 2K) of A[i, i−K+1] on ids (K random ids, then the same K)."""
    with torch.no_grad():
        _, attention = forward(config, w, torch.tensor([ids]))
    rows = torch.arange(K, 2 * K)
    return [[a[0, h, rows, rows - K + 1].mean().item() for h in range(a.shape[1])] for a in attention]
