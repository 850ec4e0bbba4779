"""A stand-in for ``graphmend fix`` that exercises the harness's after-side, NOT our tool.

``python3 eval/standin_fix.py [--unsafe-fixes] FILE...`` rewrites, with ``--unsafe-fixes`` only,
every ``logger.<method>(`` / ``warnings.warn(`` call into a call of a no-op lambda (dropping the
message, like GM102's unsafe "skip while compiling" fix would under compile); without the flag it
changes nothing, like a fix run that finds no safe fix. It is a plain text substitution, good
enough to check that fixed copies are imported, measured, diffed and reported:

    eval/run.sh --fix-cmd "python3 eval/standin_fix.py" --families t5,layoutlmv3

The report marks results produced this way with the command's name.
"""

import re
import sys

CALL = re.compile(r"\b(?:logger\.(?:warning_once|warning|warn|info|debug|error)|warnings\.warn)\(")


def main(argv):
    unsafe = "--unsafe-fixes" in argv
    files = [a for a in argv if not a.startswith("--")]
    changed = 0
    for path in files:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        new = CALL.sub("(lambda *a, **k: None)(", text) if unsafe else text
        if new != text:
            changed += 1
            with open(path, "w", encoding="utf-8") as f:
                f.write(new)
    print("standin-fix: changed %d of %d file(s)" % (changed, len(files)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
