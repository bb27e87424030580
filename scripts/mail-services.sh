#!/usr/bin/env bash
# Throwaway mail servers for the tests: a real IMAP server (Debian's dovecot) and a
# small SMTP server (tests/support/smtp_server.py, aiosmtpd) that delivers every message
# into the recipient's dovecot maildir, both on loopback.
#
#   scripts/mail-services.sh install     install dovecot-imapd (and mutt, the Debian MUA the mail tests send
#                                         with in batch mode) if missing (what `start` does first)
#   scripts/mail-services.sh start       install dovecot-imapd if missing, start both (idempotent)
#   scripts/mail-services.sh stop        stop both (idempotent)
#   scripts/mail-services.sh status      exit 0 when both run
#   scripts/mail-services.sh smtp-down   stop the SMTP server only: connections are refused
#   scripts/mail-services.sh smtp-up     start the SMTP server again
#   scripts/mail-services.sh kick USER   drop every IMAP connection of USER (doveadm kick)
#   touch $MAIL_TEST_DIR/smtp-tempfail  the SMTP server answers 451 (try later) while it exists
#
# Environment:
#   MAIL_TEST_DIR    where config, logs, pid files and mailboxes live (default /tmp/postal-judge-mail)
#   MAIL_TEST_USERS  space-separated addresses whose mailboxes are created at start (optional:
#                    any <name>@judge.test logs in with password "secret" anyway)
#   IMAP_PORT        default 10143;  SMTP_PORT  default 10025
#   PYTHON           interpreter with aiosmtpd (default: the repo's .venv, else python3)
#
# Mailboxes: $MAIL_TEST_DIR/mail/<address>/ (maildir, INBOX at the root, Maildir++ subfolders).
# Mail files are owned by the "mail" user: dovecot never gives mail access to uid 0.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DIR="${MAIL_TEST_DIR:-/tmp/postal-judge-mail}"
IMAP_PORT="${IMAP_PORT:-10143}"
SMTP_PORT="${SMTP_PORT:-10025}"
HOST=127.0.0.1
DOMAIN=judge.test
CONF="$DIR/dovecot.conf"
SMTP_PID="$DIR/smtp.pid"
if [[ -z "${PYTHON:-}" ]]; then
    if [[ -x "$ROOT/.venv/bin/python" ]]; then PYTHON="$ROOT/.venv/bin/python"; else PYTHON=python3; fi
fi

log() { echo "mail-services: $*" >&2; }
die() { log "error: $*"; exit 1; }

port_open() {  # port -> exit 0 when something accepts connections on it
    (exec 3<>"/dev/tcp/$HOST/$1") 2>/dev/null && return 0 || return 1
}

wait_port() {  # port name -> waits up to 20 s
    local i
    for i in $(seq 1 100); do
        port_open "$1" && return 0
        sleep 0.2
    done
    die "$2 did not start listening on $HOST:$1 (logs in $DIR)"
}

installed() {
    [[ -x /usr/sbin/dovecot && -x /usr/bin/doveadm && -x /usr/lib/dovecot/imap && -x /usr/bin/mutt ]]
}

install_dovecot() {
    if installed; then return 0; fi
    [[ "$(id -u)" == 0 ]] || die "dovecot-imapd is not installed and installing it needs root"
    command -v apt-get >/dev/null || die "dovecot-imapd is not installed and apt-get is unavailable"
    # Test processes running side by side (pytest-xdist) may all start an instance: one installs.
    exec 9>/tmp/postal-judge-dovecot-install.lock
    flock 9
    if installed; then exec 9>&-; return 0; fi
    log "installing dovecot-imapd and mutt"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    # policy-rc.d keeps the package from starting the system-wide dovecot on port 143.
    local policy=/usr/sbin/policy-rc.d made_policy=""
    if [[ ! -e "$policy" ]]; then
        printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod 755 "$policy" && made_policy=1
    fi
    apt-get install -y -qq --no-install-recommends dovecot-core dovecot-imapd mutt >&2 || {
        [[ -n "$made_policy" ]] && rm -f "$policy"
        die "apt-get install dovecot-imapd mutt failed"
    }
    [[ -n "$made_policy" ]] && rm -f "$policy"
    exec 9>&-
    return 0
}

