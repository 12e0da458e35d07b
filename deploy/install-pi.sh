#!/usr/bin/env bash
# install-pi.sh: install the Gambit Table Companion as a service on Raspberry Pi OS
# (Bookworm) or Debian 12, from this checkout. Run it with sudo:
#
#     sudo deploy/install-pi.sh
#
# It copies the checkout to /opt/gambit-companion, sets it up there (system packages,
# virtual environment), creates the unprivileged user "companion" in the video and audio
# groups, keeps the settings in /etc/gambit-companion/companion.toml (never overwritten),
# installs the systemd unit and starts it. Run it again to update: tables are kept in
# /var/lib/gambit-companion. DRY_RUN=1 prints what it would do and changes nothing.
set -euo pipefail

SOURCE="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd)"
INSTALL_DIR=/opt/gambit-companion
CONFIG_DIR=/etc/gambit-companion
DATA_DIR=/var/lib/gambit-companion
UNIT=gambit-companion.service
SERVICE_USER=companion

run() {
    if [[ "${DRY_RUN:-0}" == 1 ]]; then
        printf '+ %s\n' "$*"
    else
        "$@"
    fi
}

# The service's data directory, named in its settings file too: a shell on the Pi (`sudo -u
# companion companion tables`) reads that file, not the unit's environment. A file kept from
# an earlier install, which had no such line, gets one; a data directory chosen there is kept.
name_data_dir() {  # FILE
    if grep -q '^data = ""' "$1"; then
        sed -i "s|^data = \"\"|data = \"$DATA_DIR\"|" "$1"
    elif ! grep -q '^data *=' "$1"; then
        printf '\n# the tables, key and caches (install-pi.sh)\ndata = "%s"\n' "$DATA_DIR" >>"$1"
    fi
}

if [[ "${DRY_RUN:-0}" != 1 && $EUID -ne 0 ]]; then
    echo "install-pi.sh: run it as root: sudo $0" >&2
    exit 1
fi

echo "Installing the Gambit Table Companion from $SOURCE"
if ! command -v rsync >/dev/null 2>&1; then
    run apt-get install -y --no-install-recommends rsync
fi

# 1. The user the service runs as: no login, no home of its own, camera and sound groups.
if ! id -u "$SERVICE_USER" >/dev/null 2>&1; then
    run useradd --system --user-group --no-create-home --home-dir "$DATA_DIR" \
        --shell /usr/sbin/nologin "$SERVICE_USER"
fi
run usermod --append --groups video,audio "$SERVICE_USER"

# 2. The code, owned by root (the service may read it, never change it).
run mkdir -p "$INSTALL_DIR"
run rsync -a --delete --exclude .git --exclude .venv --exclude '__pycache__' \
    --exclude '.pytest_cache' --exclude '.mypy_cache' --exclude '.ruff_cache' \
    "$SOURCE/" "$INSTALL_DIR/"
run "$INSTALL_DIR/deploy/setup.sh"
# The service may not write the code's folder, so Python could not keep the compiled modules
# and would compile every one again at each start (seconds on a Pi): compile them once here.
run "$INSTALL_DIR/.venv/bin/python" -m compileall -q "$INSTALL_DIR/companion"
run chown -R root:root "$INSTALL_DIR"
run chmod -R go-w "$INSTALL_DIR"

# 3. Settings (kept when they exist) and the data directory.
run mkdir -p "$CONFIG_DIR"
if [[ ! -e "$CONFIG_DIR/companion.toml" ]]; then
    run install -m 0644 "$SOURCE/deploy/companion.toml" "$CONFIG_DIR/companion.toml"
fi
run name_data_dir "$CONFIG_DIR/companion.toml"
run install -d -m 0750 -o "$SERVICE_USER" -g "$SERVICE_USER" "$DATA_DIR"

# 4. The service.
run install -m 0644 "$SOURCE/deploy/$UNIT" "/etc/systemd/system/$UNIT"
run systemctl daemon-reload
run systemctl enable "$UNIT"
run systemctl restart "$UNIT"

# 5. What the host needs to know.
run runuser -u "$SERVICE_USER" -- env COMPANION_CONFIG="$CONFIG_DIR/companion.toml" \
    COMPANION_DATA="$DATA_DIR" "$INSTALL_DIR/.venv/bin/companion" doctor || true
address="$(hostname -I 2>/dev/null | awk '{print $1}')"
echo "Done. Phones on this network: http://${address:-<this Pi>}:8000/"
echo "Logs: journalctl -u $UNIT -f     Settings: $CONFIG_DIR/companion.toml"
