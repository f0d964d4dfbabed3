// TagLib is C++: this target only carries its pkg-config flags and its library to CTagShim,
// which wraps the parts aurender uses in C. Nothing here is imported into Swift.
