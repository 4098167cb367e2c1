#!/usr/bin/env bash
# What a user installs, checked as a user runs it: build the sdist and, from it, the wheel;
# install the wheel into a fresh virtual env (not editable, no source tree on the path); run
# the README's run command (the line after its `./scripts/setup.sh &&`) with that env's `pi`
# on the sample filings, then a `pi ask --json` whose reply must be an answer with citations.
# Needs .venv (scripts/setup.sh) for the build tool. Prints where it failed; exits non-zero.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/pi-wheel-XXXXXX")"
venv="$work/venv"
export PI_HOME="$work/home"
unset PI_DATABASE_URL PI_EMBEDDER PI_LLM_MODEL
stop_database() {
  if [ -x "$venv/bin/pi" ]; then "$venv/bin/pi" db stop >/dev/null 2>&1 || true; fi
  rm -rf "$work"
}
trap stop_database EXIT

step() { printf '\n== %s\n' "$*" >&2; }

step "build the sdist, then the wheel from it"
"$repo/.venv/bin/python" -m build --outdir "$work/dist" "$repo" >"$work/build.log" 2>&1 || {
  tail -40 "$work/build.log" >&2
  exit 1
}
ls "$work/dist" >&2

step "install the wheel into a fresh virtual env"
python3 -m venv "$venv"
pip_quiet=(-q --disable-pip-version-check)
"$venv/bin/python" -m pip install "${pip_quiet[@]}" torch==2.13.0  # the CPU build, first
"$venv/bin/python" -m pip install "${pip_quiet[@]}" "$work"/dist/*.whl

mkdir -p "$work/run"
cp -r "$repo/examples" "$work/run/"
cd "$work/run"  # nothing of the source tree is importable from here
installed="$("$venv/bin/python" -c 'import pageindex_platform as p; print(p.__file__)')"
case "$installed" in
  "$venv"/*) ;;
  *) echo "pageindex_platform was imported from $installed, not from the fresh env" >&2; exit 1 ;;
esac

step "the README's run command, with the installed pi"
readme_line="$(grep -m1 -E '^ +\./scripts/setup\.sh && \.venv/bin/pi ' "$repo/README.md")" || {
  echo "README.md has no run command of the form './scripts/setup.sh && .venv/bin/pi ...'" >&2
  exit 1
}
command="${readme_line#*./scripts/setup.sh && }"
command="${command//.venv\/bin\/pi/\"$venv/bin/pi\"}"
echo "$command" >&2
eval "$command"

step "pi ask --json"
"$venv/bin/pi" ask "Best Buy Q3 fiscal 2031 revenue" --json >"$work/ask.json"
"$venv/bin/python" - "$work/ask.json" <<'EOF'
import json
import sys

reply = json.load(open(sys.argv[1]))
if "error" in reply:
    sys.exit(f"pi ask --json failed: {reply['error']}")
if not reply.get("citations") or not reply.get("answer"):
    sys.exit(f"pi ask --json gave no answer with citations: {reply}")
first = reply["citations"][0]
print(f"answered with {len(reply['citations'])} citations, first {first['document']} p. {first['page']}")
EOF
step "the installed wheel works"
