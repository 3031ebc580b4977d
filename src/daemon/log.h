/*
 * The daemon's log: one line per message on stderr,
 *   2024-05-01T12:00:00.123Z info  listening on 127.0.0.1:7420
 * filtered by a level that SIGHUP may change. Messages name jobs,
 * circuits, files and sizes, never witness values (README.md, threat
 * model); control characters (a client's request id may hold any) are
 * written as spaces. At info: the start (curve, backends), each job's
 * submission, start, proved partitions, end (with its duration or its
 * reason) and each refused registration. Thread-safe: each line is formatted first and written with one
 * call.
 */
#ifndef SP_DAEMON_LOG_H
#define SP_DAEMON_LOG_H

typedef enum { SP_DMN_LOG_ERROR = 0, SP_DMN_LOG_WARN, SP_DMN_LOG_INFO, SP_DMN_LOG_DEBUG } sp_dmn_log_level;

/* Lines above this level are dropped (default SP_DMN_LOG_INFO). */
void sp_dmn_log_set_level(sp_dmn_log_level lv);
sp_dmn_log_level sp_dmn_log_get_level(void);

/* "error", "warn", "info", "debug". */
const char *sp_dmn_log_level_name(sp_dmn_log_level lv);

void sp_dmn_log(sp_dmn_log_level lv, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#define SP_DMN_LOGE(...) sp_dmn_log(SP_DMN_LOG_ERROR, __VA_ARGS__)
#define SP_DMN_LOGW(...) sp_dmn_log(SP_DMN_LOG_WARN, __VA_ARGS__)
#define SP_DMN_LOGI(...) sp_dmn_log(SP_DMN_LOG_INFO, __VA_ARGS__)
#define SP_DMN_LOGD(...) sp_dmn_log(SP_DMN_LOG_DEBUG, __VA_ARGS__)

#endif
