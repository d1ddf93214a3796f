#!/usr/bin/env python3
"""One rule for reducer labels (0.1.0): the in-place form `(inout State, Event) -> Void`
is the reducer, labelled `reduce:` (unlabelled where the type is itself a reducer:
`Reducer(_:)`, `TransitionAssertions(_:)`); the returning form `(State, Event) -> State`
always carries `reduceReturning:`.

Rewrites call sites and DocC symbol links in the files given on the command line:
  System / TestSystem / Store (initial: ..., reduce:)        -> reduceReturning:
  System / TestSystem / Store (initial: ..., reduceInPlace:) -> reduce:
  Reducer(returning:)                                        -> Reducer(reduceReturning:)
  TransitionAssertions(f)                                    -> TransitionAssertions(reduceReturning: f)
  TransitionAssertions(reduceInPlace: f)                     -> TransitionAssertions(f)
Only labels at the call's own depth are touched.
"""
import re
import sys

OPEN, CLOSE = "([{", ")]}"
CALL = re.compile(r"(?<![\w])(System|TestSystem|Store|Reducer|TransitionAssertions)(<[^()\n]*?>)?\(")
LABEL = re.compile(r"(?:\s|///|//[^\n]*\n)*([A-Za-z_]\w*)\s*:(?!:)")
ONLY_AFTER_COMMENT = False


def top_level_args(text, start):
    """Spans (begin, end) of each argument of the call whose '(' is at start-1, and the closing index."""
    depth, i, begin, spans = 0, start, start, []
    in_string = False
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
        elif c in OPEN:
            depth += 1
        elif c in CLOSE:
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
        kind = match.group(1)
        spans, close = top_level_args(text, match.end())
        if spans is None:
            continue
        edits = []  # (begin, end, replacement)
        for index, (begin, end) in enumerate(spans):
            arg = text[begin:end]
            label = LABEL.match(arg)
            name = label.group(1) if label else None
            if ONLY_AFTER_COMMENT and not re.match(r"\s*//(?!/)", arg):
                continue
            if kind in ("System", "TestSystem", "Store"):
                if name == "reduce":
                    edits.append((begin + label.start(1), begin + label.end(1), "reduceReturning"))
                elif name == "reduceInPlace":
                    edits.append((begin + label.start(1), begin + label.end(1), "reduce"))
            elif kind == "Reducer" and name == "returning" and index == 0:
                edits.append((begin + label.start(1), begin + label.end(1), "reduceReturning"))
            elif kind == "TransitionAssertions" and index == 0:
                if name == "reduceInPlace":
                    rest = arg[label.end(0):]
                    edits.append((begin + label.start(1), begin + label.end(0) + len(rest) - len(rest.lstrip()), ""))
                elif name is None and arg.strip():
                    lead = len(arg) - len(arg.lstrip())
                    edits.append((begin + lead, begin + lead, "reduceReturning: "))
        out.append(text[pos:match.end()])
        cursor = match.end()
        for begin, end, replacement in edits:
            out.append(text[cursor:begin])
            out.append(replacement)
            cursor = end
        # Nested calls inside the arguments are rewritten too.
        out.append(rewrite(text[cursor:close]))
        pos = close
    out.append(text[pos:])
    return "".join(out)


def rewrite_links(text):
    # DocC symbol links and prose spellings of the initializers.
    # Only this library's initializers: the old libraries' spellings
    # (ReactiveFeedback's Property(initial:reduce:feedbacks:)) stay.
    ours = r"((?:System|Store|TestSystem|\binit)\(initial:)"
    text = re.sub(ours + r"reduce:", r"\1reduceReturning:", text)
    text = re.sub(ours + r"reduceInPlace:", r"\1reduce:", text)
    text = text.replace("Reducer/init(returning:)", "Reducer/init(reduceReturning:)")
    text = text.replace("TransitionAssertions/init(_:reporter:)", "TransitionAssertions/init(reduceReturning:reporter:)")
    text = text.replace("TransitionAssertions/init(reduceInPlace:reporter:)", "TransitionAssertions/init(_:reporter:)")
    return text


for path in sys.argv[1:]:
    with open(path) as f:
        original = f.read()
    changed = rewrite_links(rewrite(original))
    if changed != original:
        with open(path, "w") as f:
            f.write(changed)
