#!/usr/bin/env python3
"""attnviz heads, lens, attribute and patch against the float64 reference of heads_reference.py.

Each case writes tiny random models (check_models.py's writers) into a temporary folder, runs
the attnviz binary on them as a user would, and checks within 1e-4 (absolute where values stay
within ±1, relative to the largest beyond):
  gpt2, llama  every head's scores (on a text and on the --repeat probe), the logit lens, the
               attribution (default and chosen target and position; its parts summing to the
               logit), the patching of every head (at every position, and at one: --patch-positions);
               the Llama model has grouped-query heads and RoPE; each figure as SVG and PNG, and
               with --lang ko in Korean;
  previous-token  a hand-built GPT-2 whose layer-0 head attends to the previous token scores ≈ 1;
  errors       each command's --help; bad input exits 2 naming the option (texts of different lengths, a target outside
               the vocabulary, a position beyond the text, a patched position beyond it or after the
               target's, BERT's lens and attribution, --repeat past the positions, a --lang
               other than en and ko).

usage: check_heads.py ATTNVIZ_BIN CASE"""
import json
import pathlib
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import check_models as cm  # noqa: E402
import heads_reference as hr  # noqa: E402
import model_files as mf  # noqa: E402
import model_reference as ref  # noqa: E402

TOLERANCE = 1e-4
WORST = [0.0]
TEXT = 'the cat sat on the mat'
CORRUPTED = 'the mat sat on the cat'  # the same number of tokens in both tiny vocabularies
ROLES = ('previous_token', 'first_token', 'self', 'induction', 'duplicate', 'entropy', 'mean_distance')


class Failure(Exception):
    pass


def attnviz(binary, *args):
    done = subprocess.run([binary, *map(str, args)], capture_output=True, text=True)
    if done.returncode != 0:
        raise Failure(f'attnviz {" ".join(map(str, args[:3]))}... exited {done.returncode}: {done.stderr.strip()}')
    return json.loads(done.stdout)


def refused(binary, option, words, *args):
    """attnviz exits 2 with a message naming `option` and holding every one of `words`."""
    done = subprocess.run([binary, *map(str, args)], capture_output=True, text=True)
    if done.returncode != 2 or option not in done.stderr or not all(w in done.stderr for w in words):
        raise Failure(f'attnviz {" ".join(map(str, args[:1]))} with bad {option}: exit {done.returncode}, '
                      f'"{done.stderr.strip()}" (expected exit 2 naming {option} and {words})')


def close(name, got, want):
    got = np.asarray(got, dtype=np.float64)
    want = np.asarray(want, dtype=np.float64)
    if got.shape != want.shape:
        raise Failure(f'{name}: shape {got.shape}, expected {want.shape}')
    scale = max(1.0, float(np.abs(want).max())) if want.size else 1.0
    error = np.abs(got - want) / scale
    worst = np.unravel_index(np.argmax(error), error.shape) if error.size else ()
    if error.size:
        WORST[0] = max(WORST[0], float(error[worst]))
        if not error[worst] <= TOLERANCE:
            raise Failure(f'{name}: {got[worst]} at {worst}, expected {want[worst]} ({error[worst]:.2e} of {scale:.3g})')


def check_heads(name, result, stream, prefix=None, repeat=None):
    if len(result['layers']) != len(stream.weights):
        raise Failure(f'{name}: {len(result["layers"])} layers, expected {len(stream.weights)}')
    for layer in result['layers']:
        for head in layer['heads']:
            want = hr.head_scores(stream.weights[layer['layer']][head['head']], prefix, repeat)
            for role in ROLES:
                where = f'{name} layer {layer["layer"]} head {head["head"]} {role}'
                if want[role] is None:
                    if head[role] is not None:
                        raise Failure(f'{where}: {head[role]}, expected null')
                else:
                    close(where, head[role], want[role])


def check_probe(name, binary, model_path, model, prefix):
    result = attnviz(binary, 'heads', '--model', model_path, '--repeat', 5, '--seed', 7)
    ids, k = result['ids'], 5
    if result['prefix'] != prefix or result['repeat'] != k or len(ids) != prefix + 2 * k:
        raise Failure(f'{name} probe: prefix {result["prefix"]}, repeat {result["repeat"]}, {len(ids)} ids')
    if ids[prefix + k:] != ids[prefix:prefix + k]:
        raise Failure(f'{name} probe: the second copy {ids[prefix + k:]} differs from the first {ids[prefix:prefix + k]}')
    again = attnviz(binary, 'heads', '--model', model_path, '--repeat', 5, '--seed', 7)
    if again['ids'] != ids:
        raise Failure(f'{name} probe: the same seed gave other ids')
    check_heads(f'{name} probe', result, model.run(ids), prefix, k)


