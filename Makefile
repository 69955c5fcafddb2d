# The README's commands. CMake does the building; this file only sequences set-up, build and tests.
BUILD      ?= build
ASAN_BUILD ?= build-asan
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)

.PHONY: all build deps run test test-fast test-asan vec-report golden clean

all: build

deps:
	@scripts/deps.sh

$(BUILD)/CMakeCache.txt: | deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release

build: deps $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)

run: build
	@scripts/run.sh $(BUILD)/ikshade

# The whole suite in the normal build, then again under AddressSanitizer + UndefinedBehaviorSanitizer.
test: test-fast test-asan

test-fast: build
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)

test-asan: deps
	cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DIKS_SANITIZE=ON
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0 \
	  ctest --test-dir $(ASAN_BUILD) --output-on-failure -j $(JOBS)

# Shows which loops of the solver the compiler vectorised.
vec-report:
	$(CC) -std=c11 -O3 -fno-math-errno -fno-trapping-math -ffp-contract=off -fopt-info-vec-optimized -c src/ik/ik.c -o /dev/null

# Regenerates the golden image on purpose, after a deliberate change to limb.frag; review it, then commit.
golden: build
	$(BUILD)/ikshade render -o tests/golden/limb.png --size 320x180 --time 1.5 --quiet
	@echo "tests/golden/limb.png regenerated: look at it before committing"

clean:
	rm -rf $(BUILD) $(ASAN_BUILD)
