/* interrupt.h - what signals do to a long-running command, so that no signal a user, a terminal,
 * a pipe or a batch system can send throws finished work away.
 *
 * Stop signals (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGXCPU, SIGALRM and SIGPWR: every signal
 * that asks a process to end and that a program may catch) escalate, so that an impatient user
 * loses as little as possible. For `render`:
 *   1st: finish the sample pass in flight (with several devices, each part of the image its own
 *        pass in flight), then save the checkpoint and write the image;
 *   2nd: stop after the wave in flight (a fraction of a pass), and still save and write;
 *   3rd: quit at once, writing nothing (what SIGKILL does too).
 * A terminal that closes may send SIGHUP more than once (the kernel and the shell each send
 * one), so repeated SIGHUPs count once: only a user's repeated signal escalates; and a SIGHUP
 * that was ignored when raystream started (`nohup raystream ...`) stays ignored.
 * Save signals (SIGUSR1, SIGUSR2) ask for what has been done so far to be saved (render: the
 * checkpoint) and the work goes on. main.c ignores them (and SIGPIPE) in every command, so that
 * they never end raystream; a command listens for them only while it has something to save.
 * Each step says on stderr what will happen, in the words the command gave.
 *
 * Host C11 (POSIX sigaction), application layer.
 */
#ifndef RS_APP_INTERRUPT_H
#define RS_APP_INTERRUPT_H

#include <signal.h>

/* Installs the handlers (sigaction, so they stay installed after the first signal) and clears
 * the counts. first and second are what the first and second stop signals print (one line
 * each, without "raystream: "); they must stay valid until rs_interrupt_uninstall. */
void rs_interrupt_install(const char* first, const char* second);
/* Puts back the actions there were before rs_interrupt_install. */
void rs_interrupt_uninstall(void);

/* Stop signals received since rs_interrupt_install (a repeated SIGHUP counts once). */
int rs_interrupt_count(void);
/* This process's own stop level from its signals: 0, 1 (at the pass) or 2 (after the wave). */
int rs_interrupt_level(void);
/* Raises the flags below to `level` without a signal: a stop passed on from another process
 * (an MPI rank). Does not change rs_interrupt_count or print anything. */
void rs_interrupt_escalate(int level);
/* Non-zero from the second stop signal (or rs_interrupt_escalate(2)) on: stop after the wave. */
const volatile sig_atomic_t* rs_interrupt_stop_flag(void);
/* Non-zero from the first stop signal (or rs_interrupt_escalate(1)) on: stop at the pass. */
const volatile sig_atomic_t* rs_interrupt_pass_flag(void);

/* The save signal that came since the last call (SIGUSR1 or SIGUSR2; several count as one,
 * the last named), else 0. */
int rs_interrupt_take_save_request(void);

#endif /* RS_APP_INTERRUPT_H */
