/* outfile.h: writing the files a user asked for, with care, and stopping at once when asked.
 * - A file is written under a hidden temporary name beside it and renamed over the target, so a crash,
 *   a kill or a full disk never leaves a partial file under the target's name. What is already at the
 *   name is replaced only if it is a regular file the user may write: a symbolic link, a FIFO, a
 *   device, a directory or a read-only file there is an error (EEXIST-like errnos, worded by
 *   iks_outfile_strerror), never silently replaced. New files get 0666 less the umask, as any tool's.
 * - Temporaries in flight are registered, so that a signal handler can remove them all before the
 *   process ends (iks_outfile_remove_temporaries is async-signal-safe), and locked (flock, LOCK_EX)
 *   from their creation to their rename or removal, so that another process can tell a dead writer's
 *   temporary (a killed node's) from a live one's, and remove only the dead (iks_outfile_remove_stale).
 * - iks_stop_request (async-signal-safe) makes blocking writes give up with EINTR when their reader
 *   has not taken anything for 3 s (other signals meanwhile do not shorten that), so that a reader that
 *   stopped reading cannot keep a render from stopping, while a frame on its way to a reader that
 *   reads is finished.
 * What it does not do: encode (pngio.c), decide names (the engine's writer). */
#ifndef IKS_OUTFILE_H
#define IKS_OUTFILE_H

#include "base/stop.h"

#include <stdbool.h>
#include <sys/types.h>
#include <stddef.h>

/* errno values of refusals to replace what is at an output's name */
#define IKS_EOUT_LINK ELOOP       /* a symbolic link */
#define IKS_EOUT_SPECIAL ENODEV   /* a FIFO, socket or device */
#define IKS_EOUT_READONLY EROFS   /* a file the user may not write */

/* write(2) until all of data is written, through short writes; EINTR is retried unless a stop was
 * requested, then false with errno EINTR. false with errno set. */
bool iks_write_all(int fd, const void *data, size_t len);

/* Writes data to path atomically (see above). false with errno set. */
bool iks_write_atomic(const char *path, const void *data, size_t len);

/* Whether path may be written as an output: absent, or a regular file the user may write (0), else
 * -1 with errno as above (or the stat error). */
int iks_outfile_check(const char *path);

/* strerror, with the refusals above worded for an output ("a symbolic link: not replaced", ...) */
const char *iks_outfile_strerror(int e);

/* Creates a temporary file beside path (O_EXCL, mode 0600 until published, locked while fd or a copy
 * of it is open), registered for removal on a signal. tmp (malloc'd, caller frees after iks_outfile_tmp_done) gets its name. -1 with errno. */
int iks_outfile_tmp_create(const char *path, char **tmp);
/* The same, its name ending with ext (at most 32 bytes: ".mp4"), for a writer that tells the format
 * from the name (ffmpeg). */
int iks_outfile_tmp_create_ext(const char *path, const char *ext, char **tmp);
/* Gives the temporary its final mode (0666 less the umask) and renames it over path after checking
 * what is there; unlinks it on failure. Closes fd either way. false with errno set. */
bool iks_outfile_tmp_publish(int fd, const char *tmp, const char *path);
/* The same for a name that must not be taken from anyone (another toy's checkpoint): what is already
 * at path, whatever it is, stays, and false with errno EEXIST. */
bool iks_outfile_tmp_publish_new(int fd, const char *tmp, const char *path);
/* Names the user did not type (screenshots, takes, ikshade-NNNN.mp4) are claimed, never replaced: the
 * temporary is renamed with RENAME_NOREPLACE to name(0), else name(1), ... (each candidate written
 * into buf by the caller's function, false when there are no more), so that two processes claiming
 * at once get two names and a file already there is never touched. The name taken is left in buf.
 * Closes fd and unregisters tmp either way (it is removed on failure); false with errno set (EEXIST
 * when every candidate was taken). */