write_config() {
    local mail_uid mail_gid
    mail_uid="$(id -u mail)"
    mail_gid="$(id -g mail)"
    mkdir -p "$DIR/run" "$DIR/state" "$DIR/mail"
    chmod 755 "$DIR" "$DIR/mail"
    chown mail:mail "$DIR/mail"
    : >"$DIR/no-users"
    cat >"$CONF.new" <<EOF
# Written by scripts/mail-services.sh: a throwaway test server, never for production.
base_dir = $DIR/run
state_dir = $DIR/state
log_path = $DIR/dovecot.log
info_log_path = $DIR/dovecot.log
protocols = imap
listen = $HOST
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
default_internal_user = dovecot
default_login_user = dovenull
first_valid_uid = $mail_uid
last_valid_uid = $mail_uid
mail_location = maildir:$DIR/mail/%Lu
mail_fsync = never
imap_idle_notify_interval = 1 secs
shutdown_clients = yes
auth_failure_delay = 0 secs

passdb {
  driver = static
  args = password=secret
  username_filter = *@$DOMAIN
}
# Everyone else: an empty user list, so a clean "authentication failed".
passdb {
  driver = passwd-file
  args = $DIR/no-users
}
userdb {
  driver = static
  args = uid=$mail_uid gid=$mail_gid home=$DIR/mail/%Lu
}
# No growing delay (auth penalty) after the failed logins the tests make on purpose.
service anvil {
  unix_listener anvil-auth-penalty {
    mode = 0
  }
}
# Login processes that serve many connections (dovecot's high-performance mode): the tests open a
# connection every few tenths of a second, and a fork per connection on a loaded machine is how
# a connection gets reset before its greeting.
service imap-login {
  inet_listener imap {
    address = $HOST
    port = $IMAP_PORT
  }
  inet_listener imaps {
    port = 0
  }
  service_count = 0
  process_min_avail = 2
}
EOF
    if cmp -s "$CONF.new" "$CONF"; then rm -f "$CONF.new"; return 0; fi
    mv "$CONF.new" "$CONF"
    if dovecot_running; then
        log "configuration changed: reloading dovecot"
        doveadm -c "$CONF" reload </dev/null >/dev/null 2>&1 || true
    fi
}

dovecot_running() {
    [[ -f "$DIR/run/master.pid" ]] && kill -0 "$(cat "$DIR/run/master.pid")" 2>/dev/null && port_open "$IMAP_PORT"
}

smtp_running() { [[ -f "$SMTP_PID" ]] && kill -0 "$(cat "$SMTP_PID")" 2>/dev/null; }

start_dovecot() {
    if dovecot_running; then return 0; fi
    port_open "$IMAP_PORT" && die "port $IMAP_PORT is taken by another process"
    # Its own output goes to a file: dovecot keeps the stderr it was given open for good,
    # which would leave a caller that reads our output (a test fixture) waiting forever.
    /usr/sbin/dovecot -c "$CONF" </dev/null >>"$DIR/dovecot.out" 2>&1 || {
        tail -n 20 "$DIR/dovecot.out" >&2
        die "dovecot failed to start (see $DIR/dovecot.out and $DIR/dovecot.log)"
    }
    wait_port "$IMAP_PORT" dovecot
}

start_smtp() {
    if smtp_running; then return 0; fi
    port_open "$SMTP_PORT" && die "port $SMTP_PORT is taken by another process"
    "$PYTHON" -c 'import aiosmtpd' 2>/dev/null || die "$PYTHON has no aiosmtpd (pip install -e '.[dev]')"
    (cd "$ROOT" && exec setsid "$PYTHON" -m tests.support.smtp_server \
        --host "$HOST" --port "$SMTP_PORT" --maildir-root "$DIR/mail" --owner mail --tempfail-file "$DIR/smtp-tempfail" \
        </dev/null >>"$DIR/smtp.log" 2>&1) &
    echo $! >"$SMTP_PID"
    wait_port "$SMTP_PORT" "the test SMTP server"
}

stop_smtp() {
    if smtp_running; then
        local pid i
        pid="$(cat "$SMTP_PID")"
        kill "$pid" 2>/dev/null || true
        for i in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$pid" 2>/dev/null || true
    fi
    rm -f "$SMTP_PID"
}

stop_dovecot() {
    if [[ -f "$CONF" && -x /usr/sbin/dovecot ]] && [[ -f "$DIR/run/master.pid" ]]; then
        /usr/sbin/dovecot -c "$CONF" stop </dev/null >/dev/null 2>&1 || true
        local i
        for i in $(seq 1 50); do port_open "$IMAP_PORT" || break; sleep 0.1; done
    fi
}

cmd="${1:-}"
case "$cmd" in
    install)
        install_dovecot
        ;;
    start)
        install_dovecot
        mkdir -p "$DIR"
        write_config
        for user in ${MAIL_TEST_USERS:-}; do
            user="${user,,}"
            install -d -o mail -g mail -m 700 "$DIR/mail/$user" "$DIR/mail/$user/new" "$DIR/mail/$user/cur" "$DIR/mail/$user/tmp"
        done
        start_dovecot
        start_smtp
        log "running: IMAP $HOST:$IMAP_PORT, SMTP $HOST:$SMTP_PORT, any <name>@$DOMAIN / secret, files in $DIR"
        ;;
    stop)
        stop_smtp
        stop_dovecot
        log "stopped"
        ;;
    status)
        ok=0
        if dovecot_running; then echo "dovecot: running on $HOST:$IMAP_PORT"; else echo "dovecot: stopped"; ok=1; fi
        if smtp_running; then echo "smtp: running on $HOST:$SMTP_PORT"; else echo "smtp: stopped"; ok=1; fi
        exit "$ok"
        ;;
    smtp-down)
        stop_smtp
        ;;
    smtp-up)
        mkdir -p "$DIR"
        start_smtp
        ;;
    kick)
        [[ -n "${2:-}" ]] || die "usage: $0 kick USER"
        doveadm -c "$CONF" kick "$2" </dev/null >/dev/null 2>&1 || true
        ;;
    *)
        echo "usage: $0 install|start|stop|status|smtp-down|smtp-up|kick USER" >&2
        exit 2
        ;;
esac
