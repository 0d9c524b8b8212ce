#!/usr/bin/env bash
# annotate.sh [VERSION...] - `btfids check` points at the line to fix, in a
# real kernel tree (../shared/realdata/kbuild-tiny; 6.12 in BTFIDS_KBUILD,
# the patched 7.3 of kernel/build-tree in BTFIDS_KBUILD_PATCHED, each when
# built). A developer renames the kfunc bpf_rdonly_cast in the file that
# defines it, kernel/bpf/helpers.c (its definition and its own
# BTF_ID_FLAGS() there), and forgets the BTF_ID() in kernel/bpf/verifier.c
# that names it too. vmlinux is rebuilt incrementally as kbuild does (make
# vmlinux: helpers.o, then the links with the tree's own resolve_btfids,
# which only warns), and then:
#   - the kernel's own tool warned about exactly that name (its build log);
#   - btfids check --format=github puts the error at verifier.c and the
#     line of its BTF_ID(func, bpf_rdonly_cast) (grep -n on the source),
#     naming the other slots' lines (6.12 has two) in the message, and
#     suggests the new name;
#   - --format=json gives the same file and line, every location in
#     order, and the tree as "source"; the text output starts its lines
#     with "kernel/bpf/verifier.c:LINE: error:";
# then helpers.c is put back (byte for byte) and vmlinux rebuilt, also when
# a step fails (a trap), so the tree is left as it was: the restored
# build's own resolve_btfids no longer warns about the name. All of it
# holds the tree's relink lock ($D/.relink-$V.lock, as tests/kbuild.sh).
# Cost: two incremental builds per tree (helpers.o and the relinks), 11-18 s
# each on 2 cores, 57 s for both trees in all (2.5 minutes while other
# kernel builds shared the cores); bzImage is not rebuilt (the other tests
# relink anyway).
# Ends "annotate: N passed, N failed" or "annotate: skipped (...)".
set -uo pipefail

. "$(dirname "$0")/paths.sh"
D=${BTFIDS_KBUILD:-${XDG_CACHE_HOME:-$HOME/.cache}/btfids/kbuild}
DP=${BTFIDS_KBUILD_PATCHED:-${XDG_CACHE_HOME:-$HOME/.cache}/btfids/kbuild-patched}
versions=("$@")
[ ${#versions[@]} -gt 0 ] || versions=(6.12 7.3)
old=bpf_rdonly_cast new=bpf_rdonly_cast_renamed
def=kernel/bpf/helpers.c use=kernel/bpf/verifier.c

tmp=$(mktemp -d /tmp/btfids-annotate.XXXXXX)
passed=0 failed=0 ran=0 T="" restore_needed=0
ok() { passed=$((passed + 1)); echo "  ok: $*"; }
bad() { failed=$((failed + 1)); echo "  FAIL: $*"; }

# make vmlinux as kbuild-tiny does, with the tree's own resolve_btfids. In a
# git work tree the edit would add "+" to the kernel release (setlocalversion:
# a dirty tree), and every object that includes it would be rebuilt: the
# release is pinned to what it is (LOCALVERSION set: no scm suffix).
build() {
	local pin=()
	if [ "$(git -C "$T" rev-parse --show-toplevel 2>/dev/null)" = "$(readlink -f "$T")" ]; then
		case $(cat "$T/include/config/kernel.release") in
		*+) pin=(LOCALVERSION=+) ;;
		*) pin=(LOCALVERSION=) ;;
		esac
	fi
	make -C "$T" -j"$(nproc)" ARCH=x86_64 "${pin[@]}" vmlinux
}

# put helpers.c back and rebuild, once, whatever happened
restore() {
	[ $restore_needed = 1 ] || return 0
	restore_needed=0
	cp "$tmp/helpers.c" "$T/$def"	# new mtime: make rebuilds helpers.o from it
	build >"$tmp/restore.log" 2>&1
}
trap 'restore; rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

# the lines of the BTF_ID()s naming $old in $use, by grep: what to expect
expected_lines() {
	grep -nE "^[[:space:]]*BTF_ID\(func,[[:space:]]*${old}[[:space:]]*\)" "$T/$use" | cut -d: -f1
}

check_github() {
	local lines=$1 first ann l
	first=$(head -1 <<< "$lines")
	ann=$(grep -F "title=btfids%3A unresolved func $old::" "$tmp/gh" || true)
	if [ "$(wc -l <<< "$ann")" = 1 ] &&
	   [ "${ann#"::error file=$use,line=$first,title="}" != "$ann" ]; then
		ok "github: ::error file=$use,line=$first (grep -n: $(tr '\n' ' ' <<< "$lines"))"
	else
		bad "github: want one ::error file=$use,line=$first for $old, got: ${ann:-nothing}"
	fi
	for l in $(tail -n +2 <<< "$lines"); do
		if grep -qF "%0Aalso named at $use:$l," <<< "$ann"; then
			ok "github: the message names the other slot at $use:$l"
		else
			bad "github: no 'also named at $use:$l' in the message"
		fi
	done
	if grep -qF "did you mean func $new" <<< "$ann"; then
		ok "github: did you mean func $new"
	else
		bad "github: the new name $new is not suggested"
	fi
}

