"""Two builds of attnviz give the same numbers (issue 16): the portable build (-march=x86-64-v2,
what the .deb ships) and a native one (-march=native, AVX2/FMA or AVX-512 in Eigen's kernels)
compute every bundled preset on the CPU; every matrix of every head must agree within 1e-5,
the tolerance docs/design.md holds all of attnviz's paths to.

usage: compare_builds.py ATTNVIZ_A ATTNVIZ_B SOURCE_DIR"""
import json
import pathlib
import subprocess
import sys

TOLERANCE = 1e-5


def compute(binary, preset):
    out = subprocess.run([binary, 'compute', '--backend', 'cpu', '--scenario', f'preset:{preset}'], capture_output=True,
                         text=True, timeout=300)
    if out.returncode != 0:
        sys.exit(f'{binary} compute preset:{preset} failed ({out.returncode}):\n{out.stderr}')
    return json.loads(out.stdout)


def numbers(value, path=''):
    """Every number in a JSON value, with where it is."""
    if isinstance(value, bool):
        return
    if isinstance(value, (int, float)):
        yield path, float(value)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from numbers(item, f'{path}[{i}]')
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from numbers(item, f'{path}/{key}')


def main():
    binary_a, binary_b, source = sys.argv[1], sys.argv[2], pathlib.Path(sys.argv[3])
    presets = sorted(p.stem for p in (source / 'assets' / 'presets').glob('*.json'))
    worst = (0.0, '')
    for preset in presets:
        a = dict(numbers(compute(binary_a, preset)['heads']))
        b = dict(numbers(compute(binary_b, preset)['heads']))
        if a.keys() != b.keys():
            sys.exit(f'preset:{preset}: the two builds return different matrices')
        for where, value in a.items():
            difference = abs(value - b[where])
            if difference > worst[0]:
                worst = (difference, f'preset:{preset} heads{where}')
    print(f'{len(presets)} presets; largest difference {worst[0]:.3g} at {worst[1] or "-"} (tolerance {TOLERANCE:g})')
    if worst[0] > TOLERANCE:
        sys.exit(1)


if __name__ == '__main__':
    main()
