#!/bin/sh
# Round trip of one hooks/run with a trivial command hook from each host
# (Go client, Node, Python) against the same command spawned by that host's
# language, and the ratios. Needs npm ci in node/. Usage, from anywhere in
# the repository: scripts/bench_hosts.sh [go test flags, e.g. -count=5]
set -eu
cd "$(dirname "$0")/.."
go test -run '^$' -bench 'TrivialCommand|NodeHost|PythonHost' -benchtime 200x "$@" ./e2e/ |
awk '
	/^Benchmark/ {
		name = $1; sub(/-[0-9]+$/, "", name)
		for (i = 2; i < NF; i++) if ($(i+1) == "ns/op") { sum[name] += $i; n[name]++ }
		print
	}
	END {
		split("Go:BenchmarkHooksRun_TrivialCommand:BenchmarkExecCommand_TrivialCommand " \
		      "Node:BenchmarkNodeHost_HooksRun:BenchmarkNodeHost_ChildProcess " \
		      "Python:BenchmarkPythonHost_HooksRun:BenchmarkPythonHost_Subprocess", rows, " ")
		printf "\n%-7s %14s %14s %7s\n", "host", "hookd ms/run", "spawn ms/run", "ratio"
		for (r = 1; r in rows; r++) {
			split(rows[r], f, ":")
			if (!n[f[2]] || !n[f[3]]) continue
			h = sum[f[2]] / n[f[2]] / 1e6; s = sum[f[3]] / n[f[3]] / 1e6
			printf "%-7s %14.2f %14.2f %7.2f\n", f[1], h, s, h / s
		}
	}'