def check_lens(name, result, model, ids):
    want = hr.lens(model, model.run(ids), ids)
    if result['ids'] != ids or len(result['layers']) != len(want):
        raise Failure(f'{name}: ids or layer count differ')
    for layer in result['layers']:
        for i, cell in enumerate(layer['positions']):
            p, p_next, rank_next = want[layer['layer']][i]
            where = f'{name} layer {layer["layer"]} position {i}'
            top_ids = [t['id'] for t in cell['top']]
            expected = sorted(range(len(p)), key=lambda t: (-p[t], t))[:len(top_ids)]
            # Ties within float32 rounding may order differently: compare the probabilities.
            close(where + ' top p', [t['p'] for t in cell['top']], [p[t] for t in expected])
            close(where + ' top ids p', [t['p'] for t in cell['top']], [p[t] for t in top_ids])
            if p_next is None:
                if cell['p_next'] is not None or cell['rank_next'] is not None:
                    raise Failure(f'{where}: p_next at the last position')
            else:
                close(where + ' p_next', cell['p_next'], p_next)
                if cell['rank_next'] != rank_next:
                    raise Failure(f'{where}: rank_next {cell["rank_next"]}, expected {rank_next}')


def check_attribution(name, result, model, ids):
    position, target = result['position'], result['target']['id']
    logit, parts = hr.attribution(model, model.run(ids), position, target)
    got = result['components']
    if [(c['kind'], c['layer'], c['head']) for c in got] != [(k, l, h) for k, l, h, _ in parts]:
        raise Failure(f'{name}: components {[(c["kind"], c["layer"], c["head"]) for c in got]}, expected {parts}')
    scale = max(1.0, abs(logit))
    close(name + ' logit', result['logit'], logit)
    for c, (kind, layer, head, value) in zip(got, parts):
        close(f'{name} {kind} {layer} {head}', c['value'] / scale, value / scale)
    total = sum(c['value'] for c in got)
    if abs(total - result['logit']) > TOLERANCE * max(1.0, abs(result['logit'])):
        raise Failure(f'{name}: the parts sum to {total}, the logit is {result["logit"]}')
    if abs(sum(v for *_, v in parts) - logit) > 1e-9 * max(1.0, abs(logit)):
        raise Failure(f'{name}: the reference parts do not sum to the reference logit')


def check_patching(name, result, model, clean_ids, corrupted_ids, patched_position=None):
    position, target = result['position'], result['target']['id']
    if result['patch_positions'] != ('all' if patched_position is None else patched_position):
        raise Failure(f'{name}: patch_positions {result["patch_positions"]}, expected {patched_position or "all"}')
    clean, corrupted, patched = hr.patching(model, clean_ids, corrupted_ids, position, target, patched_position)
    scale = max(1.0, abs(clean), abs(corrupted))
    close(name + ' clean logit', result['clean_logit'] / scale, clean / scale)
    close(name + ' corrupted logit', result['corrupted_logit'] / scale, corrupted / scale)
    close(name + ' logit difference', result['logit_difference'] / scale, (clean - corrupted) / scale)
    got = [[h['patched_logit'] for h in layer['heads']] for layer in result['layers']]
    close(name + ' patched logits', np.array(got) / scale, np.array(patched) / scale)
    effects = [[h['effect'] for h in layer['heads']] for layer in result['layers']]
    close(name + ' effects', np.array(effects) / scale, (np.array(patched) - clean) / scale)


