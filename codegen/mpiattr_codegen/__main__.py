"""python -m mpiattr_codegen --spec DIR --lang c|core --out DIR [--list-outputs]"""
from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path

import jinja2

from .load import load
from .model import SpecError

TEMPLATES = Path(__file__).parent / "templates"
LANGS = tuple(sorted(p.stem for p in (Path(__file__).parent / "lang").glob("*.py")
                     if p.stem != "__init__"))


def environment(spec, lang_mod) -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)),
                             undefined=jinja2.StrictUndefined, trim_blocks=True,
                             lstrip_blocks=True, keep_trailing_newline=True)
    env.filters.update(lang_mod.filters(spec))
    env.filters["hex"] = lambda v: f"0x{v:x}"
    return env


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="mpiattr_codegen")
    ap.add_argument("--spec", required=True)
    ap.add_argument("--lang", required=True, choices=LANGS)
    ap.add_argument("--out", required=True)
    ap.add_argument("--list-outputs", action="store_true")
    a = ap.parse_args(argv)
    lang_mod = importlib.import_module(f".lang.{a.lang}", __package__)
    out = Path(a.out).resolve()
    per_entry = hasattr(lang_mod, "outputs")  # a family whose outputs depend on the spec (man)
    if a.list_outputs and not per_entry:
        print("\n".join(str(out / path) for _, path in lang_mod.OUTPUTS))
        return 0
    try:
        spec = load(a.spec)
    except SpecError as e:
        print(f"mpiattr_codegen: {e}", file=sys.stderr)
        return 1
    # (template, path, context of that output only)
    outputs = (lang_mod.outputs(spec) if per_entry
               else [(t, p, {}) for t, p in lang_mod.OUTPUTS])
    if a.list_outputs:
        print("\n".join(str(out / path) for _, path, _ in outputs))
        return 0
    env = environment(spec, lang_mod)
    ctx = {"spec": spec, "sources": ", ".join(Path(f).name for f in spec.files)}
    ctx.update(lang_mod.context(spec))
    for template, path, extra in outputs:
        text = env.get_template(template).render(**ctx, **extra)
        dest = out / path
        dest.parent.mkdir(parents=True, exist_ok=True)
        if not dest.exists() or dest.read_text() != text:  # untouched files do not rebuild
            dest.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
