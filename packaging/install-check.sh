#!/usr/bin/env bash
# make install-check: `make install` into a temporary DESTDIR, each installed file checked where
# its user finds it, then `make uninstall` must leave nothing behind. Fails on the first problem.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(mktemp -d /tmp/aurender-install.XXXXXX)
trap 'rm -rf "$root"' EXIT
fail() { echo "install-check: $*" >&2; exit 1; }

make --no-print-directory install DESTDIR="$root" >/dev/null
prefix=$root/usr/local
expected="bin/aurender share/man/man1/aurender.1 share/bash-completion/completions/aurender share/zsh/site-functions/_aurender
share/fish/vendor_completions.d/aurender.fish lib/aurender/libAurenderTagLib.so"
for file in $expected; do
    [ -f "$prefix/$file" ] || fail "make install did not install $file"
done
found=$(cd "$root" && find . -type f | sort)
wanted=$(for file in $expected; do echo "./usr/local/$file"; done | sort)
[ "$found" = "$wanted" ] || fail "make install installed other files than expected: $found"
[ -x "$prefix/bin/aurender" ] || fail "bin/aurender is not executable"

# The binary runs and renders, here where the Swift toolchain is, and needs none of its libraries.
if ldd "$prefix/bin/aurender" | grep -q libswift; then fail "bin/aurender needs the Swift runtime's shared libraries"; fi
if ldd "$prefix/lib/aurender/libAurenderTagLib.so" | grep -q libswift; then
    fail "lib/aurender/libAurenderTagLib.so needs the Swift runtime's shared libraries"
fi
"$prefix/bin/aurender" -q --eq "Bass Booster" fixtures/music.wav "$root/music.wav"
[ -s "$root/music.wav" ] || fail "the installed binary rendered nothing"
# It finds TagLib's shim in lib/aurender: a tag given is written, with no warning.
warnings=$("$prefix/bin/aurender" -q --tag TITLE=Installed fixtures/music.wav "$root/music.flac" 2>&1)
[ -z "$warnings" ] || fail "the installed binary warns: $warnings"
"$prefix/bin/aurender" info "$root/music.flac" | grep -q "Installed" || fail "the installed binary wrote no tag"
rm "$root/music.wav" "$root/music.flac"

# man renders the installed page without a warning.
page=$(MANWIDTH=80 man -l "$prefix/share/man/man1/aurender.1" 2>"$root/man-errors")
[ ! -s "$root/man-errors" ] || fail "man -l warns: $(cat "$root/man-errors")"
grep -q "^AURENDER REPORT MERGE" <<<"$page" || fail "man -l does not show the section of aurender report merge"
grep -q "^NAME" <<<"$page" || fail "man -l shows no NAME section"
rm "$root/man-errors"

# bash-completion finds the installed completion by itself (XDG_DATA_DIRS as it defaults, with
# /usr/local/share standing for $prefix/share), and it completes `aurender --eq B`.
completions=$(XDG_DATA_DIRS="$prefix/share" BASH_COMPLETION_USER_DIR=/nonexistent bash -c '
    source /usr/share/bash-completion/bash_completion
    complete -p aurender >/dev/null 2>&1 && { echo "aurender completed before loading" >&2; exit 1; }
    _completion_loader aurender
    function=$(complete -p aurender | sed -E "s/.* -F ([^ ]+) .*/\1/")
    COMP_LINE="aurender --eq B"; COMP_POINT=${#COMP_LINE}
    COMP_WORDS=(aurender --eq B); COMP_CWORD=2; COMPREPLY=()
    "$function" aurender B --eq
    printf "%s\n" "${COMPREPLY[@]}"')
[ "$completions" = $'Bass Booster\nBass Reducer' ] || fail "bash completes 'aurender --eq B' as: $completions"

head -1 "$prefix/share/zsh/site-functions/_aurender" | grep -qx "#compdef aurender" || fail "_aurender is not a zsh completion function"
grep -q "^complete -c 'aurender' " "$prefix/share/fish/vendor_completions.d/aurender.fish" || fail "aurender.fish completes nothing"

make --no-print-directory uninstall DESTDIR="$root" >/dev/null
left=$(cd "$root" && find . -type f)
[ -z "$left" ] || fail "make uninstall left $left"
echo "install-check: make install put $(wc -w <<<"$expected") files under DESTDIR/usr/local; the binary renders, man -l renders the page," \
    "bash completes 'aurender --eq B' to Bass Booster and Bass Reducer; make uninstall removed them all"
