#!/usr/bin/env python3
"""System(declaration, isolation:..., environment:..., monitor:...) -> declaration.start(isolation:..., ...):
one spelling for starting a DeclarativeSystem value (System { ... } stays)."""
import re
import sys

CALL = re.compile(r"(?<![\w.<])System(<[^()\n<>]*>)?\(")
LABEL = re.compile(r"(?:\s|///)*([A-Za-z_]\w*)\s*:(?!:)")



def top_level_args(text, start):
    depth, i, begin, spans, in_string = 0, start, start, [], False
    while i < len(text):
        c = text[i]
        if in_string:
            if c == "\\":
                i += 2
                continue
            if c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                spans.append((begin, i))
                return spans, i
            depth -= 1
        elif c == "," and depth == 0:
            spans.append((begin, i))
            begin = i + 1
        i += 1
    return None, None


def rewrite(text):
    out, pos = [], 0
    for match in CALL.finditer(text):
        if match.start() < pos:
            continue
        spans, close = top_level_args(text, match.end())
        if not spans:
            continue
        first = text[spans[0][0]:spans[0][1]]
        if not first.strip() or LABEL.match(first):
            continue
        declaration = first.strip()
        rest = ", ".join(text[b:e].strip() for b, e in spans[1:])
        out.append(text[pos:match.start()])
        out.append(f"{declaration}.start({rest})")
        pos = close + 1
    out.append(text[pos:])
    return "".join(out)


for path in sys.argv[1:]:
    original = open(path).read()
    changed = rewrite(original)
    if changed != original:
        open(path, "w").write(changed)
