#!/usr/bin/env python3
"""`attnviz train` against the float64 PyTorch GPT-2 of training_reference.py.

usage: check_training.py ATTNVIZ CASE [TRAINED_FOLDER | RUNNER]
  gradients  every tensor's gradient from train_gradients_runner (core/train directly) against
             autograd, and the loss
  sgd-step   one SGD step on a text (English and Korean, sequential windows): the logged loss and,
             tensor by tensor, the gradient (W0 − W1)/lr and the new weights W1 against autograd;
             then `attnviz compute --model` on the trained folder against the reference's logits
  induction  the default induction training (slow): the reference, from the saved model, finds a
             low loss on copyable tokens and a head with a high induction score"""
import json
import pathlib
import subprocess
import sys
import tempfile

import numpy as np
import torch

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import training_reference as ref  # noqa: E402

TEXT = ('The cat sat on the mat. 고양이가 매트 위에 앉았다. ' * 4)
INDUCTION_OPTIONS = []  # the defaults: what a user gets


class Failure(Exception):
    pass


def run(binary, *args):
    done = subprocess.run([binary, *args], capture_output=True, text=True)
    if done.returncode != 0:
        raise Failure(f'attnviz {" ".join(args[:4])}... exited {done.returncode}: {done.stderr.strip()}')
    return done.stdout


def case_sgd_step(binary, tmp):
    text_file = tmp / 'text.txt'
    text_file.write_text(TEXT, encoding='utf-8')
    out = tmp / 'model'
    B, T, lr = 4, 32, 0.5  # B·T·T·C = 65,536: the attention runs on 2 threads
    run(binary, 'train', '--task', 'text', '--text-file', str(text_file), '--out', str(out), '--steps', '1',
        '--optimizer', 'sgd', '--lr', str(lr), '--batch', str(B), '--context', str(T), '--layers', '2', '--heads', '2',
        '--d-model', '16', '--sampling', 'sequential', '--checkpoints', '1', '--threads', '2')
    ids = list(TEXT.encode('utf-8'))
    inputs = torch.tensor([ids[i * T:i * T + T] for i in range(B)])
    targets = torch.tensor([ids[i * T + 1:i * T + T + 1] for i in range(B)])
    config, w0, meta0 = ref.read_model(out / 'checkpoints' / 'step-0')
    if meta0.get('step') != '0':
        raise Failure(f'checkpoints/step-0 says step {meta0.get("step")}')
    loss, grads = ref.loss_and_gradients(config, w0, inputs, targets)
    logged = [json.loads(line) for line in (out / 'training.jsonl').read_text().splitlines()]
    if len(logged) != 1 or logged[0]['step'] != 1:
        raise Failure(f'training.jsonl: {logged}')
    if abs(logged[0]['loss'] - loss) > 1e-5 * loss:
        raise Failure(f'the logged loss {logged[0]["loss"]} is not the reference loss {loss}')
    w1, meta1 = ref.read_safetensors(out / 'model.safetensors')
    worst_grad, worst_weight = 0.0, 0.0
    # A tensor whose gradient is 0 in exact arithmetic (the keys' bias: softmax ignores a shift of a
    # row's scores) is compared against the model's largest gradient instead: float32 noise.
    floor = 1e-3 * max(np.abs(g).max() for g in grads.values())
    for name, g in grads.items():
        before = w0[name].detach().numpy()
        want = before - lr * g
        # W1 is float32: each weight within its rounding (and the step's float32 arithmetic).
        weight_error = np.abs(w1[name] - want).max() / max(1.0, np.abs(want).max())
        grad_error = np.abs((before - w1[name]) / lr - g).max() / max(np.abs(g).max(), floor)
        worst_grad, worst_weight = max(worst_grad, grad_error), max(worst_weight, weight_error)
        if weight_error > 2e-6:
            raise Failure(f'{name}: W1 differs from W0 − lr·∇W by {weight_error:.2e} (relative to its largest weight)')
        if grad_error > 1e-3:
            raise Failure(f'{name}: the gradient differs by {grad_error:.2e} of its largest entry')
    # The folder opens in attnviz compute --model, with the reference's logits for the new weights.
    prompt = 'The cat 고양이'  # 17 bytes: within the 32 positions
    result = json.loads(run(binary, 'compute', '--model', str(out), '--text', prompt, '--top', '256', '--layers', '0'))
    _, w1_torch, _ = ref.read_model(out)
    with torch.no_grad():
        logits, _ = ref.forward(config, w1_torch, torch.tensor([list(prompt.encode('utf-8'))]))
    want = logits[0, -1].numpy()
    got = np.full(len(want), np.nan)
    for t in result['next_tokens']:
        got[t['id']] = t['logit']
    logit_error = np.abs(got - want).max() / max(1.0, np.abs(want).max())
    if not logit_error <= 1e-5:
        raise Failure(f'attnviz compute --model on the trained folder: logits differ by {logit_error:.2e}')
    print(f'sgd-step: loss {loss:.6f}; gradients within {worst_grad:.1e}, weights within {worst_weight:.1e}, '
          f'compute --model logits within {logit_error:.1e}')


