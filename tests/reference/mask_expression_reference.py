#!/usr/bin/env python3
"""Mask expressions in Python, written from docs/design.md ("Mask expressions") and nothing else:
its own tokenizer, parser and evaluator, no attnviz code and no attnviz output. Integers are
Python's (arbitrary precision) clamped to ±(2^63 − 1) after every operation; / is floor division
and % takes the divisor's sign, as Python's // and %; x / 0 is 0 and x % 0 is x.

    Expression("k <= q && (k < 4 || q - k <= 8)").visible(q, k, h, n, m, documents, globals)
    mask_of(mask_json, n, m, head) -> N × M list of 0/1 (the named fields AND the expression)
"""
import bisect
import re

LIMIT = 2 ** 63 - 1


def clamp(value: int) -> int:
    return max(-LIMIT, min(LIMIT, value))


def floor_div(a: int, b: int) -> int:
    return 0 if b == 0 else clamp(a // b)


def floor_mod(a: int, b: int) -> int:
    return a if b == 0 else a % b


TOKEN = re.compile(r'\s*(?:(\d+)|([A-Za-z_][A-Za-z_0-9]*)|(&&|\|\||<=|>=|==|!=|[-+*/%<>!(),]))')

BINARY = [  # lowest precedence first
    {'||': lambda a, b: a or b},
    {'&&': lambda a, b: a and b},
    {'<': lambda a, b: a < b, '<=': lambda a, b: a <= b, '>': lambda a, b: a > b, '>=': lambda a, b: a >= b,
     '==': lambda a, b: a == b, '!=': lambda a, b: a != b},
    {'+': lambda a, b: clamp(a + b), '-': lambda a, b: clamp(a - b)},
    {'*': lambda a, b: clamp(a * b), '/': floor_div, '%': floor_mod},
]


class Expression:
    def __init__(self, text: str):
        self.tokens = []
        position = 0
        text = text.rstrip()
        while position < len(text):
            match = TOKEN.match(text, position)
            if not match or match.end() == position:
                raise ValueError(f'cannot read {text[position:]!r}')
            number, name, symbol = match.groups()
            self.tokens.append(('int', int(number)) if number else ('name', name) if name else ('sym', symbol))
            position = match.end()
        self.position = 0
        self.tree = self.binary(0)
        if self.position != len(self.tokens):
            raise ValueError('trailing tokens')

    def peek(self):
        return self.tokens[self.position] if self.position < len(self.tokens) else (None, None)

    def take(self):
        token = self.peek()
        self.position += 1
        return token

    def binary(self, level):
        if level == len(BINARY):
            return self.unary()
        left = self.binary(level + 1)
        while self.peek()[0] == 'sym' and self.peek()[1] in BINARY[level]:
            operator = BINARY[level][self.take()[1]]
            right = self.binary(level + 1)
            left = ('op', operator, left, right)
        return left

    def unary(self):
        kind, value = self.peek()
        if kind == 'sym' and value in ('-', '+', '!'):
            self.take()
            operand = self.unary()
            return ('neg', operand) if value == '-' else ('not', operand) if value == '!' else operand
        return self.primary()

    def primary(self):
        kind, value = self.take()
        if kind == 'int':
            return ('const', value)
        if kind == 'sym' and value == '(':
            inside = self.binary(0)
            assert self.take() == ('sym', ')')
            return inside
        assert kind == 'name', (kind, value)
        if value in ('true', 'false'):
            return ('const', value == 'true')
        if value in ('q', 'k', 'h', 'n', 'm'):
            return ('var', value)
        assert self.take() == ('sym', '(')
        arguments = [self.binary(0)]
        while self.peek() == ('sym', ','):
            self.take()
            arguments.append(self.binary(0))
        assert self.take() == ('sym', ')')
        return ('call', value, arguments)

    def visible(self, q, k, h, n, m, documents, globals_):
        env = {'q': q, 'k': k, 'h': h, 'n': n, 'm': m}

        def run(node):
            tag = node[0]
            if tag == 'const':
                return node[1]
            if tag == 'var':
                return env[node[1]]
            if tag == 'neg':
                return clamp(-run(node[1]))
            if tag == 'not':
                return not run(node[1])
            if tag == 'op':
                return node[1](run(node[2]), run(node[3]))
            name, args = node[1], [run(a) for a in node[2]]
            if name == 'abs':
                return clamp(abs(args[0]))
            if name == 'min':
                return min(args)
            if name == 'max':
                return max(args)
            if name == 'doc':  # documents before or at i, minus one
                return bisect.bisect_right(documents, args[0]) - 1
            if name == 'global':
                return args[0] in globals_
            raise ValueError(name)

        return bool(run(self.tree))


def field_visible(mask: dict, i: int, j: int) -> bool:
    """docs/design.md, "Masks": (no window, or |i-j| <= r, or i or j global) and (not causal, or j <= i)."""
    if mask.get('causal', False) and j > i:
        return False
    window = mask.get('window')
    if window is None:
        return True
    globals_ = set(mask.get('global', []))
    return abs(i - j) <= window or i in globals_ or j in globals_


def mask_of(mask: dict, n: int, m: int, head: int):
    text = mask.get('expression', '').strip()
    expression = Expression(text) if text else None
    documents = sorted(mask.get('documents', []))
    globals_ = set(mask.get('global', []))
    return [[1 if field_visible(mask, i, j) and (expression is None or
                                                 expression.visible(i, j, head, n, m, documents, globals_)) else 0
             for j in range(m)] for i in range(n)]


def blocks_of(mask, size: int):
    """Every size × size tile by brute force: 0 every cell hidden, 1 some, 2 none."""
    n, m = len(mask), len(mask[0])
    tiles = []
    for r0 in range(0, n, size):
        row = []
        for c0 in range(0, m, size):
            cells = [mask[i][j] for i in range(r0, min(n, r0 + size)) for j in range(c0, min(m, c0 + size))]
            row.append(0 if not any(cells) else 2 if all(cells) else 1)
        tiles.append(row)
    flat = [t for row in tiles for t in row]
    return {'size': size, 'empty': flat.count(0), 'partial': flat.count(1), 'full': flat.count(2), 'tiles': tiles}
