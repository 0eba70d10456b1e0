#!/usr/bin/env python3
"""Every arrow points down: checks each #include "app/..." and "core/..." of the source tree
against the layers below. A folder may include itself and the folders listed for it (and,
for app/ folders, all of core/). Exit 1, naming each upward include, on a violation.

usage: check_layers.py SOURCE_DIR"""
import pathlib
import re
import sys

# app/ from the bottom up (docs/architecture.md draws the same picture).
APP = {
    'app/cli': [],
    'app/document': [],
    'app/edits': [],
    'app/window': [],
    'app/compute': ['app/document'],
    'app/heatmap': ['app/window'],
    'app/ui': ['app/heatmap', 'app/compute', 'app/document', 'app/window'],
    'app/export_ui': ['app/ui', 'app/heatmap', 'app/compute', 'app/document', 'app/window'],
    'app/panels': ['app/export_ui', 'app/ui', 'app/edits', 'app/heatmap', 'app/compute', 'app/document', 'app/window'],
    'app/classroom': ['app/ui', 'app/edits', 'app/heatmap', 'app/compute', 'app/document', 'app/window', 'app/cli'],
    'app/desktop': ['app/panels', 'app/classroom', 'app/export_ui', 'app/ui', 'app/edits', 'app/heatmap',
                    'app/compute', 'app/document', 'app/window', 'app/cli'],
    'app': ['app/desktop', 'app/classroom', 'app/cli'],  # main.cpp
}

INCLUDE = re.compile(r'^\s*#\s*include\s+"((?:app|core)/[^"]+)"', re.MULTILINE)


def folder_of(path: str) -> str:
    parts = path.split('/')
    return '/'.join(parts[:2]) if len(parts) > 2 else parts[0]


def allowed(source: str, target: str) -> bool:
    src, dst = folder_of(source), folder_of(target)
    if src == dst:
        return True
    if src.startswith('core'):
        return dst.startswith('core')  # core never includes app/
    return dst.startswith('core') or dst in APP.get(src, [])


def main() -> int:
    root = pathlib.Path(sys.argv[1])
    problems = []
    checked = 0
    for base in ('app', 'core'):
        for path in sorted((root / base).rglob('*')):
            if path.suffix not in ('.h', '.cpp'):
                continue
            source = path.relative_to(root).as_posix()
            if source.startswith('app/') and folder_of(source) not in APP:
                problems.append(f'{source}: app/{folder_of(source)} is not a layer of tests/architecture/check_layers.py')
            for target in INCLUDE.findall(path.read_text(encoding='utf-8')):
                checked += 1
                if not allowed(source, target):
                    problems.append(f'{source} includes {target}: {folder_of(target)} is not below {folder_of(source)}')
    for problem in problems:
        print(problem)
    print(f'{checked} includes checked, {len(problems)} pointing the wrong way')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
