#!/usr/bin/env bash
# kbuild.sh [VERSION...] - the drop-in test as kbuild runs it: relink a real
# Linux tree (../shared/realdata/kbuild-tiny; 6.12, 7.2 and 7.3 by default,
# each when its tree is built) with RESOLVE_BTFIDS=btfids, then compare with
# the kernel's own resolve_btfids built in that tree:
#   6.12  clear the new vmlinux's slots and resolve it again with both
#         tools: whole files and warnings identical;
#   7.x   kbuild runs the tool from scripts/gen-btf.sh on .tmp_vmlinux1 with
#         pahole's .tmp_vmlinux1.BTF.1 (and removes both after): a wrapper
#         keeps them, both tools run on the same inputs, and the files they
#         write (.BTF_ids, .BTF), their exit status and warnings must be
#         identical; then the final vmlinux, cleared, with its own .BTF as
#         --btf, must give back its .BTF_ids and .BTF (idempotence).
# 7.3 is the patched tree of kernel/ when no plain one is built (paths.sh,
# kbuild_dir); 7.2 without a tree runs its own tool, built from its tools/
# alone, and btfids --kernel 7.2 on the 7.3 relink's gen-btf.sh inputs
# (check_72: 7.2 and 7.3 call the tool from the same gen-btf.sh).
# 7.3-arm64 and 7.3-s390: the cross trees of kernel/build-tree --arch
# (relinked with BTFIDS_KBUILD_ARCH; the same comparison on gen-btf.sh's
# inputs, the tree's own tool built for this host); skipped without them.
# Ends with "kbuild: N passed, N failed" or "kbuild: skipped (...)".
set -uo pipefail

