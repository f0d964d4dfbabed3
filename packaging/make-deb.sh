#!/usr/bin/env bash
# make deb: out/aurender_VERSION_ARCH.deb from `make install` into a staging root, with dpkg's
# own tools (no debhelper): dpkg-shlibdeps computes Depends from the libraries the binary links,
# dpkg-gencontrol writes the control file from packaging/debian/, dpkg-deb builds the package,
# and lintian checks it, failing on any error. Needs the release build (make release-build).
set -euo pipefail
cd "$(dirname "$0")/.."
umask 022
debian=$PWD/packaging/debian
version=$(dpkg-parsechangelog -l "$debian/changelog" -S Version)
built=$(.build/release/aurender --version)
[ "$version" = "$built" ] || {
    echo "make deb: packaging/debian/changelog's latest entry is $version, the binary is $built: add an entry for $built" >&2
    exit 1
}
architecture=$(dpkg --print-architecture)
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
stage=$PWD/out/deb/aurender
work=$PWD/out/deb/work
package=out/aurender_${version}_${architecture}.deb
rm -rf out/deb "$package"
mkdir -p "$work/debian" "$stage/DEBIAN"

# What Debian's policy asks of a package's files: /usr, zsh's completions where Debian's packages
# put them, a stripped binary, a compressed manual page, the copyright and changelog in its doc folder.
make --no-print-directory install DESTDIR="$stage" PREFIX=/usr ZSH_COMPLETIONS_DIR=/usr/share/zsh/vendor-completions >/dev/null
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$stage/usr/bin/aurender" \
    "$stage/usr/lib/aurender/libAurenderTagLib.so"
gzip -9n "$stage/usr/share/man/man1/aurender.1"
install -d "$stage/usr/share/doc/aurender"
install -m 644 "$debian/copyright" "$stage/usr/share/doc/aurender/copyright"
gzip -9n <"$debian/changelog" >"$stage/usr/share/doc/aurender/changelog.gz"
chmod 644 "$stage/usr/share/doc/aurender/changelog.gz"

# Depends: the packages of the libraries the binary and TagLib's shim link (dpkg-shlibdeps reads debian/control
# from the folder it runs in). Recommends: those of FFmpeg's libraries, which the binary opens
# with dlopen on first use, by the sonames of the headers it was built against.
cp "$debian/control" "$debian/changelog" "$work/debian/"
(cd "$work" && dpkg-shlibdeps -Tdebian/substvars -e"$stage/usr/bin/aurender" -e"$stage/usr/lib/aurender/libAurenderTagLib.so")
recommends=()
for library in avformat avcodec avutil; do
    file=$(readlink -f "/usr/lib/$multiarch/lib$library.so")
    recommends+=("$(dpkg -S "$file" | cut -d: -f1)")
done
(IFS=,; echo "ffmpeg:Recommends=${recommends[*]}" | sed 's/,/, /g') >>"$work/debian/substvars"
(cd "$stage" && find usr -type f -print0 | sort -z | xargs -0 md5sum) >"$stage/DEBIAN/md5sums"
(cd "$work" && dpkg-gencontrol -paurender -P"$stage" -Tdebian/substvars -fdebian/files)
chmod 644 "$stage/DEBIAN/control" "$stage/DEBIAN/md5sums"

dpkg-deb --root-owner-group -Zxz --build "$stage" "$package" >/dev/null
echo "$package:"
dpkg-deb --field "$package" Package Version Architecture Installed-Size Depends Recommends Suggests
echo "lintian $package:"
lintian --fail-on error --display-info "$package" || { echo "make deb: lintian reports errors" >&2; exit 1; }
echo "lintian: no errors"
