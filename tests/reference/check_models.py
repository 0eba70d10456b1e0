#!/usr/bin/env python3
"""attnviz's pretrained-model path against the float64 references of model_reference.py.

Each case writes tiny random models here (numpy; safetensors and GGUF written by hand from the
formats' definitions, see model_files.py) into a temporary folder, runs the attnviz binary on
them as a user would, and checks:
  - the token ids against reference tokenizers (and hand-written encodings);
  - every layer's and head's raw scores, weights and context, and every logit, within 1e-5
    (absolute where a matrix stays within ±1, relative to its largest value beyond: the rule of
    core/attention/compare.h) of the float64 forward pass on the same weights (F16,
    BF16 and quantised weights: the values the file holds, dequantised here);
  - the same model in safetensors and in GGUF (llama.cpp's reordered Q and K rows) gives the
    same attention and logits.

usage: check_models.py ATTNVIZ_BIN CASE     (CASE: see CASES below)"""
import json
import os
import pathlib
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import model_files as mf  # noqa: E402
import model_reference as ref  # noqa: E402

TOLERANCE = 1e-5
WORST = [0.0]  # the largest difference seen, printed at the end
TEXT = 'the cat sat on the mat'

# --- tiny vocabularies ----------------------------------------------------------------------

BYTE_MERGES = ['Ġ t', 'h e', 'Ġt he', 'a t', 'Ġ c', 'Ġc at', 'Ġ s', 'Ġs at', 'Ġ m', 'Ġm at', 'o n', 'Ġ on',
               't he', 'Ġ h', 'Ġh at', "' s", 'Ġ 2', '2 0', 'y e', 'ye a', 'yea r', '3 4']
SP_MERGES = ['▁ t', 'h e', '▁t he', 'a t', '▁ c', '▁c at', '▁ s', '▁s at', '▁ m', '▁m at', 'o n', '▁ on']
SP_CHARS = list('▁thecasmonrdy!.,')


def byte_vocab():
    table = ref.bytes_to_unicode()
    tokens = [table[b] for b in range(256)]
    for merge in BYTE_MERGES:
        joined = merge.replace(' ', '')
        if joined not in tokens:
            tokens.append(joined)
    tokens.append('<|endoftext|>')
    return tokens


def sp_vocab():
    tokens = ['<unk>', '<s>', '</s>'] + [f'<0x{b:02X}>' for b in range(256)] + SP_CHARS
    for merge in SP_MERGES:
        tokens.append(merge.replace(' ', ''))
    return tokens


WORDPIECE = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]', 'the', 'cat', 'sat', 'on', 'mat', '##s', 'h', '##at', 'a',
             ',', '.', '!', "'", 's', 'caf', '##e', 'ha']


def write_json(path, value):
    pathlib.Path(path).write_text(json.dumps(value, ensure_ascii=False), encoding='utf-8')


def byte_level_tokenizer_json(tokens, merges, qwen2=False, llama3=False):
    """GPT-2's tokenizer.json; Qwen2's (NFC, its split pattern); Llama 3's (its split pattern, and
    the last token, <|begin_of_text|> there, put before every text by a TemplateProcessing)."""
    pre = {'type': 'ByteLevel', 'add_prefix_space': False, 'trim_offsets': True, 'use_regex': True}
    if qwen2 or llama3:
        pre = {'type': 'Sequence', 'pretokenizers': [
            {'type': 'Split', 'pattern': {'Regex': ref.LLAMA3_REGEX if llama3 else ref.QWEN2_REGEX}, 'behavior': 'Isolated',
             'invert': False},
            {'type': 'ByteLevel', 'add_prefix_space': False, 'trim_offsets': False, 'use_regex': False}]}
    end = len(tokens) - 1
    post = {'type': 'ByteLevel'}
    if llama3:
        post = {'type': 'Sequence', 'processors': [post, {'type': 'TemplateProcessing', 'single': [
            {'SpecialToken': {'id': tokens[end], 'type_id': 0}}, {'Sequence': {'id': 'A', 'type_id': 0}}]}]}
    return {'version': '1.0', 'added_tokens': [{'id': end, 'content': tokens[end], 'special': True}],
            'normalizer': {'type': 'NFC'} if qwen2 else None, 'pre_tokenizer': pre,
            'post_processor': post, 'decoder': {'type': 'ByteLevel'},
            'model': {'type': 'BPE', 'dropout': None, 'unk_token': None, 'byte_fallback': False,
                      'vocab': {t: i for i, t in enumerate(tokens[:end])}, 'merges': merges}}


def sp_tokenizer_json(tokens):
    return {'version': '1.0',
            'added_tokens': [{'id': i, 'content': tokens[i], 'special': True} for i in range(3)],
            'normalizer': {'type': 'Sequence', 'normalizers': [
                {'type': 'Prepend', 'prepend': '▁'}, {'type': 'Replace', 'pattern': {'String': ' '}, 'content': '▁'}]},
            'pre_tokenizer': None,
            'post_processor': {'type': 'TemplateProcessing', 'single': [
                {'SpecialToken': {'id': '<s>', 'type_id': 0}}, {'Sequence': {'id': 'A', 'type_id': 0}}],
                'pair': [], 'special_tokens': {'<s>': {'id': '<s>', 'ids': [1], 'tokens': ['<s>']}}},
            'model': {'type': 'BPE', 'unk_token': '<unk>', 'byte_fallback': True, 'fuse_unk': True,
                      'vocab': {t: i for i, t in enumerate(tokens)}, 'merges': SP_MERGES}}


