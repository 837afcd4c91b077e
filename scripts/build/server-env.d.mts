export declare const serverAllocatorEnv: { MALLOC_MMAP_THRESHOLD_: string };
