#!/usr/bin/env bash
# Checks the README's promise that its two commands do all set-up on a fresh
# Debian 12 machine with only git: builds a minimal Debian 12 (bookworm) root
# with debootstrap (the minbase variant plus git), clones this repository's
# HEAD into it (committed files only, as CI's clean clone), and runs
# scripts/quickstart.sh, then scripts/test.sh, inside it with an empty
# environment. Nothing of the host's installed packages is visible there.
#
# Usage (as root: debootstrap and chroot need it):
#   scripts/check-fresh-debian.sh [--quickstart-only] [DIR]
#     DIR               where the Debian root goes (default build/fresh-debian;
#                       must not exist yet, so that the machine is fresh)
#     --quickstart-only run only the first README command
#   GPUWCET_DEBIAN_MIRROR   the archive (default http://deb.debian.org/debian)
#
# Not run by CI (which is the second command on a clean clone of a machine
# that already has the packages); it needs network access to the archive and
# about 7 GB of disk. Takes about 15 minutes on 2 cores.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

quickstart_only=0
dir=
while [ $# -gt 0 ]; do
  case $1 in
    --quickstart-only) quickstart_only=1; shift ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    -*) echo "unknown option $1" >&2; exit 2 ;;
    *) [ -z "$dir" ] || { echo "one folder, not '$dir' and '$1'" >&2; exit 2; }
       dir=$1; shift ;;
  esac
done
dir=${dir:-$root/build/fresh-debian}
mirror=${GPUWCET_DEBIAN_MIRROR:-http://deb.debian.org/debian}

[ "$(id -u)" -eq 0 ] || { echo "run as root: debootstrap and chroot need it" >&2; exit 2; }
[ ! -e "$dir" ] || { echo "$dir exists: give a new folder, or remove it, for a fresh machine" >&2; exit 2; }
mkdir -p "$(dirname "$dir")"
dir=$(cd "$(dirname "$dir")" && pwd)/$(basename "$dir")
# The repository as root reads it, whoever owns the checkout (git refuses
# another user's repository otherwise); resolved before the long debootstrap.
git_root=(git -c safe.directory="$root" -C "$root")
head=$("${git_root[@]}" rev-parse --short HEAD)
if ! command -v debootstrap >/dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap
fi

echo "== debootstrap bookworm (minbase + git) into $dir"
debootstrap --variant=minbase --include=git bookworm "$dir" "$mirror"
cp /etc/resolv.conf "$dir/etc/resolv.conf"

echo "== clone of $head into $dir/root/gpuwcet"
git -c safe.directory="$root" clone -q --no-local "$root" "$dir/root/gpuwcet"
git -C "$dir/root/gpuwcet" checkout -q "$head"

steps='./scripts/quickstart.sh'
[ $quickstart_only -eq 1 ] || steps="$steps && ./scripts/test.sh"
start=$(date +%s)
# The chroot needs /proc, /sys and /dev (qemu, sanitizers, nproc). They are
# mounted in a private mount namespace of their own: nothing propagates to
# the host's mounts (an unmount of a bind of a shared /dev would take the
# host's /dev/pts with it), and they vanish with the namespace however the
# run ends, so that removing $dir later cannot reach the host's.
unshare --mount --propagation private bash -c '
  set -e
  mount -t proc proc "$1/proc"
  mount --rbind /sys "$1/sys"
  mount --rbind /dev "$1/dev"
  exec chroot "$1" /usr/bin/env -i HOME=/root TERM=dumb \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    bash -c "cd /root/gpuwcet && $2"
' check-fresh-debian "$dir" "$steps"
echo "== the README's commands passed on fresh Debian 12 in $(( $(date +%s) - start )) s"
echo "   (the Debian root stays in $dir for a look; remove it when done)"
