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
 *   floor [--libbpf] ELF64...   prints "SECTION BYTES" lines and a checksum
 */
#include <byteswap.h>
#include <elf.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <bpf/btf.h>

static int swap;
static int with_libbpf;

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

	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st)) {
		perror(path);
		return 1;
	}
	m = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (m == MAP_FAILED) {
		perror(path);
		return 1;
	}
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
		printf("%s %llu\n", name, (unsigned long long)g64(sh[i].sh_size));
		if (!with_libbpf)
			sum += touch(m + g64(sh[i].sh_offset), g64(sh[i].sh_size));
		else if (!strcmp(name, ".BTF")) {
			struct btf *btf = btf__new(m + g64(sh[i].sh_offset), g64(sh[i].sh_size));

			if (!btf) {
				fprintf(stderr, "%s: libbpf cannot read .BTF\n", path);
				return 1;
			}
			sum += btf__type_cnt(btf);
			btf__free(btf);
		}
	}
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
		else
			err |= one(argv[i]);
	}
	return err;
}