typedef bool (*iks_name_fn)(void *user, int attempt, char *buf, size_t n);
bool iks_outfile_tmp_claim(int fd, const char *tmp, iks_name_fn name, void *user, char *buf, size_t n);
/* data into a new file, claimed as above */
bool iks_write_new(const void *data, size_t len, iks_name_fn name, void *user, char *buf, size_t n);
/* Whether two output paths name one file (the same file there, or the same name in the same directory
 * for one not there yet) */
bool iks_same_output(const char *a, const char *b);
/* rename(2) that never replaces what is at to: false with errno EEXIST when something is there */
bool iks_rename_new(const char *from, const char *to);
/* A temporary given up: fd closed (when >= 0), the file removed, unregistered, *tmp freed and NULL;
 * errno kept. Safe with *tmp NULL. */
void iks_outfile_tmp_discard(int fd, char **tmp);
/* Whether a directory entry is the name of a temporary made for base (a file name, no directory) with
 * ext ("" for iks_outfile_tmp_create): ".BASE.XXXXXXEXT". */
bool iks_outfile_tmp_is(const char *entry, const char *base, const char *ext);
/* Removes the temporary tmp if its writer is gone: only when its lock can be taken (a live writer
 * holds it), it is a regular file and the name still leads to the file locked. 1 removed, 0 left
 * (a live writer's, or gone already), -1 left with errno (no locks on this file system: ENOLCK or
 * the like; it is not a regular file: IKS_EOUT_SPECIAL; or the open's error). */
int iks_outfile_remove_stale(const char *tmp);
/* Removes, as above, every temporary in dir whose name match accepts (a hidden name); how many were
 * removed, first (when not NULL) gets the first one's path. A dir that cannot be read: 0. */
typedef bool (*iks_tmp_match_fn)(void *user, const char *entry);
long iks_outfile_remove_stale_in(const char *dir, iks_tmp_match_fn match, void *user, char *first, size_t n);
/* Removes, as above, the temporaries made for path (iks_outfile_tmp_create_ext(path, ext): ".BASE.XXXXXXEXT"
 * beside it) whose writer is gone: a killed run's file in the making. How many; first as above. */
long iks_outfile_remove_stale_of(const char *path, const char *ext, char *first, size_t n);
/* Unregisters tmp (after it was renamed or removed). */
void iks_outfile_tmp_done(const char *tmp);
/* Registers any path to remove on a signal (a video's partial file); 0 and later unregister with
 * iks_outfile_tmp_done, or -1 when out of memory. */
int iks_outfile_tmp_register(const char *path);

/* Names the child process that writes the registered tmp (a video's encoder), or 0 for none: a
 * removal on a signal ends it (SIGKILL) and waits for it before it unlinks the file. The pid must be
 * cleared before the child is reaped (its number could be reused afterwards): wait for its end with
 * WNOWAIT, clear, then reap. */
void iks_outfile_tmp_writer(const char *tmp, pid_t pid);
/* tmp's writer has had all its input and is writing the file's end (a GIF's palette pass can take
 * longer than a stop's grace period); iks_outfile_finishing, async-signal-safe, says whether any such
 * writer still runs, so a stop can wait for a file that is nearly done instead of dropping it. */
void iks_outfile_tmp_finishing(const char *tmp);
bool iks_outfile_finishing(void);

/* Registers a temporary directory of files (no subdirectories), removed whole on a signal. */
int iks_outfile_tmp_register_dir(const char *path);

/* Removes a directory of files (no subdirectories): the temporary directories above. */
void iks_outfile_remove_dir(const char *dir);

/* Async-signal-safe: removes every registered temporary. */
void iks_outfile_remove_temporaries(void);


/* mkdir -p of the directory part of path; false with errno set. */
bool iks_make_parent_dirs(const char *path);
/* The outermost directory on the way to path's that is not there yet (malloc'd), or NULL when they all
 * are (or the path holds a . or .. component): what iks_make_parent_dirs(path) would make, for
 * iks_remove_made_dirs to take back. */
char *iks_missing_parent(const char *path);
/* After a failure that wrote nothing: removes path's directory and those above it up to top (from
 * iks_missing_parent), each only if empty. Safe with top NULL (nothing to remove). */
void iks_remove_made_dirs(const char *path, const char *top);

#endif