def case_induction(binary, tmp, trained=None):
    """trained: a folder `attnviz train --task induction` wrote already (to judge a longer run)."""
    out = pathlib.Path(trained) if trained else tmp / 'induction'
    if not trained:
        run(binary, 'train', '--task', 'induction', '--out', str(out), *INDUCTION_OPTIONS)
    config, w, _ = ref.read_model(out)
    task = json.loads((out / 'task.json').read_text())
    log_file = out / 'training.jsonl'  # a checkpoint folder has none
    log = [json.loads(line) for line in log_file.read_text().splitlines()] if log_file.exists() else [{}]
    T, V = task['context'], len(task['token_ids'])
    rng = np.random.default_rng(1)
    # Two repeat lengths: a head that copies from a fixed distance back scores high at one only.
    lengths, probes = (T // 2, max(4, T // 3)), 16
    copy_losses, scores, previous = [], [], np.zeros(config['n_head'])
    for K in lengths:
        per_k = np.zeros((config['n_layer'], config['n_head']))
        for _ in range(probes):
            half = list(rng.choice(task['token_ids'], size=K))
            ids = half + half
            with torch.no_grad():
                logits, attention = ref.forward(config, w, torch.tensor([ids]))
                l = ref.losses(logits[:, :-1], torch.tensor([ids[1:]]))[0]
            copy_losses.extend(l[K:2 * K - 1].tolist())  # targets in the second copy after its first token
            per_k += np.array(ref.induction_scores(config, w, ids, K)) / probes
            # Layer 0's attention to the previous token: the half of an induction circuit that forms first.
            rows = torch.arange(1, 2 * K)
            previous += attention[0][0, :, rows, rows - 1].mean(dim=-1).numpy() / (probes * len(lengths))
        scores.append(per_k)
    copy_loss, chance = float(np.mean(copy_losses)), float(np.log(V))
    later = np.minimum(*scores)[1:]  # an induction head needs a previous-token head before it
    best = np.unravel_index(np.argmax(later), later.shape)
    print(f'induction: {log[-1].get("step")} steps in {log[-1].get("seconds")} s, logged repeat loss '
          f'{log[-1].get("repeat_loss")}; reference: copy loss {copy_loss:.3f} (chance {chance:.2f}), best '
          f'induction score {later[best]:.2f} (layer {best[0] + 1} head {best[1]}, the lower of K = {lengths}); '
          f'scores {np.round(np.minimum(*scores), 2).tolist()}; layer 0 on the previous token '
          f'{np.round(previous, 2).tolist()}')
    if copy_loss > 0.5 * chance:
        raise Failure(f'the loss on copyable tokens is {copy_loss:.3f} of a chance {chance:.2f}: no copying')
    if later[best] < 0.4:
        raise Failure(f'no head after layer 0 attends to the token after the earlier occurrence (best {later[best]:.2f})')


def case_gradients(binary, tmp, runner):
    """Every tensor's gradient as core/train computes it (train_gradients_runner) against autograd,
    on a model a few AdamW steps away from its initialisation."""
    text_file = tmp / 'text.txt'
    text_file.write_text(TEXT, encoding='utf-8')
    out = tmp / 'model'
    B, T = 4, 32
    run(binary, 'train', '--task', 'text', '--text-file', str(text_file), '--out', str(out), '--steps', '5',
        '--batch', str(B), '--context', str(T), '--layers', '2', '--heads', '2', '--d-model', '16', '--lr', '0.01')
    ids = list(TEXT.encode('utf-8'))
    rows = [ids[7 + 40 * i:7 + 40 * i + T + 1] for i in range(B)]  # not the windows it trained on
    done = subprocess.run([runner, str(out), str(T), str(tmp / 'grads.safetensors'), *map(str, sum(rows, []))],
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise Failure(f'train_gradients_runner exited {done.returncode}: {done.stderr.strip()}')
    got, _ = ref.read_safetensors(tmp / 'grads.safetensors')
    config, w, _ = ref.read_model(out)
    inputs = torch.tensor([r[:-1] for r in rows])
    targets = torch.tensor([r[1:] for r in rows])
    loss, want = ref.loss_and_gradients(config, w, inputs, targets)
    if abs(float(done.stdout) - loss) > 1e-6 * loss:
        raise Failure(f'loss {done.stdout.strip()}, expected {loss}')
    floor = 1e-4 * max(np.abs(g).max() for g in want.values())  # the keys' bias: 0 but for rounding
    worst = 0.0
    for name, g in want.items():
        error = np.abs(got[name] - g).max() / max(np.abs(g).max(), floor)
        worst = max(worst, error)
        if error > 1e-4:
            raise Failure(f'{name}: the gradient differs by {error:.2e} of its largest entry')
    print(f'gradients: loss {loss:.6f}; every tensor within {worst:.1e} of its largest gradient')


CASES = {'gradients': case_gradients, 'sgd-step': case_sgd_step, 'induction': case_induction}


def main():
    if len(sys.argv) not in (3, 4) or sys.argv[2] not in CASES:
        sys.exit(__doc__)
    with tempfile.TemporaryDirectory() as tmp:
        try:
            CASES[sys.argv[2]](sys.argv[1], pathlib.Path(tmp), *sys.argv[3:])
        except Failure as failure:
            sys.exit(f'FAILED: {failure}')


if __name__ == '__main__':
    main()
