#include <FLAC/metadata.h>
#include <FLAC/stream_encoder.h>

/* Exported by libFLAC (and used by `flac --no-md5-sum`) but declared only in its private
   headers: turns off the MD5 each encoder would compute of its own samples. A stream encoded in
   chunks signs the whole input itself. */
FLAC_API FLAC__bool FLAC__stream_encoder_set_do_md5(FLAC__StreamEncoder *encoder, FLAC__bool value);

/* libFLAC's vendor string, read through a function: Swift 6 refuses a C global that is not constant. */
static inline const char *aurender_flac_vendor_string(void) { return FLAC__VENDOR_STRING; }

/* The names of an init status and a state: Swift cannot import arrays of unknown size. */
static inline const char *aurender_flac_init_status_string(FLAC__StreamEncoderInitStatus status) {
    return FLAC__StreamEncoderInitStatusString[status];
}
static inline const char *aurender_flac_state_string(FLAC__StreamEncoderState state) { return FLAC__StreamEncoderStateString[state]; }
