#!/usr/bin/env bash
# Usage: check_pages.sh PAGE...: renders each manual page with `groff -man -ww -z` (all warnings,
# no output) and fails if any page is missing, fails to render or makes groff print anything.
# The pages are rendered in one run first; a page at fault is then found by rendering each alone.
set -uo pipefail
if ! command -v groff >/dev/null; then
  echo "groff is not installed (scripts/deps.sh groff-base installs it)" >&2
  exit 1
fi
[ $# -gt 0 ] || { echo "no pages given" >&2; exit 1; }
for page in "$@"; do
  [ -s "$page" ] || { echo "$page: missing or empty"; exit 1; }
done
# One groff for all the pages (starting groff is most of the time a page takes); only when it
# prints anything are the pages rendered one by one, to name the ones at fault.
out=$(groff -man -ww -z "$@" 2>&1); rc=$?
if [ $rc -eq 0 ] && [ -z "$out" ]; then
  echo "$# pages checked together: no warning or error"
  exit 0
fi
bad=0
for page in "$@"; do
  if [ ! -s "$page" ]; then
    echo "$page: missing or empty"; bad=$((bad + 1)); continue
  fi
  out=$(groff -man -ww -z "$page" 2>&1); rc=$?
  if [ $rc -ne 0 ] || [ -n "$out" ]; then
    echo "$page: groff exited $rc"; [ -n "$out" ] && echo "$out"; bad=$((bad + 1))
  fi
done
echo "$# pages checked, $bad missing or with warnings or errors"
[ $bad -eq 0 ]
