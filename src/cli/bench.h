/* bench.h: timing shared by the benchmarks. */
#ifndef IKS_BENCH_H
#define IKS_BENCH_H
double iks_now(void); /* monotonic seconds */
int bench_parse_reps(const char *what, int argc, char **argv, int *reps);
int bench_gpu(int argc, char **argv);
int bench_render(int argc, char **argv);
/* (e) of bench render: the candidate PNG encoders on count frames of bottom-up RGBA8 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
bool bench_encoders(const uint8_t *frames, size_t frame_bytes, long count, int w, int h, int level);
#endif
