#!/usr/bin/env python3
"""The EBNF grammar of docs/language.md, held to the parser both ways.

  grammar.py check LANGUAGE.md FILE.arvr...
      Every file matches the grammar (a recogniser built from the EBNF);
      prints "N files match the grammar", or the first that does not.
  grammar.py generate LANGUAGE.md COUNT OUT_DIR SEED
      Writes COUNT programs generated at random from the grammar.
  grammar.py agree LANGUAGE.md LOG_DIR FILE.arvr...
      For each file (arvrc's diagnostics in LOG_DIR/NAME.arvr.log): the
      grammar rejects it exactly when the parser reports a syntax error.
  grammar.py syntax-errors LOG...
      Prints each diagnostic of arvrc's logs that the parser or the lexer
      gives (a syntax error, not a semantic one); exit 1 if there is one.
"""
import random
import re
import sys
from pathlib import Path

KEYWORDS = {"kernel", "func", "const", "let", "return", "in", "true", "false",
            "schedule"}
PUNCTUATION = ["->", "..", "||", "&&", "==", "!=", "<=", ">=", "(", ")", "{",
               "}", "[", "]", ",", ";", ":", ".", "+", "-", "*", "/", "%",
               "<", ">", "=", "!"]


# --- The EBNF: a tree of ("seq", items), ("alt", items), ("rep", item),
# --- ("opt", item), ("lit", text), ("ref", name), ("word", CLASS).

def read_grammar(markdown):
    text = Path(markdown).read_text()
    block = re.search(r"```ebnf\n(.*?)```", text, re.S)
    if not block:
        sys.exit(f"{markdown}: no ```ebnf block")
    tokens = re.findall(r'"[^"]*"|[A-Za-z][A-Za-z0-9-]*|[=;|{}\[\]()]',
                        block.group(1))
    rules, i = {}, 0

    def alternatives():
        nonlocal i
        options = [sequence()]
        while i < len(tokens) and tokens[i] == "|":
            i += 1
            options.append(sequence())
        return options[0] if len(options) == 1 else ("alt", options)

    def sequence():
        nonlocal i
        items = []
        while i < len(tokens) and tokens[i] not in ("|", ";", ")", "}", "]"):
            t = tokens[i]
            i += 1
            if t in ("{", "[", "("):
                inner = alternatives()
                close = {"{": "}", "[": "]", "(": ")"}[t]
                if tokens[i] != close:
                    sys.exit(f"grammar: expected {close} at token {i}")
                i += 1
                items.append(("rep", inner) if t == "{" else
                             ("opt", inner) if t == "[" else inner)
            elif t.startswith('"'):
                items.append(("lit", t[1:-1]))
            elif t.isupper():
                items.append(("word", t))
            else:
                items.append(("ref", t))
        return items[0] if len(items) == 1 else ("seq", items)

    while i < len(tokens):
        name = tokens[i]
        if tokens[i + 1] != "=":
            sys.exit(f"grammar: expected '=' after {name}")
        i += 2
        rules[name] = alternatives()
        if tokens[i] != ";":
            sys.exit(f"grammar: expected ';' after the rule {name}")
        i += 1
    for name, rule in rules.items():
        for ref in references(rule):
            if ref not in rules:
                sys.exit(f"grammar: {name} uses {ref}, which is not defined")
    return rules


def references(node):
    kind = node[0]
    if kind == "ref":
        yield node[1]
    elif kind in ("seq", "alt"):
        for item in node[1]:
            yield from references(item)
    elif kind in ("rep", "opt"):
        yield from references(node[1])


# --- Words, as the lexer makes them.

