# The README's commands. CMake does the building; this file only sequences set-up, build and tests.
BUILD      ?= build
ASAN_BUILD ?= build-asan
FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 10
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
PREFIX     ?= /usr/local

.PHONY: all build build-quiet deps deps-check deps-test run install deb check test test-fast test-asan test-fuzz test-slurm vec-report golden pictures clean
DESTDIR    ?=

all: build

# Three sets of Debian packages, each on top of the one before: what building and running need, the
# few the fast tier's tests add, and the whole suite's tools (scripts/deps.sh)
deps:
	@scripts/deps.sh build

deps-check:
	@scripts/deps.sh check

deps-test:
	@scripts/deps.sh test

# One line of output, and the whole log only when it fails (build/logs/build.log keeps it); V=1 shows
# the compiler's progress as it goes
ifeq ($(V),1)
QUIETLY = sh -c
else
QUIETLY = scripts/quietly.sh $(1) $(2) sh -c
endif

# configured once: a build directory made elsewhere (or by hand, with other options) is built as it is
build: deps
	@$(call QUIETLY,$(BUILD)/logs/build.log,"build $(BUILD)/ikshade") \
	  '{ [ -f $(BUILD)/CMakeCache.txt ] || cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release; } && cmake --build $(BUILD) -j $(JOBS)'

build-quiet: build

run: build
	@scripts/run.sh $(BUILD)/ikshade

# The program, libikshade and libik, their headers and pkg-config files, the shaders, the man pages
# and the bash completion, under PREFIX (and DESTDIR, staged, as packagers do)
install: build
	DESTDIR=$(DESTDIR) cmake --install $(BUILD) --prefix $(PREFIX)

# A Debian package of the same, installed under /usr: apt-get install ./build/ikshade_*.deb
deb: build
	@$(call QUIETLY,$(BUILD)/logs/deb.log,"package $(BUILD)/ikshade_*.deb") 'cd $(BUILD) && cpack -G DEB'
	@ls $(BUILD)/ikshade_*.deb

# The fast tier while working on the code: the unit tests and the GL tests through headless EGL (no X,
# no ffmpeg, no network, nothing slow; its time: docs/internals.md, "What set-up costs"). `make test` is
# CI's whole run.
check: deps-check build
	@JOBS=$(JOBS) scripts/ctest.sh $(BUILD) check -L 'unit|gpu' -LE 'slow|media'

# The whole suite in the normal build, then again under AddressSanitizer + UndefinedBehaviorSanitizer,
# then each libFuzzer target for FUZZ_SECONDS from its seeds, then the Slurm cluster test: every tier
# runs even when one before it failed, and the end names every failure of every tier (scripts/tiers.sh).
# SKIP=LABELS leaves out the tests with those ctest labels in both builds (SKIP=npm: the two that need
# npm's registry), and says which it left out; CI sets it empty.
SKIP ?=
CTEST_SKIP = $(if $(strip $(SKIP)),-LE '$(strip $(SKIP))')
test:
	@MAKE="$(MAKE)" TIERS_LOGS=$(BUILD)/logs/tiers scripts/tiers.sh test-fast test-asan test-fuzz test-slurm

test-fast: deps-test build
	@JOBS=$(JOBS) scripts/ctest.sh $(BUILD) test $(CTEST_SKIP)

test-asan: deps-test
	@$(call QUIETLY,$(ASAN_BUILD)/logs/build.log,"build $(ASAN_BUILD)/ikshade (ASan+UBSan)") \
	  'cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DIKS_SANITIZE=ON && cmake --build $(ASAN_BUILD) -j $(JOBS)'
	@ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:intercept_tls_get_addr=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0 \
	  JOBS=$(JOBS) scripts/ctest.sh $(ASAN_BUILD) test $(CTEST_SKIP)

FUZZ_TARGETS = fuzz_source fuzz_log fuzz_solve fuzz_cli fuzz_json fuzz_manifest fuzz_output fuzz_inputlog fuzz_checkpoint \
  fuzz_pngcheck fuzz_image fuzz_volume fuzz_probe fuzz_params
test-fuzz: deps-test
	@$(call QUIETLY,$(FUZZ_BUILD)/logs/build.log,"build the fuzz targets in $(FUZZ_BUILD)") \
	  'cmake -S . -B $(FUZZ_BUILD) -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo -DIKS_FUZZ=ON && cmake --build $(FUZZ_BUILD) -j $(JOBS) --target $(FUZZ_TARGETS)'
	scripts/fuzz.sh $(FUZZ_BUILD) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# examples/scale-out/render.sbatch run as a job array by a one-node Slurm cluster that the test starts
# on loopback (munged, slurmctld, slurmd) and stops. The daemons need root: sudo -n where we are not.
test-slurm: deps-test build
	@if [ "$$(id -u)" = 0 ]; then bash tests/test_slurm.sh $(BUILD)/ikshade .; \
	elif sudo -n true 2>/dev/null; then sudo -n bash tests/test_slurm.sh $(BUILD)/ikshade .; \
	else echo "test-slurm: FAILED: starting Slurm's daemons needs root or passwordless sudo" >&2; exit 1; fi

# Shows which loops of the solver the compiler vectorised.
vec-report:
	$(CC) -std=c11 -O3 -fno-math-errno -fno-trapping-math -ffp-contract=off -fopt-info-vec-optimized -Iinclude -c src/ik/ik.c -o /dev/null

# Regenerates the golden image on purpose, after a deliberate change to limb.frag; review it, then commit.
golden: build
	$(BUILD)/ikshade render -o tests/golden/limb.png --size 320x180 --time 1.5 --quiet
	@echo "tests/golden/limb.png regenerated: look at it before committing"

# The README's pictures (docs/limb.png, docs/creature.png), drawn again after a change to the demos
pictures: build
	scripts/pictures.sh $(BUILD)/ikshade docs

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD)
