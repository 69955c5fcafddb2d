/* sanopts.c: linked into every executable of a sanitized build (CMakeLists.txt adds it), never into
 * a release. AddressSanitizer reads these before ASAN_OPTIONS, which can still override them.
 *
 * intercept_tls_get_addr=0: GCC's runtime up to 13 (and LLVM's up to 16) takes a dynamic TLS block that
 * malloc happens to place 16 bytes past a page boundary for a pre-2.25 glibc block with a header, reads
 * the two words before it (ASan's chunk header) as an address and a size, and LeakSanitizer's exit scan
 * then dies on that range: "Tracer caught signal 11", exit 1 with no leak. Mesa's driver threads make
 * such blocks in every GL process, so about one sanitized run in a hundred failed at random.
 * tests/asan_tls.c makes it happen in every run. Without the interception dynamic TLS blocks are still
 * scanned as the heap chunks they are, reached from each thread's DTV. */
__attribute__((visibility("default"), used)) const char *__asan_default_options(void);

const char *__asan_default_options(void)
{
    return "intercept_tls_get_addr=0";
}
