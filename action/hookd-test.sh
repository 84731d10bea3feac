#!/usr/bin/env bash
# The GitHub Action's step (action.yml): install hookd, then run the plugin's
# test scripts. Inputs come as environment variables:
#   HOOKD_VERSION  release version (0.1.0), latest, or (with Go) a commit
#   HOOKD_PLUGIN   the plugin folder (default .)
#   HOOKD_SCRIPTS  scripts or folders, relative to the plugin (default: hookd test's)
#   HOOKD_ARGS     more hookd test flags
#   HOOKD_BIN      a hookd binary to use instead of installing one
# Runs anywhere bash does (release/action_test.go runs it on a fixture plugin).
set -euo pipefail

version=${HOOKD_VERSION:-latest}
version=${version#v}
dir=${RUNNER_TEMP:-${TMPDIR:-/tmp}}/hookd-bin
mkdir -p "$dir"

install_with_go() {
	local at=$version
	# A release version gets its v; latest, a commit or a branch go as given.
	case "$version" in
	[0-9]*.[0-9]*.[0-9]*) at=v$version ;;
	esac
	echo "hookd: go install github.com/hookd/hookd@$at" >&2
	GOBIN=$dir go install "github.com/hookd/hookd@$at"
}

install_from_release() {
	if [ "$version" = latest ]; then
		echo "hookd: without Go on the runner, set the version input (for example 0.1.0), or add actions/setup-go before this step" >&2
		exit 1
	fi
	local os arch ext=tar.gz
	case "$(uname -s)" in
	Linux) os=linux ;;
	Darwin) os=darwin ;;
	MINGW* | MSYS* | CYGWIN*) os=windows ext=zip ;;
	*) echo "hookd: no release for $(uname -s)" >&2; exit 1 ;;
	esac
	case "$(uname -m)" in
	x86_64 | amd64) arch=amd64 ;;
	aarch64 | arm64) arch=arm64 ;;
	*) echo "hookd: no release for $(uname -m)" >&2; exit 1 ;;
	esac
	local name=hookd_${version}_${os}_${arch}.$ext
	local base=${HOOKD_RELEASES:-https://github.com/hookd/hookd/releases/download}/v$version
	echo "hookd: downloading $base/$name" >&2
	curl -fsSL -o "$dir/$name" "$base/$name"
	curl -fsSL -o "$dir/checksums.txt" "$base/checksums.txt"
	(cd "$dir" && grep "  $name\$" checksums.txt | sha256sum -c --quiet -)
	if [ "$ext" = zip ]; then
		unzip -oq "$dir/$name" -d "$dir"
	else
		tar -xzf "$dir/$name" -C "$dir"
	fi
}

if [ -n "${HOOKD_BIN:-}" ]; then
	hookd=$HOOKD_BIN
else
	if command -v go >/dev/null; then
		install_with_go
	else
		install_from_release
	fi
	hookd=$dir/hookd
	[ -x "$hookd" ] || hookd=$dir/hookd.exe
	# Later steps of the job find hookd on PATH.
	[ -z "${GITHUB_PATH:-}" ] || echo "$dir" >>"$GITHUB_PATH"
fi
"$hookd" version

cd "${HOOKD_PLUGIN:-.}"
# Word splitting of the two lists is wanted: they hold several words.
# shellcheck disable=SC2086
if [ -z "${HOOKD_PROFILES:-}" ]; then
	exec "$hookd" test ${HOOKD_ARGS:-} ${HOOKD_SCRIPTS:-}
fi
# The plugin's own scripts first, then the matrix over the hosts.
"$hookd" test ${HOOKD_ARGS:-} ${HOOKD_SCRIPTS:-}
case ${HOOKD_FAIL_ON_DIFFERENT:-false} in
true | 1) set -- --fail-on-different ;;
*) set -- ;;
esac
exec "$hookd" test --profiles "$HOOKD_PROFILES" "$@" ${HOOKD_SCRIPTS:-}