def sp_gguf_metadata(tokens):
    merged = {m.replace(' ', ''): r for r, m in enumerate(SP_MERGES)}
    scores = [float(-merged[t]) if t in merged else -1000.0 for t in tokens]
    types = [2, 3, 3] + [6] * 256 + [1] * (len(tokens) - 259)
    return {'tokenizer.ggml.model': 'llama', 'tokenizer.ggml.tokens': tokens, 'tokenizer.ggml.scores': scores,
            'tokenizer.ggml.token_type': types, 'tokenizer.ggml.bos_token_id': 1, 'tokenizer.ggml.eos_token_id': 2,
            'tokenizer.ggml.unknown_token_id': 0, 'tokenizer.ggml.add_bos_token': True}


# --- tiny models ----------------------------------------------------------------------------

def normal(rng, *shape, scale=1.0):
    return rng.standard_normal(shape) * scale / np.sqrt(shape[-1])


def gpt2_weights(rng, cfg):
    d, ff, v = cfg['d'], cfg['ff'], cfg['vocab']
    w = {'wte': rng.standard_normal((v, d)), 'wpe': rng.standard_normal((cfg['positions'], d)) * 0.5,
         'lnf_w': 1 + 0.1 * rng.standard_normal(d), 'lnf_b': 0.1 * rng.standard_normal(d), 'layers': []}
    for _ in range(cfg['layers']):
        w['layers'].append({
            'ln1_w': 1 + 0.1 * rng.standard_normal(d), 'ln1_b': 0.1 * rng.standard_normal(d),
            'attn_w': normal(rng, 3 * d, d, scale=2.0).T.copy(), 'attn_b': 0.1 * rng.standard_normal(3 * d),
            'proj_w': normal(rng, d, d).T.copy(), 'proj_b': 0.1 * rng.standard_normal(d),
            'ln2_w': 1 + 0.1 * rng.standard_normal(d), 'ln2_b': 0.1 * rng.standard_normal(d),
            'fc_w': normal(rng, ff, d).T.copy(), 'fc_b': 0.1 * rng.standard_normal(ff),
            'mlp_proj_w': normal(rng, d, ff).T.copy(), 'mlp_proj_b': 0.1 * rng.standard_normal(d)})
    return w


def stored_all(weights, dtype):
    """The weights as a file of `dtype` holds them."""
    if isinstance(weights, dict):
        return {k: stored_all(v, dtype) for k, v in weights.items()}
    if isinstance(weights, list):
        return [stored_all(v, dtype) for v in weights]
    return mf.stored(weights, dtype)


