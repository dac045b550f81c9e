#!/bin/sh
# setup_reference.sh - the Mitsuba 3 environment of tools/compare_reference.py and of the
# `reference` test: a Python virtual environment in .venv-reference holding Mitsuba 3 and
# Dr.Jit (pinned), NumPy, NVIDIA's FLIP and the OpenEXR bindings (the denoiser's quality tool
# and the EXR interoperability test) from PyPI, plus Debian's python3-venv and, where the
# distribution has it, libllvm19 (Mitsuba's fast llvm_ad_rgb variant needs LLVM 19; older ones
# crash it; without it the tool falls back to the slower scalar_rgb). tools/setup.sh runs this;
# running it again does nothing once everything is there.
set -eu
cd "$(dirname "$0")/.."
venv=.venv-reference
want="mitsuba==3.9.1 drjit==1.5.0 numpy>=1.24,<3 flip-evaluator==1.7 OpenEXR==3.5.3"
if [ -x $venv/bin/python ] && $venv/bin/python -c 'import mitsuba, drjit, numpy, flip_evaluator, OpenEXR' 2>/dev/null; then
    exit 0
fi
missing=""
for p in python3-venv libllvm19; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" && continue
    if [ "$p" = libllvm19 ] && ! apt-cache show libllvm19 >/dev/null 2>&1; then
        echo "setup_reference.sh: no libllvm19 in this distribution; Mitsuba will use scalar_rgb"
        continue
    fi
    missing="$missing $p"
done
if [ -n "$missing" ]; then
    if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
    # shellcheck disable=SC2086
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing
fi
rm -rf $venv
/usr/bin/python3 -m venv $venv
# shellcheck disable=SC2086
$venv/bin/python -m pip install -q --disable-pip-version-check $want
echo "setup_reference.sh: Mitsuba reference environment ready in $venv"