def check_everything(name, binary, path, model, ids, corrupted_ids, prefix):
    text_heads = attnviz(binary, 'heads', '--model', path, '--text', TEXT)
    if text_heads['ids'] != ids:
        raise Failure(f'{name}: ids {text_heads["ids"]}, expected {ids}')
    check_heads(f'{name} heads on the text', text_heads, model.run(ids))
    check_probe(name, binary, path, model, prefix)
    check_lens(f'{name} lens', attnviz(binary, 'lens', '--model', path, '--text', TEXT, '--top', 5), model, ids)
    last = attnviz(binary, 'compute', '--model', path, '--text', TEXT, '--top', 1)['next_tokens'][0]
    lens_last = attnviz(binary, 'lens', '--model', path, '--text', TEXT, '--top', 1)['layers'][-1]['positions'][-1]
    if lens_last['top'][0]['id'] != last['id'] or abs(lens_last['top'][0]['p'] - last['p']) > TOLERANCE:
        raise Failure(f'{name}: the lens\'s last cell {lens_last["top"][0]} is not compute\'s next token {last}')
    check_attribution(f'{name} attribution', attnviz(binary, 'attribute', '--model', path, '--text', TEXT), model, ids)
    chosen = attnviz(binary, 'attribute', '--model', path, '--text', TEXT, '--target-id', 5, '--position', 2)
    if chosen['position'] != 2 or chosen['target']['id'] != 5:
        raise Failure(f'{name}: --target-id 5 --position 2 gave {chosen["target"]} at {chosen["position"]}')
    check_attribution(f'{name} attribution of id 5 at 2', chosen, model, ids)
    patch = attnviz(binary, 'patch', '--model', path, '--text', TEXT, '--corrupted-text', CORRUPTED)
    if patch['corrupted_ids'] != corrupted_ids:
        raise Failure(f'{name}: corrupted ids {patch["corrupted_ids"]}, expected {corrupted_ids}')
    check_patching(f'{name} patching', patch, model, ids, corrupted_ids)
    # One position: the rows from it to the target's rerun over the clean run's keys and values.
    for extra, patched_position in ((['--patch-positions', 2], 2), (['--position', 3, '--patch-positions', 3], 3),
                                    (['--patch-positions', len(ids) - 1], len(ids) - 1)):
        one = attnviz(binary, 'patch', '--model', path, '--text', TEXT, '--corrupted-text', CORRUPTED, *extra)
        check_patching(f'{name} patching {" ".join(map(str, extra))}', one, model, ids, corrupted_ids,
                       patched_position)
    text_file, corrupted_file = pathlib.Path(path).parent / 'text.txt', pathlib.Path(path).parent / 'corrupted.txt'
    text_file.write_text(TEXT, encoding='utf-8')
    corrupted_file.write_text(CORRUPTED, encoding='utf-8')
    from_files = attnviz(binary, 'patch', '--model', path, '--text-file', text_file,
                         '--corrupted-text-file', corrupted_file)
    if from_files != patch:
        raise Failure(f'{name}: patch --text-file --corrupted-text-file differs from --text --corrupted-text')
    check_formats(name, binary, path, patch)


def check_formats(name, binary, path, patch):
    """--format csv holds the JSON's numbers; png and svg (by --format or --out's extension) are
    images with the figure's labels."""
    folder = pathlib.Path(path).parent
    done = subprocess.run([binary, 'patch', '--model', str(path), '--text', TEXT, '--corrupted-text', CORRUPTED,
                           '--format', 'csv'], capture_output=True, text=True, check=True)
    rows = [line.split(',') for line in done.stdout.strip().split('\n')]
    if rows[0] != ['layer', 'head', 'patched_logit', 'effect']:
        raise Failure(f'{name}: patch --format csv header {rows[0]}')
    want = [(layer['layer'], head['head'], head['patched_logit'], head['effect'])
            for layer in patch['layers'] for head in layer['heads']]
    got = [(int(r[0]), int(r[1]), float(r[2]), float(r[3])) for r in rows[1:]]
    if len(got) != len(want) or any(g[:2] != w[:2] or abs(g[2] - w[2]) > 1e-6 * max(1, abs(w[2])) or
                                    abs(g[3] - w[3]) > 1e-5 * max(1, abs(w[2])) for g, w in zip(got, want)):
        raise Failure(f'{name}: patch --format csv {got[:3]}… differs from the JSON {want[:3]}…')
    for command, extra in (('patch', ['--text', TEXT, '--corrupted-text', CORRUPTED]), ('heads', []),
                           ('lens', ['--text', TEXT]), ('attribute', ['--text', TEXT])):
        svg, png = folder / f'{command}.svg', folder / f'{command}.png'
        subprocess.run([binary, command, '--model', str(path), *extra, '--out', str(svg)], check=True,
                       capture_output=True)
        subprocess.run([binary, command, '--model', str(path), *extra, '--format', 'png', '--out', str(png)],
                       check=True, capture_output=True)
        text = svg.read_text(encoding='utf-8')
        title = {'patch': 'Activation patching', 'heads': 'Head roles', 'lens': 'Logit lens',
                 'attribute': 'Direct logit attribution'}[command]
        if not text.lstrip().startswith(('<?xml', '<svg')) or title not in text:
            raise Failure(f'{name}: {command} --out {svg.name} is no SVG with its title')
        if png.read_bytes()[:8] != b'\x89PNG\r\n\x1a\n':
            raise Failure(f'{name}: {command} --format png wrote no PNG')
        # --lang ko: the figure's words in Korean (issue 49), the English title gone.
        korean = folder / f'{command}-ko.svg'
        subprocess.run([binary, command, '--model', str(path), *extra, '--lang', 'ko', '--out', str(korean)],
                       check=True, capture_output=True)
        text = korean.read_text(encoding='utf-8')
        korean_title = {'patch': '활성화 패칭', 'heads': '헤드 역할', 'lens': '로짓 렌즈',
                        'attribute': '직접 로짓 기여도'}[command]
        if korean_title not in text or title in text:
            raise Failure(f'{name}: {command} --lang ko wrote no Korean title ({korean_title})')


