int64_t mm_reference_work(int64_t units, uint64_t seed);
