// SPDX-License-Identifier: GPL-2.0
/*
 * floor - the bare cost of bringing .symtab, .strtab and .BTF of an ELF64
 * file into memory: mmap it read-only and read every 8-byte word of those
 * three sections (plus the headers needed to find them). No libelf, no
 * libbpf, no symbol or type parsing. Any resolver must at least page these
 * in once, so this is a lower bound for btfids on the same file.
 *
 * With --libbpf it reads nothing but .BTF, through libbpf: btf__new() on
 * the mapped section (a copy of it, the byte swap of a foreign-endian one,
 * an index of every type), then btf__free(). Every tool that reads BTF
 * with libbpf, btfids and the kernel's resolve_btfids included, pays at
 * least this, whatever else it does.
 *
 * --btf FILE takes the BTF from FILE instead of the ELF's .BTF, the way the
 * 7.x flow's `--btf FILE` does (kbuild hands pahole's raw BTF over in a
 * file): the bare read reads .symtab and .strtab of the ELF and all of FILE
 * (raw BTF, or an ELF whose .BTF is read); --libbpf does btf__new() on FILE's
 * bytes. FILE is mapped like the ELF.
 *
 * --permute (with --libbpf) also does what every 7.x tool must do through
 * libbpf to sort the BTF, with nothing of the sorting itself:
 * btf__permute() with the identity map (libbpf turns the BTF modifiable
 * first: every type copied, every string put in a hash set) and
 * btf__raw_data() of the result (the bytes to write).
 *
 *   floor [--libbpf [--permute]] [--btf FILE] ELF64...
 *                               prints "SECTION BYTES" lines and a checksum
 */
#include <byteswap.h>
#include <elf.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <bpf/btf.h>

static int swap;
static int with_libbpf;
static int with_permute;
static const char *btf_path;	/* --btf FILE */

static uint64_t g64(uint64_t v) { return swap ? bswap_64(v) : v; }
static uint32_t g32(uint32_t v) { return swap ? bswap_32(v) : v; }
static uint16_t g16(uint16_t v) { return swap ? bswap_16(v) : v; }

static uint64_t touch(const unsigned char *p, uint64_t n)
{
	uint64_t sum = 0, w, i;

	for (i = 0; i + 8 <= n; i += 8) {
		memcpy(&w, p + i, 8);
		sum += w;
	}
	for (; i < n; i++)
		sum += p[i];
	return sum;
}

/* btf__new() of @size bytes at @p (and --permute), then btf__free() */
static int parse(const char *path, const void *p, uint64_t size, uint64_t *sum)
{
	struct btf *btf = btf__new(p, size);
	__u32 n, i, raw_size;
	__u32 *id_map;

	if (!btf) {
		fprintf(stderr, "%s: libbpf cannot read the BTF\n", path);
		return 1;
	}
	n = btf__type_cnt(btf);
	*sum += n;
	if (with_permute) {
		id_map = calloc(n, sizeof(*id_map));
		for (i = 0; id_map && i < n; i++)
			id_map[i] = i;
		if (!id_map || btf__permute(btf, id_map, n, NULL) ||
		    !btf__raw_data(btf, &raw_size)) {
			fprintf(stderr, "%s: libbpf cannot permute the BTF\n", path);
			return 1;
		}
		*sum += raw_size;
		free(id_map);
	}
	btf__free(btf);
	return 0;
}

/* --btf FILE: a raw BTF file, or an ELF whose .BTF is taken */

/* @path mapped read-only (*fd open, *st its stat), or NULL after perror() */
static const unsigned char *map_file(const char *path, int *fd, struct stat *st)
{
	void *m;

	*fd = open(path, O_RDONLY);
	if (*fd < 0 || fstat(*fd, st)) {
		perror(path);
		return NULL;
	}
	m = mmap(NULL, st->st_size, PROT_READ, MAP_PRIVATE, *fd, 0);
	if (m == MAP_FAILED) {
		perror(path);
		close(*fd);
		return NULL;
	}
	return m;
}

static int btf_file(const char *path, uint64_t *sum)
{
	const unsigned char *m;
	struct stat st;
	int fd, err = 0;

	m = map_file(path, &fd, &st);
	if (!m)
		return 1;
	if (!memcmp(m, ELFMAG, SELFMAG)) {
		fprintf(stderr, "%s: --btf takes raw BTF here\n", path);
		err = 1;
	} else {
		printf("%s %llu\n", path, (unsigned long long)st.st_size);
		if (with_libbpf)
			err = parse(path, m, st.st_size, sum);
		else
			*sum += touch(m, st.st_size);
	}
	munmap((void *)m, st.st_size);
	close(fd);
	return err;
}

static int one(const char *path)
{
	const Elf64_Ehdr *eh;
	const Elf64_Shdr *sh;
	const unsigned char *m;
	uint64_t sum = 0;
	const char *shstr;
	struct stat st;
	unsigned int i, n;
	int fd;

	m = map_file(path, &fd, &st);
	if (!m)
		return 1;
	eh = (const Elf64_Ehdr *)m;
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64) {
		fprintf(stderr, "%s: not ELF64\n", path);
		return 1;
	}
	swap = (eh->e_ident[EI_DATA] == ELFDATA2MSB) != (__BYTE_ORDER == __BIG_ENDIAN);
	sh = (const Elf64_Shdr *)(m + g64(eh->e_shoff));
	n = g16(eh->e_shnum);
	shstr = (const char *)m + g64(sh[g16(eh->e_shstrndx)].sh_offset);
	for (i = 0; i < n; i++) {
		const char *name = shstr + g32(sh[i].sh_name);

		if (strcmp(name, ".symtab") && strcmp(name, ".strtab") && strcmp(name, ".BTF"))
			continue;
		if (btf_path && !strcmp(name, ".BTF"))
			continue;	/* read from FILE below */
		if (with_libbpf && strcmp(name, ".BTF"))
			continue;
		printf("%s %llu\n", name, (unsigned long long)g64(sh[i].sh_size));
		if (!with_libbpf)
			sum += touch(m + g64(sh[i].sh_offset), g64(sh[i].sh_size));
		else if (parse(path, m + g64(sh[i].sh_offset), g64(sh[i].sh_size), &sum))
			return 1;
	}
	if (btf_path && btf_file(btf_path, &sum))
		return 1;
	printf("checksum %llx\n", (unsigned long long)sum);
	munmap((void *)m, st.st_size);
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	int i, err = 0;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--libbpf"))
			with_libbpf = 1;
		else if (!strcmp(argv[i], "--permute"))
			with_permute = 1;
		else if (!strcmp(argv[i], "--btf") && i + 1 < argc)
			btf_path = argv[++i];
		else
			err |= one(argv[i]);
	}
	return err;
}
