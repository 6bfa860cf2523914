#!/bin/sh
# Installs what flamekit needs to build and test on Debian 12, from Debian's
# own packages. Safe to run again. Uses sudo when not run as root.
set -eu

packages="
  make gcc libc6-dev linux-libc-dev pkg-config
  libdw-dev libelf-dev zlib1g-dev libdeflate-dev libisal-dev libxxhash-dev libiberty-dev
  libbpf-dev bpftool clang libclang-rt-14-dev libxml2-dev libdebuginfod-dev
  libcurl4-openssl-dev
  debuginfod
  util-linux iproute2
  binutils gzip procps perl time python3 libpython3-dev
  linux-perf
  openjdk-17-jdk-headless
  chromium
  golang-go protobuf-compiler
  sudo
  zsh
"
# libpython3-dev: CPython's internal headers, against which the suite checks
# record's table of their layouts (tests/python_layouts.c).
# libxml2-dev: the SVG writer's fuzz target checks each SVG it makes with
# libxml2 (only the fuzz and replay binaries link it, not flamekit).
# openjdk-17-jdk-headless: record's JVM tests compile and run a Java workload
# (tests/workload/Hot.java) whose JIT frames record must name.
# zsh: the tests complete flamekit's words as each shell
# would, through the completion files `make install` installs.
# libdebuginfod-dev: record --debuginfod's client (elfutils'), loaded with
# dlopen() only when asked for; debuginfod: the server the tests fetch from,
# run over a folder of their own in a network namespace of their own, where
# iproute2's ip brings up its loopback.
# libcurl4-openssl-dev: record --push's HTTP client (https with the system's
# CA store), in its sender thread only, loaded with dlopen() when a push
# starts (its headers to build; libcurl4 to run).
# libdeflate-dev: gzip read whole, fast (pprof files above all); zlib still
# streams every other .gz. libisal-dev: ISA-L's igzip, which with zlib
# compresses pprof files in parts on every CPU (lib/gzip.h).
# golang-go and protobuf-compiler: the peers that judge flamekit's pprof and
# OpenTelemetry files in the tests (`go tool pprof`, a Go program's own
# runtime/pprof profile; `protoc --decode` with tests/otlp-proto/).
# sudo: the README's first command records with `sudo build/flamekit record`,
# which must work on a fresh machine where one logs in as root too.
# node and npm drive Chromium in the browser tests; a node already on PATH
# (e.g. NodeSource's, which brings its own npm) is used as it is.
command -v node > /dev/null || packages="$packages nodejs"
command -v npm > /dev/null || packages="$packages npm"

run() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

missing=""
for p in $packages; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "setup: installing$missing"
	run env DEBIAN_FRONTEND=noninteractive apt-get update -qq
	# shellcheck disable=SC2086 # word splitting of the list is intended
	run env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing
else
	echo "setup: all packages present"
fi

# The browser tests' npm packages (playwright-core, and speedscope, whose
# importer judges flamekit's .speedscope.json files; pinned by
# tests/browser/package-lock.json), installed when missing or out of date.
browser=$(dirname "$0")/tests/browser
if [ ! -d "$browser/node_modules" ] || [ "$browser/package-lock.json" -nt "$browser/node_modules" ]; then
	echo "setup: npm ci in tests/browser"
	(cd "$browser" && npm ci --no-audit --no-fund --loglevel=error)
	touch "$browser/node_modules"  # newer than the lock file now
fi
