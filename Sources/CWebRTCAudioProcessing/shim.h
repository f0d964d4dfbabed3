// WebRTC's audio processing module is C++: this target only carries its pkg-config flags and
// its library to CVoiceShim, which wraps it in C. Nothing here is imported into Swift.
