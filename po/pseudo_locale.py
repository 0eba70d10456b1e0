#!/usr/bin/env python3
"""Writes the pseudo-locale catalogue from the template: every message accented, 40 % longer
and bracketed ("Show the scenario" -> "[Šĥöŵ ţĥé šçéñåŕîö~~~~~~~]"), its printf directives and
escapes kept, so that a string left out of translation shows plain English in the window and
one that does not fit shows a cut bracket.   usage: pseudo_locale.py attnviz.pot pseudo.po"""
import math
import re
import sys

# Only letters up to U+017F: the window's Latin font ranges (app/window/fonts.cpp) end there.
ACCENTED = dict(zip('acdeghiklnorstuwyzACDEGHIKLNORSTUWYZ', 'åçđéĝĥîķļñöŕšţûŵýžÅÇĐÉĜĤÎĶĻÑÖŔŠŢÛŴÝŽ'))
# Kept as they are: printf directives, backslash escapes.
KEPT = re.compile(r'%(?:[1-9]\$)?[-+ #0]*[0-9*]*(?:\.[0-9*]+)?(?:hh|h|ll|l|z|j|t|L)?[diouxXeEfgGcsp%]|\\.')


def pseudo(text):
    parts, end = [], 0
    for match in KEPT.finditer(text):
        parts.append(''.join(ACCENTED.get(c, c) for c in text[end:match.start()]))
        parts.append(match.group())
        end = match.end()
    parts.append(''.join(ACCENTED.get(c, c) for c in text[end:]))
    shown = len(KEPT.sub('x', text))
    return '[' + ''.join(parts) + '~' * math.ceil(shown * 0.4) + ']'


def entries(lines):
    """(comments, {keyword: text}) per entry of a .pot file."""
    entry, comments, key = {}, [], None
    for line in lines + ['']:
        if not line.strip():
            if entry:
                yield comments, entry
            entry, comments, key = {}, [], None
        elif line.startswith('#'):
            comments.append(line)
        elif line.startswith('"'):
            entry[key] += line[1:-1]
        else:
            key, _, rest = line.partition(' ')
            entry[key] = rest[1:-1]


def main(pot, out):
    written = []
    for comments, entry in entries(open(pot, encoding='utf-8').read().split('\n')):
        flags = [c for c in comments if c.startswith('#,') and 'fuzzy' not in c]
        if entry.get('msgid') == '':
            header = ['Project-Id-Version: attnviz', 'PO-Revision-Date: 2000-01-01 00:00+0000',
                      'Last-Translator: po/pseudo_locale.py', 'Language-Team: none', 'Language: pseudo',
                      'MIME-Version: 1.0', 'Content-Type: text/plain; charset=UTF-8',
                      'Content-Transfer-Encoding: 8bit', 'Plural-Forms: nplurals=2; plural=(n != 1);']
            written.append('msgid ""\nmsgstr ""\n' + ''.join(f'"{field}\\n"\n' for field in header))
            continue
        text = flags[:]
        if 'msgctxt' in entry:
            text.append(f'msgctxt "{entry["msgctxt"]}"')
        text.append(f'msgid "{entry["msgid"]}"')
        if 'msgid_plural' in entry:
            text.append(f'msgid_plural "{entry["msgid_plural"]}"')
            text.append(f'msgstr[0] "{pseudo(entry["msgid"])}"')
            text.append(f'msgstr[1] "{pseudo(entry["msgid_plural"])}"')
        else:
            text.append(f'msgstr "{pseudo(entry["msgid"])}"')
        written.append('\n'.join(text) + '\n')
    with open(out, 'w', encoding='utf-8') as f:
        f.write('\n'.join(written))


if __name__ == '__main__':
    main(*sys.argv[1:])
