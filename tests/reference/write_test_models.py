#!/usr/bin/env python3
"""Writes the tiny random models the C++ tests of tests/model open (a CTest fixture, into the
build tree; never committed): gpt2/ (safetensors folder), gpt2.gguf, llama/ and llama.gguf (the
same weights in both formats), mistral/ (a sliding window of 3), bert/; llama-f16/ (the llama's weights as F16) and
llama-q8.gguf (quantised, its token_embd Q8_0), for the tests that damage stored values.

usage: write_test_models.py OUTDIR"""
import pathlib
import shutil
import sys

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import check_models as cm  # noqa: E402


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = pathlib.Path(sys.argv[1])
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    rng = np.random.default_rng(7)
    gpt2 = cm.gpt2_weights(rng, cm.GPT2)
    cm.write_gpt2_folder(out / 'gpt2', gpt2, cm.GPT2)
    cm.write_gpt2_gguf(out / 'gpt2.gguf', gpt2, cm.GPT2)
    llama = cm.llama_weights(rng, cm.LLAMA)
    cm.write_llama_folder(out / 'llama', llama, cm.LLAMA)
    cm.write_llama_gguf(out / 'llama.gguf', llama, cm.LLAMA)
    cm.write_llama_folder(out / 'llama-f16', llama, cm.LLAMA, dtype='F16')
    cm.write_bert_folder(out / 'bert', cm.bert_weights(rng, cm.BERT), cm.BERT)
    mistral = cm.llama_weights(rng, cm.LLAMA)
    cm.write_llama_folder(out / 'mistral', mistral, cm.LLAMA, 'MistralForCausalLM', extra={'sliding_window': 3})
    quantised = dict(cm.LLAMA, d=256, ff=256)  # the K-quants' blocks are 256 wide
    cm.write_quantised_llama_gguf(out / 'llama-q8.gguf', np.random.default_rng(8), quantised, embed_kind='Q8_0')


if __name__ == '__main__':
    main()
