"""An independent float64 reference for what the heads do (docs/design.md "What the heads do"),
written from the definitions and the papers, never from attnviz's output (numpy only):

- a forward pass of GPT-2 and of the Llama family that keeps the residual stream: the embeddings,
  each block's heads' contexts and MLP output, and can put one head's context from another run in
  place of its own (activation patching: Vig et al. 2020, Meng et al. 2022);
- head roles read off the attention weights (previous token, first token, self, induction and
  duplicate on a repeated probe, entropy, mean distance);
- the logit lens (nostalgebraist 2020): every residual through the final norm and unembedding;
- direct logit attribution with the final norm's scale frozen (Elhage et al. 2021).
The attention, norms, RoPE and activations are model_reference.py's."""
import math

import numpy as np

import model_reference as ref


class Stream:
    """A run's residual stream: residuals[0] the embeddings, residuals[l + 1] after block l;
    contexts[l] (N, H·dk) as W_O read them; mlps[l] (N, d); weights[l][h] (N, N)."""

    def __init__(self):
        self.residuals, self.contexts, self.mlps, self.weights = [], [], [], []


def _patched(ctx, layer, patch, dk):
    if patch is not None and patch[0] == layer:
        ctx = ctx.copy()
        ctx[:, patch[1] * dk:(patch[1] + 1) * dk] = patch[2]
    return ctx


class Gpt2:
    """GPT-2 (Radford et al. 2019): pre-LayerNorm, learned positions, GELU (tanh), W_O with a bias."""

    def __init__(self, w, cfg):
        self.w, self.cfg = w, cfg
        self.dk = cfg['d'] // cfg['heads']
        self.unembedding = w['wte'].T  # tied: (d, vocab)
        self.gamma, self.beta, self.centred = w['lnf_w'], w['lnf_b'], True

    def run(self, ids, patch=None):
        w, cfg, d, heads = self.w, self.cfg, self.cfg['d'], self.cfg['heads']
        n = len(ids)
        s = Stream()
        x = w['wte'][ids] + w['wpe'][:n]
        s.residuals.append(x)
        for l, layer in enumerate(w['layers']):
            a = ref.layer_norm(x, layer['ln1_w'], layer['ln1_b'], cfg['eps'])
            qkv = a @ layer['attn_w'] + layer['attn_b']
            result, ctx = ref.attention(qkv[:, :d], qkv[:, d:2 * d], qkv[:, 2 * d:], heads, heads, ref.causal(n))
            ctx = _patched(ctx, l, patch, self.dk)
            x = x + ctx @ layer['proj_w'] + layer['proj_b']
            m = ref.layer_norm(x, layer['ln2_w'], layer['ln2_b'], cfg['eps'])
            mlp = ref.gelu_tanh(m @ layer['fc_w'] + layer['fc_b']) @ layer['mlp_proj_w'] + layer['mlp_proj_b']
            x = x + mlp
            s.residuals.append(x)
            s.contexts.append(ctx)
            s.mlps.append(mlp)
            s.weights.append([r['weights'] for r in result])
        return s

    def head_rows_of_w_o(self, layer, head):
        return self.w['layers'][layer]['proj_w'][head * self.dk:(head + 1) * self.dk]

    def attention_bias(self, layer):
        return self.w['layers'][layer]['proj_b']

    def final_norm(self, x):
        return ref.layer_norm(x, self.gamma, self.beta, self.cfg['eps'])


class Llama:
    """The Llama family (Touvron et al. 2023): RMSNorm, RoPE, grouped-query attention, SwiGLU,
    no biases on W_O."""

    def __init__(self, w, cfg):
        self.w, self.cfg = w, cfg
        self.dk = cfg['d'] // cfg['heads']
        self.unembedding = w.get('lm_head', w['embed']).T
        self.gamma, self.beta, self.centred = w['norm'], None, False

    def run(self, ids, patch=None):
        w, cfg, heads, kv = self.w, self.cfg, self.cfg['heads'], self.cfg['kv_heads']
        n = len(ids)
        s = Stream()
        x = w['embed'][ids]
        s.residuals.append(x)
        for l, layer in enumerate(w['layers']):
            a = ref.rms_norm(x, layer['in_norm'], cfg['eps'])
            q, k, v = a @ layer['q'].T, a @ layer['k'].T, a @ layer['v'].T
            q = ref.rotate(q, heads, cfg['theta'], np.arange(n))
            k = ref.rotate(k, kv, cfg['theta'], np.arange(n))
            result, ctx = ref.attention(q, k, v, heads, kv, ref.causal(n))
            ctx = _patched(ctx, l, patch, self.dk)
            x = x + ctx @ layer['o'].T
            m = ref.rms_norm(x, layer['post_norm'], cfg['eps'])
            gate = m @ layer['gate'].T
            mlp = ((gate / (1 + np.exp(-gate))) * (m @ layer['up'].T)) @ layer['down'].T
            x = x + mlp
            s.residuals.append(x)
            s.contexts.append(ctx)
            s.mlps.append(mlp)
            s.weights.append([r['weights'] for r in result])
        return s

    def head_rows_of_w_o(self, layer, head):
        return self.w['layers'][layer]['o'].T[head * self.dk:(head + 1) * self.dk]

    def attention_bias(self, layer):
        return None

    def final_norm(self, x):
        return ref.rms_norm(x, self.gamma, self.cfg['eps'])