def write_gpt2_folder(folder, w, cfg, shards=False, tokenizer_json=False):
    folder.mkdir(parents=True, exist_ok=True)
    write_json(folder / 'config.json', {
        'architectures': ['GPT2LMHeadModel'], 'model_type': 'gpt2', 'n_embd': cfg['d'], 'n_layer': cfg['layers'],
        'n_head': cfg['heads'], 'n_positions': cfg['positions'], 'n_inner': cfg['ff'], 'vocab_size': cfg['vocab'],
        'layer_norm_epsilon': cfg['eps'], 'activation_function': 'gelu_new'})
    names = {'wte.weight': w['wte'], 'wpe.weight': w['wpe'], 'ln_f.weight': w['lnf_w'], 'ln_f.bias': w['lnf_b']}
    for i, layer in enumerate(w['layers']):
        for key, name in [('ln1_w', 'ln_1.weight'), ('ln1_b', 'ln_1.bias'), ('attn_w', 'attn.c_attn.weight'),
                          ('attn_b', 'attn.c_attn.bias'), ('proj_w', 'attn.c_proj.weight'), ('proj_b', 'attn.c_proj.bias'),
                          ('ln2_w', 'ln_2.weight'), ('ln2_b', 'ln_2.bias'), ('fc_w', 'mlp.c_fc.weight'),
                          ('fc_b', 'mlp.c_fc.bias'), ('mlp_proj_w', 'mlp.c_proj.weight'), ('mlp_proj_b', 'mlp.c_proj.bias')]:
            names[f'h.{i}.{name}'] = layer[key]
    tensors = {k: (v, 'F32') for k, v in names.items()}
    if shards:
        keys = list(tensors)
        parts = {'model-00001-of-00002.safetensors': keys[:len(keys) // 2], 'model-00002-of-00002.safetensors': keys[len(keys) // 2:]}
        for file, part in parts.items():
            mf.write_safetensors(folder / file, {k: tensors[k] for k in part})
        write_json(folder / 'model.safetensors.index.json',
                   {'metadata': {}, 'weight_map': {k: f for f, part in parts.items() for k in part}})
    else:
        mf.write_safetensors(folder / 'model.safetensors', tensors)
    tokens = byte_vocab()
    if tokenizer_json:
        write_json(folder / 'tokenizer.json', byte_level_tokenizer_json(tokens, BYTE_MERGES))
    else:
        write_json(folder / 'vocab.json', {t: i for i, t in enumerate(tokens)})
        (folder / 'merges.txt').write_text('#version: 0.2\n' + '\n'.join(BYTE_MERGES) + '\n', encoding='utf-8')


def write_gpt2_gguf(path, w, cfg):
    tokens = byte_vocab()
    meta = {'general.architecture': 'gpt2', 'gpt2.context_length': cfg['positions'], 'gpt2.embedding_length': cfg['d'],
            'gpt2.feed_forward_length': cfg['ff'], 'gpt2.block_count': cfg['layers'],
            'gpt2.attention.head_count': cfg['heads'], 'gpt2.attention.layer_norm_epsilon': cfg['eps'],
            'tokenizer.ggml.model': 'gpt2', 'tokenizer.ggml.pre': 'gpt-2', 'tokenizer.ggml.tokens': tokens,
            'tokenizer.ggml.token_type': [1] * (len(tokens) - 1) + [3], 'tokenizer.ggml.merges': BYTE_MERGES,
            'tokenizer.ggml.bos_token_id': len(tokens) - 1, 'tokenizer.ggml.eos_token_id': len(tokens) - 1}
    t = {'token_embd.weight': w['wte'], 'position_embd.weight': w['wpe'], 'output_norm.weight': w['lnf_w'],
         'output_norm.bias': w['lnf_b'], 'output.weight': w['wte']}
    for i, layer in enumerate(w['layers']):
        # llama.cpp's converter stores GPT-2's Conv1D weights transposed, as linear layers.
        t.update({f'blk.{i}.attn_norm.weight': layer['ln1_w'], f'blk.{i}.attn_norm.bias': layer['ln1_b'],
                  f'blk.{i}.attn_qkv.weight': layer['attn_w'].T, f'blk.{i}.attn_qkv.bias': layer['attn_b'],
                  f'blk.{i}.attn_output.weight': layer['proj_w'].T, f'blk.{i}.attn_output.bias': layer['proj_b'],
                  f'blk.{i}.ffn_norm.weight': layer['ln2_w'], f'blk.{i}.ffn_norm.bias': layer['ln2_b'],
                  f'blk.{i}.ffn_up.weight': layer['fc_w'].T, f'blk.{i}.ffn_up.bias': layer['fc_b'],
                  f'blk.{i}.ffn_down.weight': layer['mlp_proj_w'].T, f'blk.{i}.ffn_down.bias': layer['mlp_proj_b']})
    mf.write_gguf(path, meta, {k: mf.float_tensor(v, 'F32')[0] for k, v in t.items()})


def llama_weights(rng, cfg, biases=False):
    d, ff, v, dk = cfg['d'], cfg['ff'], cfg['vocab'], cfg['d'] // cfg['heads']
    w = {'embed': rng.standard_normal((v, d)), 'norm': 1 + 0.1 * rng.standard_normal(d),
         'lm_head': normal(rng, v, d, scale=3.0), 'layers': []}
    for _ in range(cfg['layers']):
        layer = {'in_norm': 1 + 0.1 * rng.standard_normal(d), 'post_norm': 1 + 0.1 * rng.standard_normal(d),
                 'q': normal(rng, cfg['heads'] * dk, d, scale=2.0), 'k': normal(rng, cfg['kv_heads'] * dk, d, scale=2.0),
                 'v': normal(rng, cfg['kv_heads'] * dk, d), 'o': normal(rng, d, cfg['heads'] * dk),
                 'gate': normal(rng, ff, d), 'up': normal(rng, ff, d), 'down': normal(rng, d, ff)}
        if biases:
            layer.update({'q_b': 0.3 * rng.standard_normal(cfg['heads'] * dk),
                          'k_b': 0.3 * rng.standard_normal(cfg['kv_heads'] * dk),
                          'v_b': 0.3 * rng.standard_normal(cfg['kv_heads'] * dk)})
        w['layers'].append(layer)
    return w


def llama_tensor_names(w, tied=False):
    names = {'model.embed_tokens.weight': w['embed'], 'model.norm.weight': w['norm']}
    if not tied:
        names['lm_head.weight'] = w['lm_head']
    for i, layer in enumerate(w['layers']):
        p = f'model.layers.{i}.'
        names.update({p + 'input_layernorm.weight': layer['in_norm'], p + 'post_attention_layernorm.weight': layer['post_norm'],
                      p + 'self_attn.q_proj.weight': layer['q'], p + 'self_attn.k_proj.weight': layer['k'],
                      p + 'self_attn.v_proj.weight': layer['v'], p + 'self_attn.o_proj.weight': layer['o'],
                      p + 'mlp.gate_proj.weight': layer['gate'], p + 'mlp.up_proj.weight': layer['up'],
                      p + 'mlp.down_proj.weight': layer['down']})
        for b in ('q', 'k', 'v'):
            if b + '_b' in layer:
                names[p + f'self_attn.{b}_proj.bias'] = layer[b + '_b']
    return names


def write_llama_folder(folder, w, cfg, architecture='LlamaForCausalLM', dtype='F32', tokenizer=None, extra=None, tied=False):
    folder.mkdir(parents=True, exist_ok=True)
    config = {'architectures': [architecture], 'hidden_size': cfg['d'], 'intermediate_size': cfg['ff'],
              'num_attention_heads': cfg['heads'], 'num_key_value_heads': cfg['kv_heads'], 'num_hidden_layers': cfg['layers'],
              'rms_norm_eps': cfg['eps'], 'rope_theta': cfg['theta'], 'vocab_size': cfg['vocab'],
              'max_position_embeddings': 64, 'tie_word_embeddings': tied, 'hidden_act': 'silu'}
    config.update(extra or {})
    write_json(folder / 'config.json', config)
    mf.write_safetensors(folder / 'model.safetensors', {k: (v, dtype) for k, v in llama_tensor_names(w, tied).items()})
    write_json(folder / 'tokenizer.json', tokenizer or sp_tokenizer_json(sp_vocab()))


def permute_for_gguf(w, heads):
    """llama.cpp's converter (convert_hf_to_gguf.py, LlamaModel.permute): each head's rows
    reordered for its RoPE, which turns adjacent pairs."""
    return w.reshape(heads, 2, w.shape[0] // heads // 2, *w.shape[1:]).swapaxes(1, 2).reshape(w.shape)


def unpermute(w, heads):
    return w.reshape(heads, w.shape[0] // heads // 2, 2, *w.shape[1:]).swapaxes(1, 2).reshape(w.shape)


def llama_gguf_metadata(cfg, tokens):
    meta = {'general.architecture': 'llama', 'llama.context_length': 64, 'llama.embedding_length': cfg['d'],
            'llama.block_count': cfg['layers'], 'llama.feed_forward_length': cfg['ff'],
            'llama.rope.dimension_count': cfg['d'] // cfg['heads'], 'llama.attention.head_count': cfg['heads'],
            'llama.attention.head_count_kv': cfg['kv_heads'], 'llama.attention.layer_norm_rms_epsilon': cfg['eps'],
            'llama.rope.freq_base': cfg['theta']}
    meta.update(sp_gguf_metadata(tokens))
    return meta


def write_llama_gguf(path, w, cfg):
    t = {'token_embd.weight': w['embed'], 'output_norm.weight': w['norm'], 'output.weight': w['lm_head']}
    for i, layer in enumerate(w['layers']):
        t.update({f'blk.{i}.attn_norm.weight': layer['in_norm'], f'blk.{i}.ffn_norm.weight': layer['post_norm'],
                  f'blk.{i}.attn_q.weight': permute_for_gguf(layer['q'], cfg['heads']),
                  f'blk.{i}.attn_k.weight': permute_for_gguf(layer['k'], cfg['kv_heads']),
                  f'blk.{i}.attn_v.weight': layer['v'], f'blk.{i}.attn_output.weight': layer['o'],
                  f'blk.{i}.ffn_gate.weight': layer['gate'], f'blk.{i}.ffn_up.weight': layer['up'],
                  f'blk.{i}.ffn_down.weight': layer['down']})
    mf.write_gguf(path, llama_gguf_metadata(cfg, sp_vocab()), {k: mf.float_tensor(v, 'F32')[0] for k, v in t.items()})


QUANT_TYPES = {'attn_q': 'Q4_K', 'attn_k': 'Q6_K', 'attn_v': 'Q8_0', 'attn_output': 'Q4_0', 'ffn_gate': 'Q4_K',
               'ffn_up': 'Q6_K', 'ffn_down': 'Q8_0'}


def write_quantised_llama_gguf(path, rng, cfg, poison=None, embed_kind='F16'):
    """Every quantised type attnviz reads, in one file, with the weights they hold back in
    Hugging Face's layout (Q and K rows un-reordered) for the reference."""
    d, ff, dk, v = cfg['d'], cfg['ff'], cfg['d'] // cfg['heads'], cfg['vocab']
    tensors, w = {}, {'layers': []}
    if embed_kind == 'F16':
        tensors['token_embd.weight'], w['embed'] = mf.float_tensor(rng.standard_normal((v, d)), 'F16')
    else:
        tensors['token_embd.weight'], w['embed'] = mf.quantised_tensor(rng, (v, d), embed_kind)
    tensors['output_norm.weight'], w['norm'] = mf.float_tensor(1 + 0.1 * rng.standard_normal(d), 'F32')
    tensors['output.weight'], w['lm_head'] = mf.float_tensor(normal(rng, v, d, scale=3.0), 'BF16')
    shapes = {'attn_q': (cfg['heads'] * dk, d), 'attn_k': (cfg['kv_heads'] * dk, d), 'attn_v': (cfg['kv_heads'] * dk, d),
              'attn_output': (d, cfg['heads'] * dk), 'ffn_gate': (ff, d), 'ffn_up': (ff, d), 'ffn_down': (d, ff)}
    keys = {'attn_q': 'q', 'attn_k': 'k', 'attn_v': 'v', 'attn_output': 'o', 'ffn_gate': 'gate', 'ffn_up': 'up', 'ffn_down': 'down'}
    for i in range(cfg['layers']):
        layer = {}
        tensors[f'blk.{i}.attn_norm.weight'], layer['in_norm'] = mf.float_tensor(1 + 0.1 * rng.standard_normal(d), 'F32')
        tensors[f'blk.{i}.ffn_norm.weight'], layer['post_norm'] = mf.float_tensor(1 + 0.1 * rng.standard_normal(d), 'F32')
        for name, kind in QUANT_TYPES.items():
            tensors[f'blk.{i}.{name}.weight'], values = mf.quantised_tensor(rng, shapes[name], kind)
            if poison == f'blk.{i}.{name}.weight':  # a NaN scale in the first block: a damaged file
                shape, kind_name, data = tensors[poison]
                tensors[poison] = (shape, kind_name, b'\x00\x7e' + data[2:])
            if name == 'attn_q':
                values = unpermute(values, cfg['heads'])
            elif name == 'attn_k':
                values = unpermute(values, cfg['kv_heads'])
            layer[keys[name]] = values
        w['layers'].append(layer)
    mf.write_gguf(path, llama_gguf_metadata(cfg, sp_vocab()), tensors)
    return w


def bert_weights(rng, cfg):
    d, ff, v = cfg['d'], cfg['ff'], cfg['vocab']
    vec = lambda n, s=0.1: s * rng.standard_normal(n)  # noqa: E731
    w = {'word': rng.standard_normal((v, d)), 'pos': 0.5 * rng.standard_normal((cfg['positions'], d)),
         'type': 0.5 * rng.standard_normal((2, d)), 'emb_ln_w': 1 + vec(d), 'emb_ln_b': vec(d),
         't': normal(rng, d, d), 't_b': vec(d), 't_ln_w': 1 + vec(d), 't_ln_b': vec(d), 'mlm_b': vec(v), 'layers': []}
    for _ in range(cfg['layers']):
        w['layers'].append({'q': normal(rng, d, d, scale=2.0), 'q_b': vec(d), 'k': normal(rng, d, d, scale=2.0), 'k_b': vec(d),
                            'v': normal(rng, d, d), 'v_b': vec(d), 'o': normal(rng, d, d), 'o_b': vec(d),
                            'ln1_w': 1 + vec(d), 'ln1_b': vec(d), 'i': normal(rng, ff, d), 'i_b': vec(ff),
                            'out': normal(rng, d, ff), 'out_b': vec(d), 'ln2_w': 1 + vec(d), 'ln2_b': vec(d)})
    return w


def write_bert_folder(folder, w, cfg):
    folder.mkdir(parents=True, exist_ok=True)
    write_json(folder / 'config.json', {
        'architectures': ['BertForMaskedLM'], 'model_type': 'bert', 'hidden_size': cfg['d'], 'num_hidden_layers': cfg['layers'],
        'num_attention_heads': cfg['heads'], 'intermediate_size': cfg['ff'], 'max_position_embeddings': cfg['positions'],
        'type_vocab_size': 2, 'vocab_size': cfg['vocab'], 'layer_norm_eps': cfg['eps'], 'hidden_act': 'gelu'})
    # The embeddings' LayerNorm under the oldest checkpoints' names (gamma, beta).
    names = {'bert.embeddings.word_embeddings.weight': w['word'], 'bert.embeddings.position_embeddings.weight': w['pos'],
             'bert.embeddings.token_type_embeddings.weight': w['type'], 'bert.embeddings.LayerNorm.gamma': w['emb_ln_w'],
             'bert.embeddings.LayerNorm.beta': w['emb_ln_b'], 'cls.predictions.transform.dense.weight': w['t'],
             'cls.predictions.transform.dense.bias': w['t_b'], 'cls.predictions.transform.LayerNorm.weight': w['t_ln_w'],
             'cls.predictions.transform.LayerNorm.bias': w['t_ln_b'], 'cls.predictions.bias': w['mlm_b']}
    for i, layer in enumerate(w['layers']):
        p = f'bert.encoder.layer.{i}.'
        for key, name in [('q', 'attention.self.query'), ('k', 'attention.self.key'), ('v', 'attention.self.value'),
                          ('o', 'attention.output.dense'), ('i', 'intermediate.dense'), ('out', 'output.dense')]:
            names[p + name + '.weight'], names[p + name + '.bias'] = layer[key], layer[key + '_b']
        for key, name in [('ln1', 'attention.output.LayerNorm'), ('ln2', 'output.LayerNorm')]:
            names[p + name + '.weight'], names[p + name + '.bias'] = layer[key + '_w'], layer[key + '_b']
    mf.write_safetensors(folder / 'model.safetensors', {k: (v, 'F32') for k, v in names.items()})
    (folder / 'vocab.txt').write_text('\n'.join(WORDPIECE) + '\n', encoding='utf-8')
    write_json(folder / 'tokenizer_config.json', {'do_lower_case': True})


# --- running attnviz and comparing ----------------------------------------------------------

class Failure(Exception):
    pass


def run(binary, *args, env=None):
    done = subprocess.run([binary, *args], capture_output=True, text=True, env=env)
    if done.returncode != 0:
        raise Failure(f'attnviz {" ".join(args[:3])}... exited {done.returncode}: {done.stderr.strip()}')
    if 'Vulkan validation' in done.stderr:
        raise Failure(f'the Vulkan validation layer spoke: {done.stderr.strip()}')
    return done.stdout, done.stderr


def compute(binary, model, text, *extra):
    return json.loads(run(binary, 'compute', '--model', str(model), '--text', text, '--top', '1000', *extra)[0])


def close(name, got, want):
    """Within 1e-5, absolute where the matrix's values stay within ±1 (weights, probabilities),
    relative to its largest value beyond (raw scores, contexts, logits grow with the model and so
    does float32 rounding): attnviz's own agreement rule (core/attention/compare.h)."""
    got, want = np.asarray(got, dtype=np.float64), np.asarray(want, dtype=np.float64)
    if got.shape != want.shape:
        raise Failure(f'{name}: shape {got.shape}, expected {want.shape}')
    if got.size == 0:
        return
    finite = want[np.isfinite(want)]
    scale = max(1.0, float(np.abs(finite).max())) if finite.size else 1.0
    error = np.where(np.isnan(got) != np.isnan(want), np.inf, np.abs(got - want) / scale)
    worst = np.unravel_index(np.argmax(error), error.shape)
    WORST[0] = max(WORST[0], float(error[worst]))
    if error[worst] > TOLERANCE:
        raise Failure(f'{name}: {got[worst]} at {worst}, expected {want[worst]} (difference {error[worst]:.2e} of the scale {scale:.3g})')


def check_result(name, result, layers, logits, ids, query_logits=None):
    if result['ids'] != ids:
        raise Failure(f'{name}: ids {result["ids"]}, expected {ids}')
    for layer in result['layers']:
        for h, head in enumerate(layer['heads']):
            expected = layers[layer['layer']][h]
            for key in ('scores', 'weights', 'context'):
                close(f'{name} layer {layer["layer"]} head {h} {key}', head[key], expected[key])
    if len(result['layers']) != len(layers):
        raise Failure(f'{name}: {len(result["layers"])} layers written, expected {len(layers)}')
    check_logits(name + ' next tokens', result['next_tokens'], logits[-1])
    if query_logits is not None:
        check_logits(name + ' query tokens', result['query_tokens'], query_logits)


def check_logits(name, tokens, want):
    got = np.full(len(want), np.nan)
    for t in tokens:
        got[t['id']] = t['logit']
    close(name + ' logits', got, want)
    p = np.exp(want - want.max())
    p /= p.sum()
    close(name + ' probabilities', [t['p'] for t in tokens], [p[t['id']] for t in tokens])
    if [t['id'] for t in tokens[:3]] != list(np.argsort(-want, kind='stable')[:3]):
        raise Failure(f'{name}: not in order of probability')


def agree(name, a, b):
    """Two attnviz results of the same model in two formats."""
    for la, lb in zip(a['layers'], b['layers']):
        for h, (ha, hb) in enumerate(zip(la['heads'], lb['heads'])):
            for key in ('scores', 'weights', 'context'):
                close(f'{name} layer {la["layer"]} head {h} {key}', ha[key], hb[key])
    close(name + ' logits', [t['logit'] for t in a['next_tokens']], [t['logit'] for t in b['next_tokens']])


GPT2 = {'d': 16, 'heads': 4, 'layers': 2, 'ff': 48, 'positions': 32, 'eps': 1e-5, 'vocab': len(byte_vocab())}
LLAMA = {'d': 32, 'heads': 4, 'kv_heads': 2, 'layers': 2, 'ff': 48, 'eps': 1e-5, 'theta': 10000.0, 'vocab': len(sp_vocab())}
BERT = {'d': 16, 'heads': 4, 'layers': 2, 'ff': 32, 'positions': 32, 'eps': 1e-12, 'vocab': len(WORDPIECE)}


def case_gpt2(binary, tmp, rng):
    w = gpt2_weights(rng, GPT2)
    write_gpt2_folder(tmp / 'gpt2', w, GPT2)
    write_gpt2_gguf(tmp / 'gpt2.gguf', w, GPT2)
    tokens = byte_vocab()
    vocab = {t: i for i, t in enumerate(tokens)}
    for text in [TEXT, "The cat's hat, 2024!"]:
        ids = ref.byte_level_encode(text, vocab, BYTE_MERGES)
        layers, logits = ref.gpt2_forward(stored_all(w, 'F32'), GPT2, ids)
        st = compute(binary, tmp / 'gpt2', text)
        gguf = compute(binary, tmp / 'gpt2.gguf', text)
        check_result(f'GPT-2 safetensors "{text}"', st, layers, logits, ids)
        check_result(f'GPT-2 GGUF "{text}"', gguf, layers, logits, ids)
        agree('GPT-2 safetensors and GGUF', st, gguf)
    # A hand-checked encoding anchors the reference tokenizer itself.
    if ref.byte_level_encode('the cat', vocab, BYTE_MERGES) != [vocab['the'], vocab['Ġcat']]:
        raise Failure('the reference byte-level BPE does not give [the, Ġcat] for "the cat"')


def case_gpt2_files(binary, tmp, rng):
    """The same GPT-2 with its tokenizer as tokenizer.json, and its weights in two shards."""
    w = gpt2_weights(rng, GPT2)
    write_gpt2_folder(tmp / 'gpt2-tokenizer-json', w, GPT2, tokenizer_json=True)
    write_gpt2_folder(tmp / 'gpt2-sharded', w, GPT2, shards=True)
    vocab = {t: i for i, t in enumerate(byte_vocab())}
    text = "The cat's hat, 2024!"
    ids = ref.byte_level_encode(text, vocab, BYTE_MERGES)
    layers, logits = ref.gpt2_forward(stored_all(w, 'F32'), GPT2, ids)
    for model in ('gpt2-tokenizer-json', 'gpt2-sharded'):
        check_result(f'{model} "{text}"', compute(binary, tmp / model, text), layers, logits, ids)


def case_llama(binary, tmp, rng):
    w = llama_weights(rng, LLAMA)
    write_llama_folder(tmp / 'llama', w, LLAMA)
    write_llama_gguf(tmp / 'llama.gguf', w, LLAMA)
    tokens = sp_vocab()
    vocab = {t: i for i, t in enumerate(tokens)}
    for text in [TEXT, 'the mat! 한 cat']:
        ids = ref.sentencepiece_encode(text, vocab, SP_MERGES, bos=1)
        layers, logits = ref.llama_forward(stored_all(w, 'F32'), LLAMA, ids)
        st = compute(binary, tmp / 'llama', text)
        gguf = compute(binary, tmp / 'llama.gguf', text)
        check_result(f'llama safetensors "{text}"', st, layers, logits, ids)
        check_result(f'llama GGUF "{text}"', gguf, layers, logits, ids)
        agree('Llama safetensors and GGUF (Q and K reordered by llama.cpp)', st, gguf)
    if ref.sentencepiece_encode('the cat', vocab, SP_MERGES, 1) != [1, vocab['▁the'], vocab['▁cat']]:
        raise Failure('the reference SentencePiece BPE does not give [<s>, ▁the, ▁cat] for "the cat"')


def case_head_scale(binary, tmp, rng):
    w = llama_weights(rng, LLAMA)
    write_llama_folder(tmp / 'llama', w, LLAMA)
    vocab = {t: i for i, t in enumerate(sp_vocab())}
    ids = ref.sentencepiece_encode(TEXT, vocab, SP_MERGES, bos=1)
    factors = {0: {1: 0.0}, 1: {3: 0.5}}
    layers, logits = ref.llama_forward(stored_all(w, 'F32'), LLAMA, ids, factors)
    result = compute(binary, tmp / 'llama', TEXT, '--head-scale', '0:1,1:3=0.5', '--layers', '1')
    for layer in result['layers']:
        for h, head in enumerate(layer['heads']):
            for key in ('scores', 'weights', 'context'):
                close(f'edited layer {layer["layer"]} head {h} {key}', head[key], layers[layer['layer']][h][key])
    check_logits('edited llama', result['next_tokens'], logits[-1])
    plain = ref.llama_forward(stored_all(w, 'F32'), LLAMA, ids)[1]
    if np.allclose(plain[-1], logits[-1], atol=1e-3):
        raise Failure('switching heads off changed nothing in the reference: the case tests nothing')


def case_mistral(binary, tmp, rng):
    cfg = dict(LLAMA, window=3)
    w = llama_weights(rng, cfg)
    write_llama_folder(tmp / 'mistral', w, cfg, 'MistralForCausalLM', dtype='F16', extra={'sliding_window': 3})
    vocab = {t: i for i, t in enumerate(sp_vocab())}
    ids = ref.sentencepiece_encode(TEXT, vocab, SP_MERGES, bos=1)
    layers, logits = ref.llama_forward(stored_all(w, 'F16'), cfg, ids)
    result = compute(binary, tmp / 'mistral', TEXT)
    check_result('mistral (F16, sliding window 3)', result, layers, logits, ids)
    if result['mask'][5][:3] != [0, 0, 0] or result['mask'][5][3:6] != [1, 1, 1]:
        raise Failure(f'mistral: row 5 of the mask is {result["mask"][5]}: a window of 3 keys sees 3, 4, 5')


def case_qwen2(binary, tmp, rng):
    w = llama_weights(rng, dict(LLAMA, vocab=len(byte_vocab())), biases=True)
    cfg = dict(LLAMA, vocab=len(byte_vocab()))
    tokenizer = byte_level_tokenizer_json(byte_vocab(), BYTE_MERGES, qwen2=True)
    write_llama_folder(tmp / 'qwen2', w, cfg, 'Qwen2ForCausalLM', dtype='BF16', tokenizer=tokenizer, tied=True)
    vocab = {t: i for i, t in enumerate(byte_vocab())}
    text = "the year 2024 the Cat'S hat"
    ids = ref.byte_level_encode(text, vocab, BYTE_MERGES, ref.QWEN2_ASCII)
    weights = stored_all(w, 'BF16')
    weights['lm_head'] = weights['embed']
    layers, logits = ref.llama_forward(weights, cfg, ids)
    check_result('qwen2 (BF16, q/k/v biases, tied output)', compute(binary, tmp / 'qwen2', text), layers, logits, ids)
    digits = json.loads(run(binary, 'tokenize', '--model', str(tmp / 'qwen2'), '--text', '2024')[0])['tokens']
    if digits != ['2', '0', '2', '4']:
        raise Failure(f'qwen2 splits 2024 into {digits}, expected one digit per token')


def case_llama3(binary, tmp, rng):
    """Llama 3's RoPE scaling (rope_type llama3, with an original context short enough that each
    of its three bands holds a frequency), its byte-level tokenizer with <|begin_of_text|>, and
    an output tied to the embeddings."""
    scaling = {'rope_type': 'llama3', 'factor': 8.0, 'low_freq_factor': 1.0, 'high_freq_factor': 4.0,
               'original_max_position_embeddings': 16}
    cfg = dict(LLAMA, vocab=len(byte_vocab()), theta=10.0, rope_scaling=scaling)
    w = llama_weights(rng, cfg)
    tokenizer = byte_level_tokenizer_json(byte_vocab(), BYTE_MERGES, llama3=True)
    write_llama_folder(tmp / 'llama3', w, cfg, tokenizer=tokenizer, tied=True, extra={'rope_scaling': scaling})
    vocab = {t: i for i, t in enumerate(byte_vocab())}
    text = "the year 12345 (the CAT'S hat) sat"
    ids = [len(byte_vocab()) - 1] + ref.byte_level_encode(text, vocab, BYTE_MERGES, ref.LLAMA3_ASCII)
    weights = stored_all(w, 'F32')
    weights['lm_head'] = weights['embed']
    layers, logits = ref.llama_forward(weights, cfg, ids)
    check_result('llama 3 (RoPE scaling llama3, byte-level tokenizer, tied output)', compute(binary, tmp / 'llama3', text),
                 layers, logits, ids)
    # Digits in groups of three: the merge "3 4" cannot join the 3 of "123" to the 4 after it.
    digits = json.loads(run(binary, 'tokenize', '--model', str(tmp / 'llama3'), '--text', '1234')[0])['tokens']
    if digits != ['<|endoftext|>', '1', '2', '3', '4']:
        raise Failure(f'llama 3 tokenizes 1234 as {digits}, expected the first token then 1, 2, 3, 4 (groups 123 and 4)')


def case_bert(binary, tmp, rng):
    w = bert_weights(rng, BERT)
    write_bert_folder(tmp / 'bert', w, BERT)
    vocab = {t: i for i, t in enumerate(WORDPIECE)}
    text = 'The cats sat on the [MASK]. [SEP] Ha, the mat!'
    ids = ref.wordpiece_encode(text, vocab)
    sep = ids.index(vocab['[SEP]'])
    types = [0] * (sep + 1) + [1] * (len(ids) - sep - 1)
    layers, logits = ref.bert_forward(stored_all(w, 'F32'), BERT, ids, types)
    result = compute(binary, tmp / 'bert', text)
    check_result('bert', result, layers, logits, ids, query_logits=logits[ids.index(vocab['[MASK]'])])
    if result['query_position'] != ids.index(vocab['[MASK]']):
        raise Failure('bert: the pinned query is not the [MASK] token')
    expected = ['[CLS]', 'the', 'cat', '##s', 'sat', 'on', 'the', '[MASK]', '.', '[SEP]', 'ha', ',', 'the', 'mat', '!', '[SEP]']
    tokens = json.loads(run(binary, 'tokenize', '--model', str(tmp / 'bert'), '--text', text)[0])['tokens']
    if tokens != expected:
        raise Failure(f'bert tokens {tokens}, expected {expected}')


def case_quantised(binary, tmp, rng):
    cfg = dict(LLAMA, d=256, heads=4, kv_heads=2, ff=256)
    w = write_quantised_llama_gguf(tmp / 'quantised.gguf', rng, cfg)
    vocab = {t: i for i, t in enumerate(sp_vocab())}
    ids = ref.sentencepiece_encode(TEXT, vocab, SP_MERGES, bos=1)
    layers, logits = ref.llama_forward(w, cfg, ids)
    check_result('llama GGUF with Q4_K, Q6_K, Q8_0, Q4_0, F16, BF16 and F32 tensors',
                 compute(binary, tmp / 'quantised.gguf', TEXT), layers, logits, ids)
    write_quantised_llama_gguf(tmp / 'damaged.gguf', rng, cfg, poison='blk.1.attn_v.weight')
    done = subprocess.run([binary, 'compute', '--model', str(tmp / 'damaged.gguf'), '--text', TEXT], capture_output=True, text=True)
    if done.returncode != 2 or 'blk.1.attn_v.weight' not in done.stderr or 'not a finite number' not in done.stderr:
        raise Failure(f'a NaN in a Q8_0 block: exit {done.returncode}, {done.stderr.strip()!r}; expected exit 2 naming the tensor')


def case_rollout(binary, tmp, rng):
    w = gpt2_weights(rng, GPT2)
    write_gpt2_folder(tmp / 'gpt2', w, GPT2)
    vocab = {t: i for i, t in enumerate(byte_vocab())}
    ids = ref.byte_level_encode(TEXT, vocab, BYTE_MERGES)
    layers = ref.gpt2_forward(stored_all(w, 'F32'), GPT2, ids)[0]
    for last in (0, 1):
        out = tmp / f'rollout{last}.npy'
        run(binary, 'export', '--model', str(tmp / 'gpt2'), '--text', TEXT, '--layer', str(last), '--what', 'rollout',
            '--out', str(out))
        close(f'rollout through layer {last}', np.load(out), ref.rollout(layers, last))


def case_vulkan(binary, tmp, rng):
    w = llama_weights(rng, LLAMA)
    write_llama_folder(tmp / 'llama', w, LLAMA)
    vocab = {t: i for i, t in enumerate(sp_vocab())}
    ids = ref.sentencepiece_encode(TEXT, vocab, SP_MERGES, bos=1)
    layers, logits = ref.llama_forward(stored_all(w, 'F32'), LLAMA, ids)
    validated = dict(os.environ, ATTNVIZ_VALIDATION='1')
    out, err = run(binary, 'compute', '--model', str(tmp / 'llama'), '--text', TEXT, '--top', '1000', '--backend', 'both',
                   env=validated)
    result = json.loads(out)
    if result['backend'] != 'vulkan':
        raise Failure('--backend both did not write the Vulkan result')
    check_result('llama on Vulkan', result, layers, logits, ids)
    if 'every layer agrees' not in err:
        raise Failure(f'--backend both did not report every layer agreeing: {err}')


CASES = {'gpt2': case_gpt2, 'gpt2-files': case_gpt2_files, 'llama': case_llama, 'head-scale': case_head_scale, 'mistral': case_mistral,
         'qwen2': case_qwen2, 'llama3': case_llama3, 'bert': case_bert, 'quantised': case_quantised, 'rollout': case_rollout,
         'vulkan': case_vulkan}


def main():
    if len(sys.argv) != 3 or sys.argv[2] not in CASES:
        sys.exit(__doc__ + '\nCASE: ' + ', '.join(CASES))
    binary, case = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory(prefix='attnviz-models-') as folder:
        try:
            CASES[case](binary, pathlib.Path(folder), np.random.default_rng(15))
        except Failure as failure:
            sys.exit(f'FAILED ({case}): {failure}')
    print(f'{case}: attnviz agrees with the float64 reference (largest difference {WORST[0]:.1e})')


if __name__ == '__main__':
    main()
