#!/usr/bin/env bash
# make deb-check: installs out/aurender_*.deb as a user would (apt-get install ./aurender_*.deb),
# renders fixtures with the installed command (one through FFmpeg's libraries, which the package
# recommends), checks its manual page and completions are where man and the shells look, then
# removes the package and checks nothing of it is left. Needs root (or sudo) and `make deb`.
set -euo pipefail
cd "$(dirname "$0")/.."
sudo=$([ "$(id -u)" = 0 ] || echo sudo)
fail() { echo "deb-check: $*" >&2; exit 1; }
packages=(out/aurender_*.deb)
[ ${#packages[@]} = 1 ] && [ -f "${packages[0]}" ] || fail "expected one out/aurender_*.deb (make deb), found: ${packages[*]}"
if dpkg-query -W -f='${Status}' aurender 2>/dev/null | grep -q "ok installed"; then
    fail "aurender is installed already; this check installs and removes its own package, so remove it first"
fi
work=$(mktemp -d /tmp/aurender-deb.XXXXXX)
installed=false
finish() {
    status=$?
    if $installed; then $sudo apt-get remove -y -qq aurender >/dev/null || status=1; fi
    rm -rf "$work"
    exit $status
}
trap finish EXIT

DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "./${packages[0]}" >"$work/apt.log" 2>&1 || { cat "$work/apt.log"; fail "apt-get install failed"; }
installed=true
files=$(dpkg -L aurender | while read -r path; do if [ -f "$path" ]; then echo "$path"; fi; done)

/usr/bin/aurender -q --eq "Bass Booster" fixtures/music.wav "$work/music.wav"
.build/release/aurender -q --eq "Bass Booster" fixtures/music.wav "$work/built.wav"
cmp -s "$work/music.wav" "$work/built.wav" || fail "the installed command's render differs from the build's"
/usr/bin/aurender -q fixtures/ffmpeg/aac.m4a "$work/aac.wav"
[ -s "$work/aac.wav" ] || fail "the installed command rendered no AAC through FFmpeg"
warnings=$(/usr/bin/aurender -q --tag TITLE=Packaged fixtures/music.wav "$work/music.flac" 2>&1)
[ -z "$warnings" ] || fail "the installed command warns: $warnings"
/usr/bin/aurender info "$work/music.flac" | grep -q "Packaged" || fail "the installed command wrote no tag"
[ "$(man -w aurender)" = /usr/share/man/man1/aurender.1.gz ] || fail "man finds the page at $(man -w aurender)"
MANWIDTH=80 man aurender 2>/dev/null | grep -q "^AURENDER REPORT MERGE" || fail "man aurender does not show the installed page"
for file in /usr/share/bash-completion/completions/aurender /usr/share/zsh/vendor-completions/_aurender \
    /usr/share/fish/vendor_completions.d/aurender.fish /usr/share/doc/aurender/copyright; do
    grep -qx "$file" <<<"$files" || fail "the package lacks $file"
done

$sudo apt-get remove -y -qq aurender >/dev/null
installed=false
left=$(while read -r path; do if [ -e "$path" ]; then echo "$path"; fi; done <<<"$files")
[ -z "$left" ] || fail "apt-get remove left $left"
echo "deb-check: apt-get installed ${packages[0]} ($(wc -l <<<"$files") files); /usr/bin/aurender rendered music.wav as the build does," \
    "aac.m4a through FFmpeg and a tag through TagLib's shim; man and the completions found; apt-get remove removed every file"
