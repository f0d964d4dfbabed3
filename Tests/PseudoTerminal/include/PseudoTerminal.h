#ifndef AURENDER_PSEUDO_TERMINAL_H
#define AURENDER_PSEUDO_TERMINAL_H

/// Opens a new pseudo-terminal: its controlling side in *primary and the terminal a child
/// process writes to in *secondary. Returns 0, or -1 with errno set.
int aurender_open_pseudo_terminal(int *primary, int *secondary);

#endif