def tokenize(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    out, i = [], 0
    number = re.compile(r"(\d*\.(?!\.)\d*([eE][+-]?\d+)?|\d+[eE][+-]?\d+)")
    while i < len(text):
        if text[i].isspace():
            i += 1
            continue
        m = re.match(r"[A-Za-z_][A-Za-z0-9_]*", text[i:])
        if m:
            out.append(("KEYWORD" if m.group() in KEYWORDS else "IDENT",
                        m.group()))
            i += m.end()
            continue
        m = number.match(text, i)
        if m and m.end() > i and re.search(r"\d", m.group()):
            out.append(("NUMBER", m.group()))
            i = m.end()
            continue
        m = re.match(r"\d+", text[i:])
        if m:
            out.append(("INTEGER", m.group()))
            i += m.end()
            continue
        for p in PUNCTUATION:
            if text.startswith(p, i):
                out.append(("PUNCT", p))
                i += len(p)
                break
        else:
            raise ValueError(f"unexpected character {text[i]!r}")
    return out


REDUCERS = {"sum", "product", "min", "max", "argmin", "argmax"}


def matches_word(token, word):
    kind, text = token
    if word == "CHANNELS":
        return kind == "INTEGER" and 1 <= int(text) <= 4
    if word == "OUTPUT-NAME":
        return kind == "IDENT" and text not in ("image", "nv12")
    if word == "CALLEE":
        return kind == "IDENT" and text not in REDUCERS
    return kind == word


# --- Recognition: the set of positions each node can end at.

def recognise(rules, tokens):
    memo = {}

    def ends(node, pos):
        kind = node[0]
        if kind == "lit":
            ok = pos < len(tokens) and tokens[pos][1] == node[1] and \
                tokens[pos][0] in ("PUNCT", "KEYWORD", "IDENT")
            return {pos + 1} if ok else set()
        if kind == "word":
            ok = pos < len(tokens) and matches_word(tokens[pos], node[1])
            return {pos + 1} if ok else set()
        if kind == "ref":
            key = (node[1], pos)
            if key not in memo:
                memo[key] = set()
                memo[key] = ends(rules[node[1]], pos)
            return memo[key]
        if kind == "alt":
            return set().union(*(ends(item, pos) for item in node[1]))
        if kind == "opt":
            return {pos} | ends(node[1], pos)
        if kind == "rep":
            seen, frontier = {pos}, {pos}
            while frontier:
                frontier = set().union(*(ends(node[1], p) for p in frontier))
                frontier -= seen
                seen |= frontier
            return seen
        positions = {pos}
        for item in node[1]:
            positions = set().union(*(ends(item, p) for p in positions))
            if not positions:
                break
        return positions

    return len(tokens) in ends(("ref", "file"), 0)


# --- Generation, depth-limited.

def generate(rules, rng, depth_limit=7):
    cost = {name: 10**9 for name in rules}

    def node_cost(node):
        kind = node[0]
        if kind in ("lit", "word"):
            return 1
        if kind == "ref":
            return cost[node[1]]
        if kind == "alt":
            return min(node_cost(i) for i in node[1])
        if kind in ("rep", "opt"):
            return 0
        return sum(node_cost(i) for i in node[1])

    for _ in range(len(rules) + 1):
        for name, rule in rules.items():
            cost[name] = min(cost[name], node_cost(rule) + 1)

    words = {
        "IDENT": lambda: rng.choice(["x", "y", "c", "src", "out", "k", "sum",
                                     "min", "image", "u8", "a_1", "_t"]),
        "INTEGER": lambda: str(rng.choice([0, 1, 2, 3, 7, 255])),
        "NUMBER": lambda: rng.choice(["1.5", ".5", "2.", "1e-3", "0.25E+2"]),
        "CHANNELS": lambda: str(rng.randint(1, 4)),
        "OUTPUT-NAME": lambda: rng.choice(["out", "k", "a_1", "grey"]),
        "CALLEE": lambda: rng.choice(["src", "abs", "f32", "clamp", "k"]),
    }

    def emit(node, depth, out):
        kind = node[0]
        if kind == "lit":
            out.append(node[1])
        elif kind == "word":
            out.append(words[node[1]]())
        elif kind == "ref":
            emit(rules[node[1]], depth + 1, out)
        elif kind == "alt":
            options = node[1]
            if depth > depth_limit:
                cheapest = min(node_cost(o) for o in options)
                options = [o for o in options if node_cost(o) == cheapest]
            emit(rng.choice(options), depth, out)
        elif kind == "opt":
            if depth <= depth_limit and rng.random() < 0.5:
                emit(node[1], depth, out)
        elif kind == "rep":
            times = rng.choice([0, 1, 1, 2, 3]) if depth <= depth_limit else 0
            for _ in range(times):
                emit(node[1], depth, out)
        else:
            for item in node[1]:
                emit(item, depth, out)

    out = []
    emit(("ref", "file"), 0, out)
    return " ".join(out)


# Messages only the parser and the lexer give (frontend/lib/Parser.cpp,
# Lexer.cpp): anything else is a semantic error.
SYNTAX = re.compile(
    r": error: (expected |the outputs in a list are named|a kernel has only "
    r"one schedule|integer '.*' is too large for a directive|an image has 1 "
    r"to 4 channels|unknown type|unknown boundary mode .*constant\(v\)|"
    r"a reduction variable "
    r"must be a name|'.*' takes at most two ranges|'.*' is not a reduction|integer "
    r"literal|number '.*' is too large|expression is nested too deeply|"
    r"invalid number|missing digits|unterminated|unexpected character)")


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else ""
    if mode == "check":
        rules = read_grammar(sys.argv[2])
        files = sys.argv[3:]
        for f in files:
            if not recognise(rules, tokenize(Path(f).read_text())):
                sys.exit(f"{f}: does not match the grammar")
        print(f"{len(files)} files match the grammar")
    elif mode == "generate":
        rules = read_grammar(sys.argv[2])
        count, out, seed = int(sys.argv[3]), Path(sys.argv[4]), sys.argv[5]
        rng = random.Random(seed)
        out.mkdir(parents=True, exist_ok=True)
        kernels = 0
        for n in range(count):
            program = generate(rules, rng)
            # The grammar's own recogniser accepts what it generated.
            assert recognise(rules, tokenize(program)), program
            kernels += program.count("kernel ")
            (out / f"g{n:03}.arvr").write_text(program + "\n")
        print(f"{count} programs, {kernels} kernels")
    elif mode == "agree":
        rules = read_grammar(sys.argv[2])
        logs, files = Path(sys.argv[3]), sys.argv[4:]
        syntax_files, disagree = 0, []
        for f in files:
            log = (logs / (Path(f).name + ".log")).read_text()
            parser_says = any(SYNTAX.search(l) for l in log.splitlines())
            syntax_files += parser_says
            try:
                grammar_says = not recognise(rules, tokenize(Path(f).read_text()))
            except ValueError:  # a character the lexer refuses
                grammar_says = True
            if parser_says != grammar_says:
                disagree.append(f)
        for f in disagree:
            print(f"{f}: the grammar and the parser disagree")
        print(f"{len(files)} files, {syntax_files} with syntax errors, "
              f"{len(disagree)} disagreements")
        sys.exit(1 if disagree else 0)
    elif mode == "syntax-errors":
        bad = [line for f in sys.argv[2:] for line in
               Path(f).read_text().splitlines() if SYNTAX.search(line)]
        for line in bad:
            print(line)
        print(f"{len(bad)} syntax errors")
        sys.exit(1 if bad else 0)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