# --- head roles -------------------------------------------------------------------------------

def head_scores(a, prefix=None, repeat=None):
    """The scores of one head's weights A (N × N), as docs/design.md defines them."""
    n = a.shape[0]
    rows = range(1, n)
    logs = np.where(a > 0, np.log(np.where(a > 0, a, 1.0)), 0.0)
    scores = {
        'previous_token': np.mean([a[i, i - 1] for i in rows]),
        'first_token': np.mean([a[i, 0] for i in rows]),
        'self': np.mean([a[i, i] for i in rows]),
        'entropy': np.mean([-(a[i] * logs[i]).sum() for i in range(n)]),
        'mean_distance': np.mean([(a[i] * (i - np.arange(n))).sum() for i in range(n)]),
        'induction': None, 'duplicate': None}
    if repeat is not None:
        second = range(prefix + repeat, prefix + 2 * repeat)
        scores['induction'] = np.mean([a[i, i - repeat + 1] for i in second])
        scores['duplicate'] = np.mean([a[i, i - repeat] for i in second])
    return scores


# --- the logit lens -------------------------------------------------------------------------

def logits(model, residual):
    return model.final_norm(residual) @ model.unembedding


def lens(model, stream, ids):
    """[layer][position] → (probabilities, p_next, rank_next)."""
    out = []
    for residual in stream.residuals:
        z = logits(model, residual)
        p = np.exp(z - z.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        cells = []
        for i in range(len(ids)):
            if i + 1 < len(ids):
                nxt = ids[i + 1]
                rank = int((z[i] > z[i, nxt]).sum() + ((z[i] == z[i, nxt]) & (np.arange(z.shape[1]) < nxt)).sum())
                cells.append((p[i], p[i, nxt], rank))
            else:
                cells.append((p[i], None, None))
        out.append(cells)
    return out


# --- direct logit attribution -----------------------------------------------------------------

def attribution(model, stream, position, target):
    """Each part of the final residual at `position`: its share of the target's logit with the
    final norm's scale σ frozen at the whole residual's (LayerNorm: σ = √(var + ε), centred parts;
    RMSNorm: √(mean(x²) + ε)). Returns (logit, [(kind, layer, head, value)])."""
    x = stream.residuals[-1][position]
    eps = model.cfg['eps']
    mean = x.mean() if model.centred else 0.0
    sigma = math.sqrt(((x - mean) ** 2).mean() + eps)
    column = model.unembedding[:, target]

    def share(c):
        c = c - c.mean() if model.centred else c
        return float((c / sigma * model.gamma) @ column)

    parts = [('embedding', None, None, share(stream.residuals[0][position]))]
    for l in range(len(stream.contexts)):
        dk = model.dk
        for h in range(model.cfg['heads']):
            ctx = stream.contexts[l][position, h * dk:(h + 1) * dk]
            parts.append(('head', l, h, share(ctx @ model.head_rows_of_w_o(l, h))))
        bias = model.attention_bias(l)
        if bias is not None:
            parts.append(('attention_bias', l, None, share(bias)))
        parts.append(('mlp', l, None, share(stream.mlps[l][position])))
    final_bias = float(model.beta @ column) if model.beta is not None else 0.0
    parts.append(('final_bias', None, None, final_bias))
    logit = float(logits(model, x[None, :])[0, target])
    return logit, parts


# --- activation patching ----------------------------------------------------------------------

def patching(model, clean_ids, corrupted_ids, position, target, patched_position=None):
    """The clean and corrupted logits and, per layer and head, the clean run's logit with that
    head's context taken from the corrupted run: at every position, or at `patched_position`
    alone (the other rows keep the clean run's context; TransformerLens's per-position patching).
    Every patched run is a whole pass over every row."""
    clean, corrupted = model.run(clean_ids), model.run(corrupted_ids)

    def logit(stream):
        return float(logits(model, stream.residuals[-1][position][None, :])[0, target])

    def context(l, h):
        columns = slice(h * model.dk, (h + 1) * model.dk)
        if patched_position is None:
            return corrupted.contexts[l][:, columns]
        patched = clean.contexts[l][:, columns].copy()
        patched[patched_position] = corrupted.contexts[l][patched_position, columns]
        return patched

    patched = [[logit(model.run(clean_ids, (l, h, context(l, h))))
                for h in range(model.cfg['heads'])] for l in range(len(clean.contexts))]
    return logit(clean), logit(corrupted), patched