check_json() {
	local lines=$1 got want l
	got=$(python3 - "$tmp/json" "$old" <<'EOF'
import json, sys
d = json.loads(open(sys.argv[1]).readline())
print("source", d["source"])
for x in d["findings"]:
    if x["type"] == "unresolved" and x["name"] == sys.argv[2]:
        print("shown", x["file"], x["line"])
        for loc in x["locations"]:
            print("at", loc["file"], loc["line"])
EOF
	)
	want="source $(readlink -f "$T")"$'\n'"shown $use $(head -1 <<< "$lines")"
	for l in $lines; do want+=$'\n'"at $use $l"; done
	if [ "$got" = "$want" ]; then
		ok "json: source, file $use, line $(head -1 <<< "$lines"), $(wc -l <<< "$lines") location(s): the grep lines, in order"
	else
		bad "json: want"$'\n'"$want"$'\n'"got"$'\n'"$got"
	fi
}

run_tree() {
	local V=$1 L=$2 lines t t0 t1 t2 t3 rc
	lines=$(expected_lines)
	if ! grep -qE "^__bpf_kfunc .*\b$old\(" "$T/$def" || [ -z "$lines" ]; then
		bad "$V: the tree changed: no $old defined in $def, or no BTF_ID(func, $old) in $use"
		return
	fi
	exec 9>"$L"
	t=$(date +%s)
	if ! flock -w 900 9; then
		bad "$V: the relink lock $L stayed taken for 15 minutes"
		return
	fi
	[ $(($(date +%s) - t)) -lt 2 ] || echo "  (waited $(($(date +%s) - t)) s for $L)"
	cp -p "$T/$def" "$tmp/helpers.c"
	restore_needed=1
	sed -i -E "s/\b$old\b/$new/g" "$T/$def"
	t0=$(date +%s)
	if ! build >"$tmp/build.log" 2>&1; then
		bad "$V: make vmlinux with $old renamed failed: $(tail -3 "$tmp/build.log")"
		restore; exec 9>&-
		return
	fi
	t1=$(date +%s)
	if grep -qE "WARN: resolve_btfids: unresolved symbol $old\$" "$tmp/build.log"; then
		ok "$V: the kernel's resolve_btfids warned: unresolved symbol $old (rebuild $((t1 - t0)) s)"
	else
		bad "$V: the kernel's own resolve_btfids did not warn about $old"
	fi
	"$B" check --format=github "$T/vmlinux" >"$tmp/gh" 2>&1; rc=$?
	[ $rc = 1 ] || bad "$V: btfids check --format=github exit $rc, want 1"
	check_github "$lines"
	"$B" check --format=json "$T/vmlinux" >"$tmp/json" 2>&1
	check_json "$lines"
	"$B" check "$T/vmlinux" >"$tmp/text" 2>&1
	if grep -qF "$use:$(head -1 <<< "$lines"): error: unresolved func $old: " "$tmp/text"; then
		ok "text: $use:$(head -1 <<< "$lines"): error: unresolved func $old"
		# the block, for the log: its headline up to the next finding's
		awk -v h="error: unresolved func $old: " 'index($0, h) { p = 1; print; next }
			p && /: (error|warning): / { exit } p' "$tmp/text" | sed 's/^/    /' 
	else
		bad "text: no '$use:$(head -1 <<< "$lines"): error: unresolved func $old' line"
	fi
	t2=$(date +%s)
	if ! restore; then
		bad "$V: make vmlinux after restoring $def failed: $(tail -3 "$tmp/restore.log")"
	elif ! cmp -s "$tmp/helpers.c" "$T/$def" || grep -q "unresolved symbol $old\$" "$tmp/restore.log"; then
		bad "$V: $def is not as it was, or the restored build still misses $old"
	else
		t3=$(date +%s)
		ok "$V: $def restored byte for byte, vmlinux rebuilt ($((t3 - t2)) s), the kernel's tool no longer warns about $old"
	fi
	exec 9>&-
}

for v in "${versions[@]}"; do
	case $v in
	7.3) T=$DP/linux-source-$v ;;
	*) T=$D/linux-source-$v ;;
	esac
	if [ ! -f "$T/.kbuild-tiny-built" ] || [ ! -f "$T/vmlinux" ]; then
		echo "annotate: $v skipped (no built kernel tree in $T: $R/kbuild-tiny, or kernel/build-tree for 7.3)"
		continue
	fi
	ran=$((ran + 1))
	echo "annotate: Linux $v ($T)"
	run_tree "$v" "$(dirname "$T")/.relink-$v.lock"
done
if [ $ran = 0 ]; then
	echo "annotate: skipped (no built kernel tree: run $R/kbuild-tiny, about 12 minutes)"
	exit 0
fi
echo "annotate: $passed passed, $failed failed"
[ $failed = 0 ]
