#!/usr/bin/env bash
# The deterministic statistics of one golden run on stdout (see check.sh).
#   usage: run_one.sh WARPSIM_BINARY NAME
set -u
W=$1 NAME=$2
out=$("$W" run "$NAME" --size tiny --seed 1 --config gtx480 --kernel-stats 2>/dev/null)
rc=$?
printf '%s\n' "$out" | grep -v -E '^(host_seconds|gpgpu_simulation_)'
exit $rc
