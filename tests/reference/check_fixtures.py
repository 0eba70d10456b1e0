#!/usr/bin/env python3
"""The fixtures' `expected` blocks against attention_reference.py, in float64: two independent
computations of every number the backends are tested against must agree (to 1e-12).

usage: check_fixtures.py FIXTURES_DIR"""
import json
import pathlib
import sys

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from attention_reference import attention  # noqa: E402

TOLERANCE = 1e-12


def main() -> int:
    folder = pathlib.Path(sys.argv[1])
    files = sorted(folder.glob('*.json'))
    failures = 0
    for path in files:
        scenario = json.loads(path.read_text(encoding='utf-8'))
        expected = scenario['expected']
        ours = attention(scenario)
        pairs = [('mask', expected['mask'], ours['mask']), ('output', expected['output'], ours['output'])]
        for h, (want, got) in enumerate(zip(expected['heads'], ours['heads'])):
            pairs += [(f'heads[{h}].{key}', want[key], got[key]) for key in ('scores', 'weights', 'context')]
        if len(expected['heads']) != len(ours['heads']):
            pairs.append(('heads', len(expected['heads']), len(ours['heads'])))
        for name, want, got in pairs:
            difference = np.max(np.abs(np.asarray(want, dtype=np.float64) - np.asarray(got, dtype=np.float64)))
            if not difference <= TOLERANCE:
                print(f'{path.name}: {name} differs by {difference:.3g}')
                failures += 1
    print(f'{len(files)} fixtures, {failures} differences above {TOLERANCE}')
    return 1 if failures or not files else 0


if __name__ == '__main__':
    sys.exit(main())
