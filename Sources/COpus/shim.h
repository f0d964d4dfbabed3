#include <ogg/ogg.h>
#include <opus.h>
