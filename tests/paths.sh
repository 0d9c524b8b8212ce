# shellcheck shell=bash
# paths.sh - sourced by the test scripts: where things are.
#   top  the repository         R  ../shared/realdata (BTFIDS_REALDATA)
#   K    the Debian kernels     B  the btfids under test (BTFIDS), absolute
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
R=${BTFIDS_REALDATA:-$top/../shared/realdata}
K=${BTFIDS_KERNELS:-${XDG_CACHE_HOME:-$HOME/.cache}/btfids/kernels}
B=${BTFIDS:-$top/btfids/btfids}
[ "${B#/}" != "$B" ] || B=$top/$B
