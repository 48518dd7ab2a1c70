#!/usr/bin/env bash
# Usage: check_pages.sh PAGE...: renders each manual page with `groff -man -ww -z` (all warnings,
# no output) and fails if any page is missing, fails to render or makes groff print anything.
set -uo pipefail
if ! command -v groff >/dev/null; then
  echo "groff is not installed (scripts/deps.sh groff-base installs it)" >&2
  exit 1
fi
[ $# -gt 0 ] || { echo "no pages given" >&2; exit 1; }
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
