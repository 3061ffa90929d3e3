/* proc.h: process identity from /proc: a pid plus a process_instance token that changes when
 * the pid is reused ("<first 8 hex of the boot id>:<start time in clock ticks>"). */
#ifndef AD_PROC_H
#define AD_PROC_H

#include <stdbool.h>

/* The instance token of a running pid (malloc'd), or NULL when the process is gone. */
char *ad_proc_instance(int pid);
/* True when pid runs and, if instance is non-NULL, still has that instance token. */
bool ad_proc_alive(int pid, const char *instance);
/* The process's executable, /proc/pid/exe resolved (malloc'd), or NULL. */
char *ad_proc_exe_path(int pid);
/* Base name of the process's executable (malloc'd), or NULL. */
char *ad_proc_exe_name(int pid);

/* The parent pid of pid (field 4 of /proc/pid/stat), 0 when unknown. */
int ad_proc_parent(int pid);

#endif
