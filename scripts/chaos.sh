#!/bin/sh
# chaos.sh [BASE]: runs the chaos suite (e2e/chaos_test.go, -tags chaos) against
# a hookd built from BASE (default: main) and one built from this tree, and
# prints the figures of both. Linux only; it takes a few minutes.
set -eu
base=${1:-main}
root=$(git rev-parse --show-toplevel)
work=$(mktemp -d)
trap 'git -C "$root" worktree remove --force "$work/base" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT

git -C "$root" worktree add --detach "$work/base" "$base" >/dev/null
(cd "$work/base" && go build -o "$work/hookd-before" .)
(cd "$root" && go build -o "$work/hookd-after" .)

run() {
	(cd "$root" && HOOKD_BIN=$1 go test -tags chaos -run Chaos -count=1 -timeout 30m -v ./e2e/ 2>&1 | grep '^CHAOS' || true)
}
echo "== before ($base, $(git -C "$root" rev-parse --short "$base"))"
run "$work/hookd-before"
echo "== after (this tree; threads with --max-running-hooks 3000)"
CHAOS_CAP=3000 run "$work/hookd-after"
