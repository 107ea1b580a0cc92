#!/usr/bin/env bash
# Install the build dependencies that are missing (Debian/Ubuntu), or say which
# ones to install when we cannot (not root, no apt-get).
set -eu
need=()
command -v cmake >/dev/null 2>&1 || need+=(cmake)
command -v cc    >/dev/null 2>&1 || need+=(gcc)
command -v make  >/dev/null 2>&1 || need+=(make)
# libasan/libubsan come with gcc on Debian; nothing else is needed to build or test.
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "deps: installing ${need[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq "${need[@]}" >/dev/null
else
    echo "deps: please install: ${need[*]} (e.g. sudo apt-get install ${need[*]})" >&2
    exit 1
fi
