// SPDX-License-Identifier: GPL-2.0
/*
 * share_ksym.c - what a profiler hears of trampoline images: the
 * PERF_RECORD_KSYMBOL records (include/uapi/linux/perf_event.h) the kernel
 * sends when it adds or removes a BPF trampoline image's symbol
 * (kernel/bpf/trampoline.c, bpf_image_ksym_add()/_del()), read as perf
 * record does: a dummy software event with attr.ksymbol on every CPU (the
 * frees run in kworkers, on any CPU), each with a ring buffer.
 *
 * Kept per read: the records of "bpf_trampoline_*" symbols added and
 * removed (of which shared images', share_shared_name()), records lost,
 * and, over the symbols live now (added and not removed, by address), how
 * many are a page or longer (before the series' perf-size fix every image
 * was announced as PAGE_SIZE, so neighbours in the BPF prog pack overlapped)
 * and how many overlap another: a sample's address names one image.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include "boot.h"
#include "share.h"

#define RING_PAGES	1024	/* 4 MB a CPU: ~60,000 records of one attach */
/*
 * Records kept, allocated and touched at open: the proof's free-memory
 * check compares MemFree before and after with the watch open, so the
 * watch must not grow in between (a sharing-off fentry+fexit phase sends
 * about 140,000 records)
 */
#define KEEP_RECORDS	(1 << 18)
#define MAX_CPUS	64

struct ksym_range {
	uint64_t addr;
	uint32_t len;
	uint32_t seq;		/* the record's order: the later add wins */
	int del;		/* a removal */
	int stubs;		/* a block of stubs ("<image>_stubs"), up to a page long */
};

struct share_ksym {
	int ncpu, fd[MAX_CPUS];
	void *ring[MAX_CPUS];
	size_t page;
	struct share_ksym_counts c;
	struct ksym_range *r;	/* every add and removal so far */
	size_t nr, cap;
};

struct ksym_record {
	struct perf_event_header header;
	uint64_t addr;
	uint32_t len;
	uint16_t ksym_type;
	uint16_t flags;
	char name[];
};

static void ksym_close_all(struct share_ksym *w)
{
	for (int i = 0; i < w->ncpu; i++) {
		if (w->ring[i])
			munmap(w->ring[i], (RING_PAGES + 1) * w->page);
		if (w->fd[i] >= 0)
			close(w->fd[i]);
	}
	free(w->r);
	free(w);
}

struct share_ksym *share_ksym_open(void)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(a),
		.config = PERF_COUNT_SW_DUMMY,
		.ksymbol = 1,
		.disabled = 0,
	};
	struct share_ksym *w = calloc(1, sizeof(*w));
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	if (!w)
		return NULL;
	w->page = sysconf(_SC_PAGESIZE);
	w->cap = KEEP_RECORDS;
	w->r = malloc(w->cap * sizeof(*w->r));
	if (!w->r) {
		free(w);
		return NULL;
	}
	memset(w->r, 0, w->cap * sizeof(*w->r));
	w->ncpu = n < 1 ? 1 : n > MAX_CPUS ? MAX_CPUS : n;
	for (int i = 0; i < w->ncpu; i++)
		w->fd[i] = -1;
	for (int i = 0; i < w->ncpu; i++) {
		w->fd[i] = syscall(SYS_perf_event_open, &a, -1, i, -1, 0);
		if (w->fd[i] < 0) {
			say("share: perf_event_open(ksymbol, cpu %d): %s", i, strerror(errno));
			ksym_close_all(w);
			return NULL;
		}
		w->ring[i] = mmap(NULL, (RING_PAGES + 1) * w->page, PROT_READ | PROT_WRITE,
				  MAP_SHARED, w->fd[i], 0);
		if (w->ring[i] == MAP_FAILED) {
			w->ring[i] = NULL;
			say("share: mmap of the perf ring (cpu %d): %s", i, strerror(errno));
			ksym_close_all(w);
			return NULL;
		}
	}
	return w;
}

