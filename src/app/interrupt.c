/* interrupt.c - the escalating stop signals and the save signals (see interrupt.h). Host C11
 * (POSIX). Handlers only count, set flags and write(2): everything else happens in the
 * command's own loop. */
#define _POSIX_C_SOURCE 200809L
#include "app/interrupt.h"

#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t count = 0;
static volatile sig_atomic_t hangup_seen = 0;
static volatile sig_atomic_t stop_pass = 0;
static volatile sig_atomic_t stop_now = 0;
static volatile sig_atomic_t save_requests = 0;
static volatile sig_atomic_t save_signal = 0;
static sig_atomic_t save_taken = 0;
static const char* first_text = "";
static const char* second_text = "";

static const int stop_signals[] = {
    SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGXCPU, SIGALRM,
#ifdef SIGPWR
    SIGPWR,
#endif
};
static const int save_signals[] = {SIGUSR1, SIGUSR2};
#define STOP_COUNT (sizeof stop_signals / sizeof stop_signals[0])
#define SAVE_COUNT (sizeof save_signals / sizeof save_signals[0])
static struct sigaction previous[STOP_COUNT + SAVE_COUNT];
static int installed = 0;

/* write(2) is async-signal-safe; stdio is not. A closed stderr (EPIPE, a hung-up terminal)
 * only loses the words. */
static void say(const char* text) { (void)!write(STDERR_FILENO, text, strlen(text)); }

static void on_stop(int sig)
{
    if (sig == SIGHUP) {
        if (hangup_seen)
            return;
        hangup_seen = 1;
    }
    int n = count + 1;
    count = n;
    if (n == 1) {
        stop_pass = 1;
        say("\nraystream: ");
        say(first_text);
        say("\n");
    } else if (n == 2) {
        stop_pass = 1;
        stop_now = 1;
        say("\nraystream: ");
        say(second_text);
        say("\n");
    } else {
        say("\nraystream: quitting without writing anything\n");
        signal(sig, SIG_DFL);
        raise(sig);
    }
}

static void on_save(int sig)
{
    save_signal = sig;
    save_requests = save_requests + 1;
}

void rs_interrupt_install(const char* first, const char* second)
{
    count = 0;
    hangup_seen = 0;
    stop_pass = 0;
    stop_now = 0;
    save_requests = 0;
    save_taken = 0;
    first_text = first;
    second_text = second;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask); /* one handler at a time: the counts are read, then written */
    for (size_t i = 0; i < STOP_COUNT + SAVE_COUNT; ++i)
        sigaddset(&sa.sa_mask, i < STOP_COUNT ? stop_signals[i] : save_signals[i - STOP_COUNT]);
    sa.sa_flags = SA_RESTART; /* a signal must not make a file write or a device call fail */
    if (installed)
        rs_interrupt_uninstall();
    for (size_t i = 0; i < STOP_COUNT + SAVE_COUNT; ++i) {
        int stop = i < STOP_COUNT, sig = stop ? stop_signals[i] : save_signals[i - STOP_COUNT];
        sigaction(sig, NULL, &previous[i]);
        /* `nohup raystream ...` asked that a hang-up not touch this process */
        if (sig == SIGHUP && previous[i].sa_handler == SIG_IGN)
            continue;
        sa.sa_handler = stop ? on_stop : on_save;
        sigaction(sig, &sa, NULL);
    }
    installed = 1;
}

void rs_interrupt_uninstall(void)
{
    if (!installed)
        return;
    for (size_t i = 0; i < STOP_COUNT + SAVE_COUNT; ++i)
        sigaction(i < STOP_COUNT ? stop_signals[i] : save_signals[i - STOP_COUNT], &previous[i], NULL);
    installed = 0;
}

int rs_interrupt_count(void) { return count; }

int rs_interrupt_level(void) { return count >= 2 ? 2 : count; }

void rs_interrupt_escalate(int level)
{
    if (level >= 1)
        stop_pass = 1;
    if (level >= 2)
        stop_now = 1;
}

const volatile sig_atomic_t* rs_interrupt_stop_flag(void) { return &stop_now; }

const volatile sig_atomic_t* rs_interrupt_pass_flag(void) { return &stop_pass; }

int rs_interrupt_take_save_request(void)
{
    sig_atomic_t now = save_requests;
    if (now == save_taken)
        return 0;
    save_taken = now;
    return save_signal;
}
