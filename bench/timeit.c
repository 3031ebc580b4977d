/*
 * timeit CMD ARGS...: runs CMD (its stdout and stderr to /dev/null) and
 * prints "wall_s cpu_s" of it: the wall clock from fork to exit, and user +
 * system time from wait4's rusage (microseconds, where /usr/bin/time has
 * hundredths). Exits with CMD's status (127 when it could not run).
 * bench/prove-pairs.sh builds and uses it.
 */
#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: timeit CMD [ARGS...]\n");
        return 64;
    }
    double t0 = now();
    pid_t kid = fork();
    if (kid == 0) {
        int null = open("/dev/null", O_WRONLY);
        dup2(null, 1);
        dup2(null, 2);
        execvp(argv[1], argv + 1);
        _exit(127);
    }
    int status = 0;
    struct rusage ru;
    if (kid < 0 || wait4(kid, &status, 0, &ru) != kid) {
        perror("timeit");
        return 127;
    }
    double wall = now() - t0;
    double cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 + (double)ru.ru_stime.tv_sec +
                 (double)ru.ru_stime.tv_usec * 1e-6;
    printf("%.5f %.5f\n", wall, cpu);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}
