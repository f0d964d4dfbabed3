#include <SoundTouchDLL.h>
