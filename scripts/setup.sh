#!/usr/bin/env bash
# Install what Sluice needs on Debian 12 (idempotent), then configure and build.
#   scripts/setup.sh            install packages + build (build/, and the
#                               fuzz targets the tests run: build-fuzz/)
#   scripts/setup.sh --run      the same, then the main job: a few seconds of
#                               transmit on a net_null port, no NIC, no hugepages
#   scripts/setup.sh --deps     install packages only
# Environment: SLUICE_BUILD=dir (default build), SLUICE_WERROR=1 (-Werror, as CI).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
build=${SLUICE_BUILD:-$top/build}

pkgs=(
	build-essential pkg-config meson ninja-build
	dpdk dpdk-dev libdpdk-dev libnuma-dev libpcap-dev libjansson-dev libmicrohttpd-dev libgnutls28-dev
	python3 python3-scapy python3-matplotlib tshark jq bc tmux iproute2 ethtool procps nftables
	binutils clang libclang-rt-14-dev openssl curl tcpreplay tcpdump iputils-ping
	# the long suite's test_prometheus.sh: ~19 MB download, ~94 MB installed
	prometheus
)

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
	sudo=
	[ "$(id -u)" -eq 0 ] || sudo=sudo
	echo "setup: installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	# One update, and only when the lists are missing or older than a day.
	if [ -z "$(find /var/lib/apt/lists -maxdepth 1 -name '*Packages*' -mtime -1 2>/dev/null | head -1)" ]; then
		$sudo apt-get update -qq
	fi
	echo 'wireshark-common wireshark-common/install-setuid boolean false' |
		$sudo debconf-set-selections
	$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

[ "${1:-}" = "--deps" ] && exit 0

opts=(-Db_pie=true)
[ "${SLUICE_WERROR:-0}" = 1 ] && opts+=(-Dwerror=true)
if [ -f "$build/build.ninja" ]; then
	meson configure "$build" "${opts[@]}" >/dev/null
else
	meson setup "$build" "$top" --buildtype=release "${opts[@]}" >/dev/null
fi
ninja -C "$build"
# The libFuzzer targets scripts/test.sh runs (clang, ASan + UBSan): built
# here, so that the suite spends its time testing.
"$top/scripts/fuzz.sh" --build

if [ "${1:-}" = "--run" ]; then
	echo
	echo "setup: main job: 5 s of 64-byte UDP on a net_null port (no NIC, no hugepages)"
	exec "$build/app/sluice/sluice" --no-huge -m 512 --no-pci -l 0-1 --vdev net_null0 \
		--file-prefix sluice-demo --log-level 'lib.eal:warning' -- \
		--duration 5 --stats-period 1 --json "$build/summary.json"
fi
