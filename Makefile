# aurender: the quick start's commands. Each installs what it needs when it is missing.
APT_PACKAGES = libsndfile1-dev libsamplerate0-dev libebur128-dev pkg-config
SUDO = $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: deps demo test bench

## Installs the C libraries from Debian's packages, if pkg-config cannot find them.
deps:
	@pkg-config --exists sndfile samplerate libebur128 2>/dev/null || { \
		echo "installing $(APT_PACKAGES)"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $(APT_PACKAGES); }

## Builds the release binary and renders the bundled fixture through the Bass Booster EQ.
demo: deps
	swift build -c release
	mkdir -p out
	.build/release/aurender --eq "Bass Booster" fixtures/music.wav out/music-bass-booster.wav
	.build/release/aurender info out/music-bass-booster.wav

## Runs every test.
test: deps
	swift test

## Runs the benchmarks against sndfile-convert, SoX and FFmpeg (installs them if missing).
bench: deps
	bench/run.sh
