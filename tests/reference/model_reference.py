"""Independent float64 references for pretrained models, written from the papers and the
models' published definitions (numpy only, never from attnviz's output):

- forward passes of GPT-2 (Radford et al. 2019: pre-LayerNorm, learned positions, GELU with
  tanh), the Llama family (Touvron et al. 2023: RMSNorm, RoPE as Hugging Face rotates halves,
  grouped-query attention, SwiGLU; Qwen2's q/k/v biases; Mistral's sliding window: a query sees
  the `window` latest keys, itself included) and BERT (Devlin et al. 2019: post-LayerNorm, token
  types, GELU with erf, the masked-LM head), every head's scores, weights and context kept;
- attention rollout (Abnar & Zuidema 2020);
- the tokenizers on plain ASCII text: byte-level BPE (GPT-2's regular expression and Qwen2's),
  SentencePiece BPE with byte fallback, and WordPiece with BERT's basic tokenizer.
"""
import math
import re

import numpy as np


# --- forward passes -------------------------------------------------------------------------

def layer_norm(x, w, b, eps):
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * w + b


def rms_norm(x, w, eps):
    return x / np.sqrt((x ** 2).mean(axis=-1, keepdims=True) + eps) * w


def gelu_tanh(x):
    return 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))


def gelu_erf(x):
    return 0.5 * x * (1 + np.vectorize(math.erf)(x / math.sqrt(2)))


def softmax_rows(s, visible):
    s = np.where(visible, s, -np.inf)
    s = s - s.max(axis=-1, keepdims=True)
    e = np.where(visible, np.exp(s), 0.0)
    return e / e.sum(axis=-1, keepdims=True)


def attention(q, k, v, heads, kv_heads, visible, factors=None):
    """q: (N, H·dk), k, v: (N, G·dk). Returns per head (scores, weights, context) and the
    contexts side by side, each head's times its factor."""
    dk = q.shape[1] // heads
    out, contexts = [], []
    for h in range(heads):
        g = h // (heads // kv_heads)
        qh, kh, vh = q[:, h * dk:(h + 1) * dk], k[:, g * dk:(g + 1) * dk], v[:, g * dk:(g + 1) * dk]
        scores = qh @ kh.T
        weights = softmax_rows(scores / math.sqrt(dk), visible)
        context = weights @ vh
        out.append({'scores': scores, 'weights': weights, 'context': context})
        contexts.append(context * (factors or {}).get(h, 1.0))
    return out, np.concatenate(contexts, axis=1)


def causal(n, window=None):
    i, j = np.arange(n)[:, None], np.arange(n)[None, :]
    visible = j <= i
    if window is not None:
        visible &= (i - j) < window
    return visible


def llama3_frequencies(inv, scaling):
    """Llama 3.1's RoPE scaling (its reference code, apply_scaling): wavelengths above
    original/low_freq_factor slowed by `factor`, those below original/high_freq_factor kept,
    a linear blend in between."""
    factor, low, high = scaling['factor'], scaling['low_freq_factor'], scaling['high_freq_factor']
    original = scaling['original_max_position_embeddings']
    out = []
    for w in inv:
        wavelength = 2 * math.pi / w
        if wavelength < original / high:
            out.append(w)
        elif wavelength > original / low:
            out.append(w / factor)
        else:
            smooth = (original / wavelength - low) / (high - low)
            out.append((1 - smooth) * w / factor + smooth * w)
    return np.array(out)


