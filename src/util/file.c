/* Non-blocking, regular-files-only open (file.h). */
#include "util/file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

sp_status sp_file_open_regular(int *fd, uint64_t *size, const char *path, const char *what, char err[SP_ERR_LEN])
{
    *fd = -1;
    *size = 0;
    /* O_NONBLOCK: open(2) of a FIFO returns at once instead of waiting for
     * a writer; O_NOCTTY: a terminal never becomes ours. */
    int f = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (f < 0) {
        if (err)
            snprintf(err, SP_ERR_LEN, "%s: cannot open %.200s: %s", what, path, strerror(errno));
        return SP_ERR_IO;
    }
    struct stat st;
    if (fstat(f, &st) != 0 || !S_ISREG(st.st_mode)) {
        if (err)
            snprintf(err, SP_ERR_LEN, "%s: %.200s is not a regular file", what, path);
        close(f);
        return SP_ERR_IO;
    }
    int fl = fcntl(f, F_GETFL);
    if (fl < 0 || fcntl(f, F_SETFL, fl & ~O_NONBLOCK) != 0) {
        if (err)
            snprintf(err, SP_ERR_LEN, "%s: %.200s: %s", what, path, strerror(errno));
        close(f);
        return SP_ERR_IO;
    }
    *fd = f;
    *size = (uint64_t)st.st_size;
    return SP_OK;
}