def case_gpt2(binary, tmp, rng):
    w = cm.gpt2_weights(rng, cm.GPT2)
    cm.write_gpt2_folder(tmp / 'gpt2', w, cm.GPT2)
    vocab = {t: i for i, t in enumerate(cm.byte_vocab())}
    ids = ref.byte_level_encode(TEXT, vocab, cm.BYTE_MERGES)
    corrupted = ref.byte_level_encode(CORRUPTED, vocab, cm.BYTE_MERGES)
    model = hr.Gpt2(cm.stored_all(w, 'F32'), cm.GPT2)
    check_everything('GPT-2', binary, tmp / 'gpt2', model, ids, corrupted, prefix=0)


def case_llama(binary, tmp, rng):
    w = cm.llama_weights(rng, cm.LLAMA)  # 4 query heads sharing 2 key/value heads, RoPE
    cm.write_llama_folder(tmp / 'llama', w, cm.LLAMA)
    vocab = {t: i for i, t in enumerate(cm.sp_vocab())}
    ids = ref.sentencepiece_encode(TEXT, vocab, cm.SP_MERGES, bos=1)
    corrupted = ref.sentencepiece_encode(CORRUPTED, vocab, cm.SP_MERGES, bos=1)
    model = hr.Llama(cm.stored_all(w, 'F32'), cm.LLAMA)
    check_everything('Llama (GQA, RoPE)', binary, tmp / 'llama', model, ids, corrupted, prefix=1)


def case_previous_token(binary, tmp, rng):
    """One layer, one head of 16 dimensions; the tokens embed to nothing and position i to e_i,
    so after ln_1 the head's input is position alone. W_Q maps e_i to e_(i−1) (times 40) and
    W_K is the identity: query i's largest score is key i − 1's."""
    cfg = dict(cm.GPT2, d=16, heads=1, layers=1, positions=16)
    w = cm.gpt2_weights(rng, cfg)
    d = cfg['d']
    w['wte'] = np.zeros_like(w['wte'])
    w['wpe'] = np.eye(cfg['positions'], d)
    layer = w['layers'][0]
    layer['ln1_w'], layer['ln1_b'] = np.ones(d), np.zeros(d)
    w_q = np.zeros((d, d))
    for i in range(1, d):
        w_q[i, i - 1] = 40.0
    layer['attn_w'] = np.concatenate([w_q, np.eye(d), np.eye(d)], axis=1)
    layer['attn_b'] = np.zeros(3 * d)
    cm.write_gpt2_folder(tmp / 'previous', w, cfg)
    result = attnviz(binary, 'heads', '--model', tmp / 'previous', '--repeat', 6)
    score = result['layers'][0]['heads'][0]['previous_token']
    if not score > 0.99:
        raise Failure(f'the head built to attend to the previous token scores {score} on previous_token')
    check_heads('the previous-token model', result, hr.Gpt2(cm.stored_all(w, 'F32'), cfg).run(result['ids']), 0, 6)


