/* bench.h: timing shared by the benchmarks. */
#ifndef IKS_BENCH_H
#define IKS_BENCH_H
double iks_now(void); /* monotonic seconds */
int bench_parse_reps(const char *what, int argc, char **argv, int *reps);
int bench_gpu(int argc, char **argv);
int bench_render(int argc, char **argv);
#endif
