/* interrupt.c - the escalating SIGINT/SIGTERM policy (see interrupt.h). Host C11 (POSIX). */
#define _POSIX_C_SOURCE 200809L
#include "app/interrupt.h"

#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t count = 0;
static volatile sig_atomic_t stop_now = 0;

/* write(2) is async-signal-safe; stdio is not */
#define SAY(text) (void)!write(STDERR_FILENO, text, sizeof text - 1)

static void on_signal(int sig)
{
    int n = count + 1;
    count = n;
    if (n == 1) {
        SAY("\nraystream: interrupted: finishing this sample pass, then writing the image "
            "(interrupt again to stop sooner)\n");
    } else if (n == 2) {
        stop_now = 1;
        SAY("\nraystream: stopping after the current wave; what is done will still be written "
            "(a third interrupt quits without writing)\n");
    } else {
        SAY("\nraystream: quitting without writing anything\n");
        signal(sig, SIG_DFL);
        raise(sig);
    }
}

static void set_handler(void (*handler)(int))
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART; /* a signal must not make a file write or a device call fail */
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

void rs_interrupt_install(void)
{
    count = 0;
    stop_now = 0;
    set_handler(on_signal);
}

void rs_interrupt_uninstall(void) { set_handler(SIG_DFL); }

int rs_interrupt_count(void) { return count; }

const volatile sig_atomic_t* rs_interrupt_stop_flag(void) { return &stop_now; }

const volatile sig_atomic_t* rs_interrupt_pass_flag(void) { return &count; }
