#define _XOPEN_SOURCE 600
#include "PseudoTerminal.h"
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

int aurender_open_pseudo_terminal(int *primary, int *secondary) {
    int controlling = posix_openpt(O_RDWR | O_NOCTTY);
    if (controlling < 0) return -1;
    const char *name = (grantpt(controlling) == 0 && unlockpt(controlling) == 0) ? ptsname(controlling) : NULL;
    int terminal = name ? open(name, O_RDWR | O_NOCTTY) : -1;
    if (terminal < 0) {
        close(controlling);
        return -1;
    }
    *primary = controlling;
    *secondary = terminal;
    return 0;
}
