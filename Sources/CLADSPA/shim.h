#include <ladspa.h>
#include <dlfcn.h>
