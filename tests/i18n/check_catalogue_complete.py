#!/usr/bin/env python3
"""Fails unless the catalogue translates every message of the template, none fuzzy: ko.po merged
with the attnviz.pot the build just extracted, then counted by msgfmt.
   usage: check_catalogue_complete.py po/ko.po build/release/po/attnviz.pot"""
import subprocess
import sys
import tempfile


def main(po, pot):
    with tempfile.NamedTemporaryFile(suffix='.po') as merged:
        subprocess.run(['msgmerge', '--quiet', '--no-fuzzy-matching', '--output-file', merged.name, po, pot],
                       check=True)
        counts = subprocess.run(['msgfmt', '--check', '--statistics', '--output-file=/dev/null', merged.name],
                                capture_output=True, text=True, check=True).stderr
        untranslated = subprocess.run(['msgattrib', '--untranslated', '--no-obsolete', merged.name],
                                      capture_output=True, text=True, check=True).stdout
        fuzzy = subprocess.run(['msgattrib', '--only-fuzzy', '--no-obsolete', po], capture_output=True, text=True,
                               check=True).stdout
    print(f'{po}: {counts.strip()}')
    problems = []
    if 'untranslated' in counts:
        problems.append('messages of the sources not translated (run the attnviz_update_po target, then '
                        'translate them):\n' + untranslated)
    if fuzzy.strip():
        problems.append('fuzzy entries (check the translation and remove the fuzzy flag):\n' + fuzzy)
    if problems:
        sys.exit('\n'.join(problems))


if __name__ == '__main__':
    main(*sys.argv[1:])
