#!/usr/bin/env bash
# Install what the studio needs, only what is missing, then the project in .venv.
#   scripts/setup.sh render   system libraries, ffmpeg, CJK and symbol fonts, Python environment
#   scripts/setup.sh test     the same, plus the real clients the tests drive: Chromium and its
#                             driver (the rehearsal page), LibreOffice Impress and poppler (the deck)
# Python packages come at the versions in constraints.txt, the ones the tests ran with.
# Idempotent and quick when everything is there. Where it cannot install (not root and no
# sudo, or not Debian), it stops and names exactly what to install.
set -euo pipefail
cd "$(dirname "$0")/.."

purpose="${1:-render}"
# The notes' marks (⭐ ⛔ 🖥 ⚠): Noto Color Emoji for the page in the browser, Symbola for the
# deck (Impress exports Noto Color Emoji's glyphs blank, so the deck names Symbola for them).
render_pkgs=(pkg-config libcairo2-dev libpango1.0-dev ffmpeg fonts-noto-cjk fonts-dejavu-core fonts-noto-color-emoji fonts-symbola)
test_pkgs=(chromium chromium-driver libreoffice-impress poppler-utils)
pkgs=("${render_pkgs[@]}")
[ "$purpose" = test ] && pkgs+=("${test_pkgs[@]}")

say() { printf 'setup: %s\n' "$*" >&2; }

missing_debian() {
  local p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || printf '%s ' "$p"
  done
}

missing_elsewhere() {
  # Not Debian: check for the capabilities themselves.
  pkg-config --exists cairo pangocairo 2>/dev/null || printf 'cairo+pango development headers and pkg-config; '
  command -v ffmpeg >/dev/null || printf 'ffmpeg (with libx264); '
  fc-match --format='%{family}' 'Noto Sans CJK SC' 2>/dev/null | grep -q 'Noto Sans CJK SC' || printf 'the font Noto Sans CJK SC; '
  fc-list 'Symbola' family 2>/dev/null | grep -q Symbola || printf 'the font Symbola; '
  fc-list 'Noto Color Emoji' family 2>/dev/null | grep -q 'Noto Color Emoji' || printf 'the font Noto Color Emoji; '
  if [ "$purpose" = test ]; then
    command -v chromium >/dev/null || command -v chromium-browser >/dev/null || printf 'chromium; '
    command -v chromedriver >/dev/null || printf 'chromedriver; '
    command -v soffice >/dev/null || printf 'LibreOffice Impress (soffice); '
    command -v pdftotext >/dev/null || printf 'poppler (pdftotext, pdffonts, pdfimages); '
  fi
}

install_system() {
  if command -v dpkg-query >/dev/null && command -v apt-get >/dev/null; then
    local missing
    missing="$(missing_debian "${pkgs[@]}")"
    [ -z "$missing" ] && return 0
    local sudo=""
    if [ "$(id -u)" -ne 0 ]; then
      if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then sudo="sudo -n"; else
        say "missing system packages and no root: run  sudo apt-get install -y $missing"; exit 1
      fi
    fi
    say "installing system packages: $missing"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
  else
    local missing
    missing="$(missing_elsewhere)"
    if [ -n "$missing" ]; then
      say "this is not a Debian-like system; please install: ${missing%; }"; exit 1
    fi
  fi
}

python_bin() {
  local candidate
  for candidate in python3.11 python3.12 python3.13 python3; do
    if command -v "$candidate" >/dev/null && "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
      echo "$candidate"; return 0
    fi
  done
  say "Python 3.11 or newer is needed (python3 --version says: $(python3 --version 2>&1))"; exit 1
}

install_python() {
  local stamp=.venv/.installed want
  want="$(cat pyproject.toml constraints.txt | sha256sum | cut -c1-16)-$purpose"
  if [ -f "$stamp" ] && grep -qx -- "$want" "$stamp" 2>/dev/null; then return 0; fi
  if [ ! -x .venv/bin/python ]; then
    say "creating the virtual environment in .venv"
    "$(python_bin)" -m venv .venv || { say "python -m venv failed: on Debian, apt-get install python3-venv"; exit 1; }
  fi
  say "installing the project into .venv"
  local target=. log=.venv/setup.log
  [ "$purpose" = test ] && target='.[test]'
  if ! { .venv/bin/python -m pip install --upgrade pip && .venv/bin/python -m pip install -c constraints.txt -e "$target"; } >"$log" 2>&1; then
    tail -n 30 "$log" >&2; say "pip could not install the project (full log: $log)"; exit 1
  fi
  echo "$want" > "$stamp"
}

install_system
install_python