void share_ksym_close(struct share_ksym *w)
{
	if (w)
		ksym_close_all(w);
}

static int ksym_stubs(const char *name)
{
	size_t n = strlen(name);

	return n > 6 && !strcmp(name + n - 6, "_stubs");
}

static int ksym_keep(struct share_ksym *w, const struct ksym_record *k)
{
	if (w->nr == w->cap) {
		size_t cap = w->cap ? 2 * w->cap : 4096;
		struct ksym_range *r = realloc(w->r, cap * sizeof(*r));

		if (!r)
			return -ENOMEM;
		w->r = r;
		w->cap = cap;
	}
	w->r[w->nr] = (struct ksym_range){ k->addr, k->len, (uint32_t)w->nr,
					   !!(k->flags & PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER),
					   ksym_stubs(k->name) };
	w->nr++;
	return 0;
}

static void ksym_record(struct share_ksym *w, const struct perf_event_header *h)
{
	const struct ksym_record *k = (const void *)h;
	bool del;

	if (h->type == PERF_RECORD_LOST) {
		w->c.lost += ((const uint64_t *)(h + 1))[1];
		return;
	}
	if (h->type != PERF_RECORD_KSYMBOL || k->ksym_type != PERF_RECORD_KSYMBOL_TYPE_BPF ||
	    strncmp(k->name, "bpf_trampoline_", 15))
		return;
	del = k->flags & PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER;
	if (del) {
		w->c.del++;
		w->c.del_shared += share_shared_name(k->name);
	} else {
		w->c.add++;
		w->c.add_shared += share_shared_name(k->name);
	}
	if (ksym_keep(w, k))
		w->c.lost++;
}

/* Every record in CPU @i's ring, then the ring emptied. */
static void ksym_drain(struct share_ksym *w, int i)
{
	struct perf_event_mmap_page *m = w->ring[i];
	uint8_t *data = (uint8_t *)m + w->page, rec[1024];
	uint64_t size = (uint64_t)RING_PAGES * w->page;
	uint64_t head = __atomic_load_n(&m->data_head, __ATOMIC_ACQUIRE), tail = m->data_tail;

	while (tail < head) {
		const struct perf_event_header *h = (const void *)(data + tail % size);
		uint64_t off = tail % size;

		if (h->size < sizeof(*h))
			break;
		if (off + h->size > size) {	/* wraps: copy it out */
			uint64_t first = size - off;

			if (h->size > sizeof(rec))
				break;
			memcpy(rec, data + off, first);
			memcpy(rec + first, data, h->size - first);
			h = (const void *)rec;
		}
		ksym_record(w, h);
		tail += h->size;
	}
	__atomic_store_n(&m->data_tail, head, __ATOMIC_RELEASE);
}

static int cmp_range(const void *a, const void *b)
{
	const struct ksym_range *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * From the adds and removals so far (sorted in place by address, then by
 * their order): the live symbols, page-long ones, overlapping ones
 */
static void ksym_live(struct share_ksym *w)
{
	struct ksym_range *r = w->r;
	uint64_t end = 0;
	size_t i, j;

	w->c.live = w->c.page_len = w->c.overlap = 0;
	qsort(r, w->nr, sizeof(*r), cmp_range);
	for (i = 0; i < w->nr; i = j) {
		long count = 0;

		/* the records of one address, in their order: the last add's length */
		for (j = i; j < w->nr && r[j].addr == r[i].addr; j++)
			count += r[j].del ? -1 : 1;
		if (count <= 0)
			continue;
		w->c.live++;
		w->c.page_len += r[j - 1].len >= w->page && !r[j - 1].stubs;
		w->c.overlap += r[i].addr < end;
		if (r[i].addr + r[j - 1].len > end)
			end = r[i].addr + r[j - 1].len;
	}
}

void share_ksym_read(struct share_ksym *w, struct share_ksym_counts *c)
{
	for (int i = 0; i < w->ncpu; i++)
		ksym_drain(w, i);
	ksym_live(w);
	*c = w->c;
}
