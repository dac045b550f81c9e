/* interrupt.h - what Ctrl-C (SIGINT) and SIGTERM do to a long render, escalating so that an
 * impatient user loses as little as possible:
 *   1st: finish the sample pass in flight (with several devices, each part of the image its own
 *        pass in flight), then save the checkpoint and write the image;
 *   2nd: stop after the wave in flight (a fraction of a pass), and still save and write;
 *   3rd: quit at once, writing nothing (what SIGKILL does too).
 * Each step says on stderr what will happen. Host C11 (POSIX sigaction), application layer.
 */
#ifndef RS_APP_INTERRUPT_H
#define RS_APP_INTERRUPT_H

#include <signal.h>

/* Installs the handlers (sigaction, so they stay installed after the first signal). */
void rs_interrupt_install(void);
/* Puts back the default actions. */
void rs_interrupt_uninstall(void);

/* Signals received since rs_interrupt_install. */
int rs_interrupt_count(void);
/* Non-zero from the second signal on: stop after the wave in flight. */
const volatile sig_atomic_t* rs_interrupt_stop_flag(void);
/* Non-zero from the first signal on: end at the sample pass in flight. */
const volatile sig_atomic_t* rs_interrupt_pass_flag(void);

#endif /* RS_APP_INTERRUPT_H */
