// The environment the server process is started with, beyond the operator's own.
//
// MALLOC_MMAP_THRESHOLD_: glibc serves allocations of 64 KiB and more (upload chunks, socket reads) with
// mmap and hands them back to the system when freed. Its default threshold rises after the first large free,
// after which such memory stays in the heap: five concurrent 20 MiB uploads then left the process 63–78 MB
// larger for good; with the fixed threshold, 24–39 MB. An operator's own setting wins.
export const serverAllocatorEnv = { MALLOC_MMAP_THRESHOLD_: process.env.MALLOC_MMAP_THRESHOLD_ ?? "65536" };
