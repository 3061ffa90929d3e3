#!/usr/bin/env python3
"""ffi_exports.py: the functions include/agent_desktop.h declares, the one list of the ABI.

  ffi_exports.py --version-script HEADER OUT   writes the linker version script that
                                               exports exactly those functions
  ffi_exports.py --names HEADER                prints them, one a line (the tests use it)

A declaration is a top-level prototype `TYPE name(ARGS);` outside comments and macros.
"""
import re
import sys


def top_level_statements(c_text):
    """The top-level declarations of C text, each ending at a ';' outside braces, with
    comments, preprocessor lines and the C++ linkage wrapper removed and whitespace
    normalized (one space between words, none around punctuation)."""
    text = re.sub(r"/\*.*?\*/", " ", c_text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    # The C++ linkage wrapper (#ifdef __cplusplus ... #endif) holds no declarations.
    text = re.sub(r"#ifdef __cplusplus.*?#endif", " ", text, flags=re.S)
    text = re.sub(r"^\s*#[^\n]*", " ", text, flags=re.M)
    statements = []
    depth = 0
    stmt = []
    for ch in text:
        depth += (ch == "{") - (ch == "}")
        if ch == ";" and depth == 0:
            s = " ".join("".join(stmt).split())
            s = re.sub(r"\s*([(){}\[\],;*])\s*", r"\1", s)
            statements.append(s + ";")
            stmt = []
        else:
            stmt.append(ch)
    return statements


def declared_functions(header_text):
    """The names of the functions declared in header_text, in order."""
    names = []
    for s in top_level_statements(header_text):
        m = re.match(r"^[\w\s*]*?\b(ad_\w+)\(", s)
        if m and not s.startswith("typedef"):
            names.append(m.group(1))
    return names


def main(argv):
    if len(argv) == 4 and argv[1] == "--version-script":
        with open(argv[2], encoding="utf-8") as f:
            names = declared_functions(f.read())
        with open(argv[3], "w", encoding="utf-8") as out:
            out.write("/* Generated from agent_desktop.h by scripts/ffi_exports.py. */\n")
            out.write("{\n  global:\n")
            for n in names:
                out.write("    %s;\n" % n)
            out.write("  local:\n    *;\n};\n")
        return 0
    if len(argv) == 3 and argv[1] == "--names":
        with open(argv[2], encoding="utf-8") as f:
            print("\n".join(declared_functions(f.read())))
        return 0
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
