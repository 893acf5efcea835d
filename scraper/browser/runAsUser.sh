#!/bin/sh
# Chromium refuses its sandbox when it runs as root. When the scraper worker runs as root (a
# developer machine, CI), Playwright launches the browser through this script, which hands the
# browser's fresh profile to an unprivileged user and runs Chromium as that user, with no
# capabilities and no way to gain privileges; Chromium then sandboxes its renderers as usual
# (user namespaces and seccomp-bpf). Playwright's pipes (fds 3 and 4) are inherited.
#   VIGIL_CHROMIUM       the Chromium binary
#   VIGIL_BROWSER_USER   the user to run it as
set -eu
user="${VIGIL_BROWSER_USER:?}"
uid=$(id -u "$user")
gid=$(id -g "$user")
for arg in "$@"; do
  case "$arg" in
    --user-data-dir=*)
      profile="${arg#--user-data-dir=}"
      chown -R "$uid:$gid" "$profile"
      export HOME="$profile"
      ;;
  esac
done
exec setpriv --reuid="$uid" --regid="$gid" --clear-groups --inh-caps=-all --bounding-set=-all \
  --no-new-privs -- "${VIGIL_CHROMIUM:?}" "$@"
