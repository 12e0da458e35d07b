#!/usr/bin/env bash
# deploy/setup.sh [--test]
#
# Prepare this checkout to run the companion: system packages (apt), Python
# check, a virtual environment in .venv and `pip install -e .` (or `.[test]`).
# Idempotent and quick when nothing changed. Works on Debian 12 / Raspberry Pi
# OS Bookworm, as root or as a user with sudo.
#
#   --test   also install the test extra (pytest, ruff, mypy, ...) and the
#            test-only system packages in APT_TEST_PACKAGES.
#
# Environment: PYTHON (default python3) picks the interpreter for the venv.
set -Eeuo pipefail

# ---- what to install ---------------------------------------------------------
# System packages the companion always needs (Debian package names).
APT_PACKAGES=(libzbar0 espeak-ng libportaudio2)
# Test-only system packages, installed only with --test: Chromium for the dashboard's browser
# tests and libatomic1 for Playwright's own node driver (Chromium does not pull it in: a bare
# Debian lacked it), shellcheck and systemd-analyze for the deploy scripts and unit.
APT_TEST_PACKAGES=(chromium libatomic1 shellcheck systemd)
MIN_PYTHON=(3 11)
# ------------------------------------------------------------------------------

PYTHON="${PYTHON:-python3}"
ROOT="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd -P)"
VENV="$ROOT/.venv"
STAMP="$VENV/.setup-stamp"

STEP="parsing arguments"
REPORTED=0
on_exit() {
    local rc=$?
    if ((rc != 0 && REPORTED == 0)); then
        echo "setup: FAILED while ${STEP} (exit status ${rc})" >&2
    fi
}
trap on_exit EXIT

say() { echo "setup: $*"; }
die() {
    echo "setup: ERROR while ${STEP}: $*" >&2
    REPORTED=1
    exit 1
}

usage() { sed -n '2,12s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; }

WITH_TEST=0
for arg in "$@"; do
    case "$arg" in
        --test) WITH_TEST=1 ;;
        -h | --help) usage; exit 0 ;;
        *) usage >&2; die "unknown argument: $arg" ;;
    esac
done

cd "$ROOT"

# ---- helpers -----------------------------------------------------------------
python_is_new_enough() { # $1 = interpreter
    "$1" -c "import sys; sys.exit(sys.version_info[:2] < (${MIN_PYTHON[0]}, ${MIN_PYTHON[1]}))" \
        >/dev/null 2>&1
}

venv_is_usable() {
    [[ -x "$VENV/bin/python" && -x "$VENV/bin/pip" ]] && python_is_new_enough "$VENV/bin/python"
}

pkg_installed() { # $1 = package name
    local status
    status="$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null || true)"
    [[ "$status" == *"install ok installed"* ]]
}

# ---- 1. system packages --------------------------------------------------------
STEP="checking system packages"
wanted=("${APT_PACKAGES[@]}")
if ((WITH_TEST)); then
    wanted+=("${APT_TEST_PACKAGES[@]}")
fi
NEED_VENV=1
if venv_is_usable; then
    NEED_VENV=0
fi
if ! command -v "$PYTHON" >/dev/null 2>&1; then
    [[ "$PYTHON" == python3 ]] || die "PYTHON=$PYTHON not found"
    wanted+=(python3 python3-venv)
elif ((NEED_VENV)) && ! "$PYTHON" -c 'import ensurepip, venv' >/dev/null 2>&1; then
    # Debian ships `venv`'s ensurepip in a separate package.
    wanted+=(python3-venv)
fi

if command -v dpkg-query >/dev/null 2>&1; then
    missing=()
    for pkg in "${wanted[@]}"; do
        pkg_installed "$pkg" || missing+=("$pkg")
    done
    if ((${#missing[@]})); then
        STEP="installing system packages (${missing[*]})"
        SUDO=()
        if ((EUID != 0)); then
            if command -v sudo >/dev/null 2>&1; then
                SUDO=(sudo)
            else
                die "not root and sudo is not available. As root, run:
    apt-get update && apt-get install -y --no-install-recommends ${missing[*]}
then run $0 again."
            fi
        fi
        say "installing system packages: ${missing[*]}"
        apt_opts=(-o DPkg::Lock::Timeout=300)
        "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get "${apt_opts[@]}" -q update \
            || die "apt-get update failed"
        "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get "${apt_opts[@]}" -q install -y \
            --no-install-recommends "${missing[@]}" \
            || die "apt-get install ${missing[*]} failed"
    fi
else
    say "WARNING: no dpkg-query (not Debian?); make sure these are installed: ${wanted[*]}" >&2
fi

# ---- 2. python -------------------------------------------------------------------
STEP="checking Python"
command -v "$PYTHON" >/dev/null 2>&1 || die "$PYTHON not found; install Python >= 3.11"
if ! python_is_new_enough "$PYTHON"; then
    found="$("$PYTHON" -c 'import sys; print(sys.version.split()[0])' 2>/dev/null || echo unknown)"
    die "Python >= ${MIN_PYTHON[0]}.${MIN_PYTHON[1]} is required, but $(command -v "$PYTHON") is ${found}.
Debian 12 / Raspberry Pi OS Bookworm ship 3.11; on older systems upgrade the OS
or point PYTHON=/path/to/python3.11 at a newer interpreter."
fi

# ---- 3. virtual environment --------------------------------------------------------
if ((NEED_VENV)); then
    STEP="creating .venv"
    if [[ -e "$VENV" ]]; then
        say "recreating .venv (missing pip or interpreter, or Python too old)"
        rm -rf -- "$VENV"
    else
        say "creating .venv"
    fi
    "$PYTHON" -m venv "$VENV" || { rm -rf -- "$VENV"; die "python3 -m venv failed"; }
fi

# ---- 4. python packages ------------------------------------------------------------
STEP="installing Python packages"
pyproject_hash="$(sha256sum pyproject.toml | cut -d' ' -f1)"
stamp_for() { printf 'pyproject=%s extras=%s\n' "$pyproject_hash" "$1"; }
if ((WITH_TEST)); then
    target=".[test]"
    want_stamp="$(stamp_for test)"
    ok_stamps=("$want_stamp")
else
    target="."
    want_stamp="$(stamp_for none)"
    # An install with the test extra also satisfies a plain one.
    ok_stamps=("$want_stamp" "$(stamp_for test)")
fi
have_stamp="$(cat "$STAMP" 2>/dev/null || true)"
up_to_date=0
for s in "${ok_stamps[@]}"; do
    [[ "$have_stamp" == "$s" ]] && up_to_date=1
done
if ((up_to_date)); then
    say "up to date"
else
    say "installing Python packages: pip install -e '$target'"
    rm -f -- "$STAMP"
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --no-input \
        -e "$target" || die "pip install -e '$target' failed"
    printf '%s\n' "$want_stamp" >"$STAMP"
    say "done"
fi
