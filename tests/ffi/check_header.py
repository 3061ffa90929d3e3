#!/usr/bin/env python3
"""check_header.py: the header against api.md, and the library's exports against the header.

  check_header.py api-md FIXTURE HEADER
      Every declaration of api.md's code blocks (FIXTURE, tests/ffi/api_md_decls.txt) is in
      HEADER, normalized, in the same order; and every declaration of HEADER is in FIXTURE
      except the enums (api.md gives them as tables) and `struct X;` forward declarations.
  check_header.py exports LIBRARY HEADER
      The defined dynamic symbols of LIBRARY (nm -D --defined-only) are exactly the
      functions HEADER declares, both ways.

Exit 0 and "ok" when they agree; 1 and every difference otherwise.
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "scripts"))
from ffi_exports import declared_functions, top_level_statements  # noqa: E402


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def check_api_md(fixture_path, header_path):
    fixture = top_level_statements(read(fixture_path))
    header = top_level_statements(read(header_path))
    problems = []
    for decl in fixture:
        if decl not in header:
            problems.append("in api.md, not in the header: " + decl)
    for decl in header:
        # Enums (api.md gives them as tables), forward declarations, and the typedef names
        # of the opaque types (build-and-link.md's program writes `AdAdapter *`).
        table_owned = (decl.startswith("typedef enum{") or re.fullmatch(r"struct \w+;", decl)
                       or re.fullmatch(r"typedef struct (\w+) \1;", decl))
        if not table_owned and decl not in fixture:
            problems.append("in the header, not in api.md: " + decl)
    common = [d for d in fixture if d in header]
    in_header_order = [d for d in header if d in common]
    if not problems and common != in_header_order:
        problems.append("the header's declarations are not in api.md's order")
    return problems


def check_exports(library_path, header_path):
    out = subprocess.run(["nm", "-D", "--defined-only", library_path], check=True,
                         capture_output=True, text=True).stdout
    # Lines are "ADDRESS TYPE NAME[@VERSION]"; only code and data symbols count.
    exported = set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "TtDdBbRrVvWwi":
            exported.add(parts[2].split("@")[0])
    declared = set(declared_functions(read(header_path)))
    problems = ["exported, not declared: " + n for n in sorted(exported - declared)]
    problems += ["declared, not exported: " + n for n in sorted(declared - exported)]
    return problems


def main(argv):
    if len(argv) != 4 or argv[1] not in ("api-md", "exports"):
        sys.stderr.write(__doc__)
        return 2
    check = check_api_md if argv[1] == "api-md" else check_exports
    problems = check(argv[2], argv[3])
    for p in problems:
        print(p)
    print("ok" if not problems else "%d difference(s)" % len(problems))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