. "$(dirname "$0")/paths.sh"
versions=("$@")
[ ${#versions[@]} -gt 0 ] || versions=(6.12 7.3 7.2 7.3-arm64 7.3-s390)

if [ ! -x "$R/kbuild-tiny" ] || [ ! -x "$R/mkunresolved" ]; then
	echo "kbuild: skipped (no $R/kbuild-tiny: the workspace's shared/realdata, not in this repository; set BTFIDS_REALDATA)"
	exit 0
fi
tmp=$(mktemp -d /tmp/btfids-kbuild.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0 ran=0
ok() { passed=$((passed + 1)); echo "  ok: $*"; }
bad() { failed=$((failed + 1)); echo "  FAIL: $*"; }

# 6.x: the relinked vmlinux, cleared, resolved again by both tools in place
check_6x() {
	local V=$1 KT=$2 krc brc
	rm -rf "$tmp/k" "$tmp/b"
	"$R/mkunresolved" "$V" "$tmp/k" >/dev/null
	cp "$tmp/k" "$tmp/b"
	"$KT" "$tmp/k" 2>"$tmp/k.err"; krc=$?
	"$B" "$tmp/b" 2>"$tmp/b.err"; brc=$?
	if [ $krc = $brc ] && cmp -s "$tmp/k" "$tmp/b" && cmp -s "$tmp/k.err" "$tmp/b.err"; then
		ok "same file, exit status and warnings as the kernel's resolve_btfids ($(wc -l < "$tmp/b.err") warnings)"
	else
		bad "differs from the kernel's resolve_btfids (exit $krc vs $brc)"
		diff "$tmp/k.err" "$tmp/b.err" | head -5
	fi
}

# a RESOLVE_BTFIDS that keeps each resolve call's input files in $1/N/
keeper() {
	cat > "$tmp/keeper" <<EOF
#!/usr/bin/env bash
case " \$* " in *" --patch_btfids "*) exec "$B" "\$@" ;; esac
n=\$(ls "$1" | wc -l); d="$1/\$n"; mkdir -p "\$d"
for a; do [ -f "\$a" ] && cp "\$a" "\$d/"; echo "\$a"; done > "\$d/args"
exec "$B" "\$@"
EOF
	chmod +x "$tmp/keeper"
}

# run TOOL DIR CALLDIR: the kept call again in DIR with TOOL
rerun() {
	local tool=$1 dir=$2 call=$3 a args=()
	rm -rf "$dir" && mkdir -p "$dir"
	while read -r a; do
		if [ "${a#-}" = "$a" ] && [ -f "$call/$(basename -- "$a")" ]; then
			cp "$call/$(basename "$a")" "$dir/" && args+=("$dir/$(basename "$a")")
		else
			args+=("$a")
		fi
	done < "$call/args"
	# shellcheck disable=SC2086 # BTFIDS_EXTRA: words
	"$tool" ${BTFIDS_EXTRA:-} "${args[@]}" >/dev/null 2>"$dir/err"
	echo $? > "$dir/rc"
}

# rerun_diff KDIR BDIR ELF: how two reruns of one call differ (exit status,
# ELF.BTF_ids and ELF.BTF, WARN lines), "" when they do not
rerun_diff() {
	local why="" s
	[ "$(cat "$1/rc")" = "$(cat "$2/rc")" ] || why+="exit $(cat "$1/rc") vs $(cat "$2/rc"); "
	for s in .BTF_ids .BTF; do
		cmp -s "$1/$3$s" "$2/$3$s" || why+="$3$s differs; "
	done
	diff -q <(grep ^WARN "$1/err") <(grep ^WARN "$2/err") >/dev/null || why+="warnings differ; "
	echo "$why"
}

check_7x() {
	local V=$1 KT=$2 call elf why d
	call=$(grep -l 'tmp_vmlinux1$' "$tmp/keep"/*/args 2>/dev/null | head -1)
	if [ -z "$call" ]; then
		bad "gen-btf.sh never ran the tool on .tmp_vmlinux1"
		return
	fi
	call=$(dirname "$call")
	elf=$(basename "$(tail -1 "$call/args")")
	rerun "$KT" "$tmp/k" "$call"
	rerun "$B" "$tmp/b" "$call"
	why=$(rerun_diff "$tmp/k" "$tmp/b" "$elf")
	if [ -z "$why" ]; then
		ok "gen-btf.sh's inputs ($(tr '\n' ' ' < "$call/args" | sed "s|$D/||g")): same files, exit status and warnings as the kernel's resolve_btfids ($(grep -c ^WARN "$tmp/b/err") warnings)"
	else
		bad "gen-btf.sh's inputs: $why"
	fi
	# the final vmlinux gives itself back
	d=$tmp/final
	rm -rf "$d" && mkdir -p "$d"
	objcopy --dump-section .BTF="$d/btf" --dump-section .BTF_ids="$d/ids" "$V" "$d/junk" 2>/dev/null
	"$R/mkunresolved" "$V" "$d/vmlinux" >/dev/null
	"$B" --btf "$d/btf" "$d/vmlinux" 2>/dev/null
	if cmp -s "$d/vmlinux.BTF_ids" "$d/ids" && cmp -s "$d/vmlinux.BTF" "$d/btf"; then
		ok "the final vmlinux, cleared, with its own .BTF gives back its .BTF_ids and .BTF"
	else
		bad "the final vmlinux, cleared, does not give back its .BTF_ids and .BTF"
	fi
}

# 7.2 without a tree of its own: its kbuild calls the tool exactly as 7.3's
# does (scripts/gen-btf.sh is the same file in both; link-vmlinux.sh and
# Makefile.modfinal differ only in kallsyms), so the 7.3 relink covers the
# call, and 7.2's own tool (tests/kernel-tool.sh, from its tools/ alone)
# and btfids with the 7.2 rules run on the inputs that relink kept
check_72() {
	local call KT72 why
	call=$(grep -l 'tmp_vmlinux1$' "$tmp/keep"/*/args 2>/dev/null | head -1)
	if [ -z "$call" ]; then
		echo "kbuild: 7.2 skipped (no tree, and no 7.3 relink's gen-btf.sh inputs to run its tool on)"
		return
	fi
	if ! KT72=$("$top/tests/kernel-tool.sh" 7.2 2>"$tmp/err72"); then
		echo "kbuild: 7.2 skipped (no 7.2 tree, and its tool could not be had: $(tail -1 "$tmp/err72"))"
		return
	fi
	ran=$((ran + 1))
	call=$(dirname "$call")
	elf=$(basename "$(tail -1 "$call/args")")
	echo "kbuild: Linux 7.2 (no tree: its tool $KT72 on the 7.3 relink's gen-btf.sh inputs)"
	rerun "$KT72" "$tmp/k72" "$call"
	BTFIDS_EXTRA="--kernel 7.2" rerun "$B" "$tmp/b72" "$call"
	why=$(rerun_diff "$tmp/k72" "$tmp/b72" "$elf")
	if [ -z "$why" ]; then
		ok "7.2's resolve_btfids and btfids --kernel 7.2 on gen-btf.sh's inputs: same files, exit status and warnings ($(grep -c ^WARN "$tmp/b72/err") warnings)"
	else
		bad "7.2 on gen-btf.sh's inputs: $why"
	fi
}

for v in "${versions[@]}"; do
	# VERSION, or VERSION-ARCH: the cross tree of kernel/build-tree --arch
	# ARCH (its own cache folder; the tree's resolve_btfids is built for
	# this host, the reference as for x86)
	arch=x86_64 img=arch/x86/boot/bzImage
	case $v in
	*-arm64|*-s390)
		arch=${v##*-} v=${v%-*}
		D=${XDG_CACHE_HOME:-$HOME/.cache}/btfids/kbuild-$arch
		T=$D/linux-source-$v-$arch
		case $arch in arm64) img=arch/arm64/boot/Image ;; s390) img=arch/s390/boot/bzImage ;; esac ;;
	*)
		D=$(kbuild_dir "$v")
		T=$D/linux-source-$v ;;
	esac
	KT=$T/tools/bpf/resolve_btfids/resolve_btfids
	# the image: the first build is done (a relink never removes it)
	if [ ! -f "$T/.config" ] || [ ! -x "$KT" ] || [ ! -f "$T/$img" ]; then
		if [ "$v" = 7.2 ]; then
			check_72
			continue
		fi
		if [ $arch != x86_64 ]; then
			echo "kbuild: $v $arch skipped (no cross tree: kernel/build-tree --arch $arch, as root, about 20 minutes)"
		else
			echo "kbuild: $v skipped (no kernel tree: BTFIDS_KBUILD_KERNEL=$v $R/kbuild-tiny, as root, about 12 minutes)"
		fi
		continue
	fi
	ran=$((ran + 1))
	echo "kbuild: Linux $v, $arch ($T)"
	rm -rf "$tmp/keep" && mkdir -p "$tmp/keep"
	tool=$B
	case $v in 7.*) keeper "$tmp/keep"; tool=$tmp/keeper ;; esac
	# one relink of a tree at a time (tests/boot.sh takes the same lock)
	if V=$(BTFIDS_KBUILD=$D BTFIDS_KBUILD_KERNEL=$v BTFIDS_KBUILD_ARCH=$arch flock -w 900 "$D/.relink-$v.lock" \
		"$R/kbuild-tiny" "$tool" 2>"$tmp/err"); then
		ok "kbuild relinked vmlinux with RESOLVE_BTFIDS=btfids"
		case $v in
		7.*) check_7x "$V" "$KT" ;;
		*) check_6x "$V" "$KT" ;;
		esac
	else
		bad "kbuild relink: $(cat "$tmp/err")"
	fi
done
if [ $ran = 0 ]; then
	echo "kbuild: skipped (no kernel tree: run $R/kbuild-tiny once as root, about 12 minutes)"
	exit 0
fi
echo "kbuild: $passed passed, $failed failed"
[ $failed = 0 ]
