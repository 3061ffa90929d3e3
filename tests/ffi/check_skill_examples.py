#!/usr/bin/env python3
"""check_skill_examples.py: the ffi skill's code is real (skills/agent-desktop-ffi).

  check_skill_examples.py SKILL_DIR INCLUDE_DIR LIBRARY SANITIZE -- CC...

For every Markdown file of SKILL_DIR (SKILL.md and references/*.md):
  - each ```c block is a whole translation unit: it is compiled alone against INCLUDE_DIR's
    agent_desktop.h with -std=c11 -Wall -Wextra -Werror -pedantic -fsyntax-only, and a block
    that defines main() is also compiled and linked against LIBRARY, so every function it
    calls is one the library exports;
  - each ```python block parses.
Then every function agent_desktop.h declares must be named in SKILL.md (its table of every
function group). A name written `ad_x_count/get/free` names ad_x_count, ad_x_get and
ad_x_free. SANITIZE is meson's b_sanitize ("none" or e.g. "address,undefined"): the link
uses it too, as the library was built with it.

Prints one TAP line per check and exits 1 when any failed.
"""
import ast
import re
import subprocess
import sys
import tempfile
from pathlib import Path

FENCE = re.compile(r"^```([a-z]*)\n(.*?)^```", re.M | re.S)
DECL = re.compile(r"\b(ad_[a-z0-9_]+)\s*\(")
MAIN = re.compile(r"\bint\s+main\s*\(")
NAMED = re.compile(r"\bad_[a-z0-9_]+(?:/[a-z0-9_]+)*")


def blocks(path):
    """(language, code, line) of every fenced block of a Markdown file."""
    text = path.read_text()
    for m in FENCE.finditer(text):
        yield m.group(1), m.group(2), text.count("\n", 0, m.start()) + 1


def header_functions(header):
    """The functions the header declares (prototypes, not macros or struct members)."""
    text = re.sub(r"/\*.*?\*/|//[^\n]*", "", header.read_text(), flags=re.S)
    return sorted(set(DECL.findall(text)))


def named_functions(text):
    """Every ad_* name the text mentions, with a/b/c shorthands expanded."""
    names = set()
    for token in NAMED.findall(text):
        first, *rest = token.split("/")
        names.add(first)
        base = first[: first.rfind("_") + 1]
        names.update(base + r for r in rest)
    return names


class Tap:
    def __init__(self):
        self.n = 0
        self.failed = 0

    def check(self, name, ok, why=""):
        self.n += 1
        if ok:
            print(f"ok {self.n} - {name}")
        else:
            self.failed += 1
            print(f"not ok {self.n} - {name}")
            for line in why.strip().splitlines():
                print(f"#   {line}")


def compile_c(cc, code, include, library, sanitize, tmp):
    """'' when the block compiles (and, with a main, links), else the compiler's output."""
    src = Path(tmp) / "example.c"
    src.write_text(code)
    flags = ["-std=c11", "-Wall", "-Wextra", "-Werror", "-pedantic", "-I", str(include)]
    steps = [cc + flags + ["-fsyntax-only", str(src)]]
    if MAIN.search(code):
        san = [f"-fsanitize={sanitize}"] if sanitize not in ("", "none") else []
        steps.append(cc + flags + san + [str(src), str(library), "-o", str(Path(tmp) / "a.out")])
    for cmd in steps:
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            return " ".join(cmd) + "\n" + r.stdout + r.stderr
    return ""


def main(argv):
    if len(argv) < 7 or argv[5] != "--":
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    skill, include, library, sanitize = Path(argv[1]), Path(argv[2]), Path(argv[3]), argv[4]
    cc = argv[6:]
    docs = [skill / "SKILL.md"] + sorted((skill / "references").glob("*.md"))
    tap = Tap()
    n_c = 0
    with tempfile.TemporaryDirectory() as tmp:
        for doc in docs:
            for lang, code, line in blocks(doc):
                where = f"{doc.relative_to(skill)}:{line}"
                if lang == "c":
                    n_c += 1
                    why = compile_c(cc, code, include, library, sanitize, tmp)
                    tap.check(f"{where} compiles" + (" and links" if MAIN.search(code) else ""),
                              not why, why)
                elif lang == "python":
                    try:
                        ast.parse(code)
                        tap.check(f"{where} parses as Python", True)
                    except SyntaxError as e:
                        tap.check(f"{where} parses as Python", False, str(e))
    tap.check("the skill has C examples", n_c > 0)
    missing = [f for f in header_functions(include / "agent_desktop.h")
               if f not in named_functions((skill / "SKILL.md").read_text())]
    tap.check("SKILL.md names every function of agent_desktop.h", not missing,
              "missing: " + ", ".join(missing))
    print(f"1..{tap.n}")
    return 1 if tap.failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
