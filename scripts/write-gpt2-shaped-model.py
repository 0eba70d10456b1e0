#!/usr/bin/env python3
"""Writes a small random model of GPT-2 small's shape (12 layers x 12 heads, GPT2LMHeadModel,
safetensors, byte-level BPE) for the README's Model view screenshot: the shape of the real
thing, with d_model 96 instead of 768 so that it is written and opened in a moment. Random
weights: the picture shows how the window lays a GPT-2 out, not what GPT-2 learned. The writers
are the float64 reference's own (tests/reference/check_models.py). POSITIONS (default 64; GPT-2
has 1024) sets the longest text it reads, for the memory measurement of a long text
(scripts/measure-model-memory.sh).

usage: write-gpt2-shaped-model.py OUTDIR [POSITIONS]"""
import pathlib
import sys

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / 'tests' / 'reference'))
import check_models as cm  # noqa: E402

SHAPE = {'d': 96, 'heads': 12, 'layers': 12, 'ff': 384, 'positions': 64, 'eps': 1e-5, 'vocab': len(cm.byte_vocab())}


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    out = pathlib.Path(sys.argv[1])
    shape = dict(SHAPE, positions=int(sys.argv[2])) if len(sys.argv) == 3 else SHAPE
    cm.write_gpt2_folder(out, cm.gpt2_weights(np.random.default_rng(2024), shape), shape)


if __name__ == '__main__':
    main()
