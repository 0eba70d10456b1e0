"""Text a user reads is UTF-8 once, never twice: a string saved through a Latin-1 step reads
"Open the Scaling page â¶" instead of "... ▶" (issue 44). Double encoding leaves tell-tale
characters: C1 controls (U+0080-U+009F), which no source or doc of ours has a use for, and
'Ã' or 'â€' followed by a Latin-1 punctuation sign.

usage: test_source_text.py SOURCE_DIR"""
import pathlib
import re
import sys
import unittest

SOURCE = pathlib.Path(sys.argv.pop(1) if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parents[2])
FOLDERS = ('app', 'core', 'docs', 'shaders', 'assets/desktop', 'scripts')
SUFFIXES = {'.cpp', '.h', '.md', '.glsl', '.frag', '.vert', '.comp', '.sh', '.py', '.desktop', '.xml', '.po', '.txt'}
MOJIBAKE = re.compile('[\u0080-\u009f]|\u00c3[\u00a0-\u00bf]|\u00e2\u20ac')


def text_files():
    yield SOURCE / 'README.md'
    for folder in FOLDERS:
        for path in sorted((SOURCE / folder).rglob('*')):
            if path.is_file() and path.suffix in SUFFIXES:
                yield path


class SourceText(unittest.TestCase):
    def test_no_double_encoded_utf8(self):
        found = []
        for path in text_files():
            try:
                text = path.read_text(encoding='utf-8')
            except UnicodeDecodeError as error:
                found.append(f'{path.relative_to(SOURCE)}: not UTF-8 ({error})')
                continue
            for number, line in enumerate(text.splitlines(), 1):
                match = MOJIBAKE.search(line)
                if match:
                    found.append(f'{path.relative_to(SOURCE)}:{number}: {ascii(line.strip()[:100])}')
        self.assertEqual(found, [], 'text encoded to UTF-8 twice:\n' + '\n'.join(found))

    def test_the_check_finds_a_double_encoded_sign(self):
        self.assertTrue(MOJIBAKE.search('Open the Scaling page \u00e2\u0096\u00b6'))
        self.assertFalse(MOJIBAKE.search('Open the Scaling page \u25b6, caf\u00e9, \ud55c\uad6d\uc5b4, \u2192'))


if __name__ == '__main__':
    unittest.main()