def write_bert_without_head(folder, w):
    """check_models' BERT folder less the masked-LM head's tensors (a BertModel)."""
    write = mf.write_safetensors
    try:
        mf.write_safetensors = lambda path, tensors: write(path, {k: v for k, v in tensors.items()
                                                                  if not k.startswith('cls.')})
        cm.write_bert_folder(folder, w, cm.BERT)
    finally:
        mf.write_safetensors = write


def check_help(binary):
    for command in ('heads', 'lens', 'attribute', 'patch'):
        done = subprocess.run([binary, command, '--help'], capture_output=True, text=True)
        if done.returncode != 0 or not done.stdout.startswith(f'Usage: attnviz {command} --model PATH'):
            raise Failure(f'attnviz {command} --help: exit {done.returncode}, "{done.stdout[:80]}"')


def case_errors(binary, tmp, rng):
    check_help(binary)
    w = cm.gpt2_weights(rng, cm.GPT2)
    cm.write_gpt2_folder(tmp / 'gpt2', w, cm.GPT2)
    gpt2 = ['--model', tmp / 'gpt2']
    refused(binary, '--corrupted-text', ['6 tokens', '3 tokens'],
            'patch', *gpt2, '--text', TEXT, '--corrupted-text', 'the cat sat')
    refused(binary, '--target-id', ['1000000'], 'attribute', *gpt2, '--text', TEXT, '--target-id', 1000000)
    refused(binary, '--format', ['image', '--out'], 'lens', *gpt2, '--text', TEXT, '--format', 'png')
    refused(binary, '--format', ['npy'], 'attribute', *gpt2, '--text', TEXT, '--format', 'npy')
    refused(binary, '--lang', ['fr'], 'lens', *gpt2, '--text', TEXT, '--lang', 'fr', '--out', tmp / 'lens.svg')
    refused(binary, '--role', ['no role'], 'heads', *gpt2, '--role', 'sink', '--format', 'csv')
    refused(binary, '--target-id', ['1000000'], 'patch', *gpt2, '--text', TEXT, '--corrupted-text', CORRUPTED,
            '--target-id', 1000000)
    refused(binary, '--position', ['99'], 'attribute', *gpt2, '--text', TEXT, '--position', 99)
    refused(binary, '--position', ['99'], 'patch', *gpt2, '--text', TEXT, '--corrupted-text', CORRUPTED,
            '--position', 99)
    for value, words in ((99, ['99', 'beyond the text']), ('some', ['some', 'all']), (-1, ['-1'])):
        refused(binary, '--patch-positions', words, 'patch', *gpt2, '--text', TEXT, '--corrupted-text', CORRUPTED,
                '--patch-positions', value)
    refused(binary, '--patch-positions', ['4', 'after the target position 2'], 'patch', *gpt2, '--text', TEXT,
            '--corrupted-text', CORRUPTED, '--position', 2, '--patch-positions', 4)
    refused(binary, '--repeat', ['32'], 'heads', *gpt2, '--repeat', 20)  # 40 tokens, 32 positions
    bert = cm.bert_weights(rng, cm.BERT)
    cm.write_bert_folder(tmp / 'bert', bert, cm.BERT)
    refused(binary, '--model', ['unavailable', 'post-norm'], 'attribute', '--model', tmp / 'bert', '--text', TEXT)
    write_bert_without_head(tmp / 'bert-no-head', bert)
    for command in ('lens', 'attribute'):
        refused(binary, '--model', ['unavailable', 'no LM head'], command, '--model', tmp / 'bert-no-head',
                '--text', TEXT)
    refused(binary, '--model', ['unavailable', 'no LM head'], 'patch', '--model', tmp / 'bert-no-head',
            '--text', TEXT, '--corrupted-text', CORRUPTED)


CASES = {'gpt2': case_gpt2, 'llama': case_llama, 'previous-token': case_previous_token, 'errors': case_errors}


def main():
    if len(sys.argv) != 3 or sys.argv[2] not in CASES:
        sys.exit(__doc__ + '\nCASE: ' + ', '.join(CASES))
    binary, case = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory(prefix='attnviz-heads-') as folder:
        try:
            CASES[case](binary, pathlib.Path(folder), np.random.default_rng(48))
        except (Failure, cm.Failure) as failure:
            sys.exit(f'FAILED ({case}): {failure}')
    print(f'{case}: attnviz agrees with the float64 reference (largest difference {WORST[0]:.1e})')


if __name__ == '__main__':
    main()
