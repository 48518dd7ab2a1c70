#!/usr/bin/env bash
# Installs the Debian packages mpiattr's build, tests and demo need, if any is missing.
# Usage: scripts/deps.sh [package ...]   (the core set is always checked)
set -euo pipefail
core=(cmake make g++ gcc gfortran python3 python3-jinja2 python3-pytest googletest libgtest-dev valgrind)
missing=()
for p in "${core[@]}" "$@"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing missing Debian packages: ${missing[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
