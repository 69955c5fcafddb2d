/* asan_tls.c's module: a TLS block small enough to land in ASan's 64-byte size class, loaded with
 * dlopen so that every thread gets its own block from malloc */
__attribute__((visibility("default"))) int *asan_tls_touch(void);

static __thread int small_block[2];

int *asan_tls_touch(void)
{
    return small_block;
}