def rotate(x, heads, theta, positions, scaling=None):
    """RoPE as Hugging Face's Llama applies it: dimension i with i + d/2, angle p·θ^(−2i/d)."""
    dk = x.shape[1] // heads
    inv = theta ** (-np.arange(0, dk, 2) / dk)
    if scaling is not None:
        inv = llama3_frequencies(inv, scaling)
    angles = np.outer(positions, inv)
    cos, sin = np.cos(np.concatenate([angles, angles], 1)), np.sin(np.concatenate([angles, angles], 1))
    out = np.empty_like(x)
    for h in range(heads):
        part = x[:, h * dk:(h + 1) * dk]
        half = np.concatenate([-part[:, dk // 2:], part[:, :dk // 2]], 1)
        out[:, h * dk:(h + 1) * dk] = part * cos + half * sin
    return out


def gpt2_forward(w, cfg, ids, factors=None):
    n, d, heads = len(ids), cfg['d'], cfg['heads']
    x = w['wte'][ids] + w['wpe'][:n]
    layers = []
    for layer in w['layers']:
        a = layer_norm(x, layer['ln1_w'], layer['ln1_b'], cfg['eps'])
        qkv = a @ layer['attn_w'] + layer['attn_b']
        q, k, v = qkv[:, :d], qkv[:, d:2 * d], qkv[:, 2 * d:]
        result, ctx = attention(q, k, v, heads, heads, causal(n), (factors or {}).get(len(layers)))
        layers.append(result)
        x = x + ctx @ layer['proj_w'] + layer['proj_b']
        m = layer_norm(x, layer['ln2_w'], layer['ln2_b'], cfg['eps'])
        x = x + gelu_tanh(m @ layer['fc_w'] + layer['fc_b']) @ layer['mlp_proj_w'] + layer['mlp_proj_b']
    final = layer_norm(x, w['lnf_w'], w['lnf_b'], cfg['eps'])
    return layers, final @ w['wte'].T


def llama_forward(w, cfg, ids, factors=None):
    n, heads, kv = len(ids), cfg['heads'], cfg['kv_heads']
    x = w['embed'][ids]
    visible = causal(n, cfg.get('window'))
    layers = []
    for layer in w['layers']:
        a = rms_norm(x, layer['in_norm'], cfg['eps'])
        q, k, v = a @ layer['q'].T, a @ layer['k'].T, a @ layer['v'].T
        if 'q_b' in layer:
            q, k, v = q + layer['q_b'], k + layer['k_b'], v + layer['v_b']
        scaling = cfg.get('rope_scaling')
        q, k = rotate(q, heads, cfg['theta'], np.arange(n), scaling), rotate(k, kv, cfg['theta'], np.arange(n), scaling)
        result, ctx = attention(q, k, v, heads, kv, visible, (factors or {}).get(len(layers)))
        layers.append(result)
        x = x + ctx @ layer['o'].T
        m = rms_norm(x, layer['post_norm'], cfg['eps'])
        gate = m @ layer['gate'].T
        x = x + ((gate / (1 + np.exp(-gate))) * (m @ layer['up'].T)) @ layer['down'].T
    final = rms_norm(x, w['norm'], cfg['eps'])
    return layers, final @ w.get('lm_head', w['embed']).T


def bert_forward(w, cfg, ids, types):
    n = len(ids)
    x = layer_norm(w['word'][ids] + w['pos'][:n] + w['type'][types], w['emb_ln_w'], w['emb_ln_b'], cfg['eps'])
    layers = []
    for layer in w['layers']:
        q, k, v = (x @ layer[p].T + layer[p + '_b'] for p in ('q', 'k', 'v'))
        result, ctx = attention(q, k, v, cfg['heads'], cfg['heads'], np.ones((n, n), bool))
        layers.append(result)
        a = layer_norm(x + ctx @ layer['o'].T + layer['o_b'], layer['ln1_w'], layer['ln1_b'], cfg['eps'])
        h = gelu_erf(a @ layer['i'].T + layer['i_b']) @ layer['out'].T + layer['out_b']
        x = layer_norm(a + h, layer['ln2_w'], layer['ln2_b'], cfg['eps'])
    t = layer_norm(gelu_erf(x @ w['t'].T + w['t_b']), w['t_ln_w'], w['t_ln_b'], cfg['eps'])
    return layers, t @ w['word'].T + w['mlm_b']


def rollout(layers, last):
    """Abnar & Zuidema 2020: heads averaged, 0.5·A + 0.5·I, rows renormalised, multiplied up."""
    n = layers[0][0]['weights'].shape[0]
    r = np.eye(n)
    for heads in layers[:last + 1]:
        a = np.mean([h['weights'] for h in heads], axis=0) * 0.5 + 0.5 * np.eye(n)
        a = a / a.sum(axis=1, keepdims=True)
        r = a @ r
    return r


# --- tokenizers on ASCII text ---------------------------------------------------------------

# Qwen2's pattern as its tokenizer.json spells it (Unicode classes), and the same on ASCII for re.
QWEN2_REGEX = (r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*"""
               r"""|\s*[\r\n]+|\s+(?!\S)|\s+""")
LLAMA3_ASCII = re.compile(r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\nA-Za-z0-9]?[A-Za-z]+|[0-9]{1,3}| ?[^\sA-Za-z0-9]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+""")
LLAMA3_REGEX = (r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*"""
                r"""|\s*[\r\n]+|\s+(?!\S)|\s+""")
GPT2_ASCII = re.compile(r"""'s|'t|'re|'ve|'m|'ll|'d| ?[A-Za-z]+| ?[0-9]+| ?[^\sA-Za-z0-9]+|\s+(?!\S)|\s+""")
QWEN2_ASCII = re.compile(r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\nA-Za-z0-9]?[A-Za-z]+|[0-9]| ?[^\sA-Za-z0-9]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+""")


def bytes_to_unicode():
    """GPT-2's printable stand-ins for bytes (its encoder.py)."""
    keep = list(range(ord('!'), ord('~') + 1)) + list(range(0xA1, 0xAD)) + list(range(0xAE, 0x100))
    table, extra = {}, 0
    for b in range(256):
        if b in keep:
            table[b] = chr(b)
        else:
            table[b] = chr(256 + extra)
            extra += 1
    return table


def bpe(symbols, ranks):
    """Textbook BPE: merge the lowest-ranked adjacent pair (leftmost first) until none is left."""
    symbols = list(symbols)
    while len(symbols) > 1:
        pairs = [(ranks.get((a, b), math.inf), i) for i, (a, b) in enumerate(zip(symbols, symbols[1:]))]
        rank, i = min(pairs)
        if rank == math.inf:
            break
        symbols[i:i + 2] = [symbols[i] + symbols[i + 1]]
    return symbols


def byte_level_encode(text, vocab, merges, pattern=GPT2_ASCII):
    table = bytes_to_unicode()
    ranks = {tuple(m.split(' ')): r for r, m in enumerate(merges)}
    ids = []
    for word in pattern.findall(text):
        ids += [vocab[s] for s in bpe([table[b] for b in word.encode()], ranks)]
    return ids


def sentencepiece_encode(text, vocab, merges, bos):
    """Llama-style: spaces as ▁, a ▁ before the text, merges by rank, unknown pieces as bytes."""
    ranks = {tuple(m.split(' ')): r for r, m in enumerate(merges)}
    ids = [bos]
    for piece in bpe('\u2581' + text.replace(' ', '\u2581'), ranks):
        if piece in vocab:
            ids.append(vocab[piece])
        else:
            ids += [vocab[f'<0x{b:02X}>'] for b in piece.encode()]
    return ids


def wordpiece_encode(text, vocab, specials=('[MASK]', '[SEP]', '[CLS]')):
    """BERT uncased on ASCII text: lower case, punctuation split off, greedy longest match."""
    ids = [vocab['[CLS]']]
    for part in re.split('(' + '|'.join(re.escape(s) for s in specials) + ')', text):
        if part in specials:
            ids.append(vocab[part])
            continue
        for word in re.findall(r"[a-z0-9]+|[^\sa-z0-9]", part.lower()):
            pieces, start = [], 0
            while start < len(word):
                end = len(word)
                while end > start and (('##' if start else '') + word[start:end]) not in vocab:
                    end -= 1
                if end == start:
                    pieces = [vocab['[UNK]']]
                    break
                pieces.append(vocab[('##' if start else '') + word[start:end]])
                start = end
            ids += pieces
    return ids + [vocab['[SEP]']]
