#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavcodec/vorbis_parser.h>
#include <libavutil/avutil.h>
#include <libavutil/error.h>
#include <dlfcn.h>

/* Macros Swift cannot import, as constants. */
static const int CFFMPEG_AVERROR_EOF = AVERROR_EOF;
static const int CFFMPEG_AVERROR_EAGAIN = AVERROR(EAGAIN);
static const int64_t CFFMPEG_NOPTS_VALUE = AV_NOPTS_VALUE;
static const int CFFMPEG_AVERROR_STREAM_NOT_FOUND = AVERROR_STREAM_NOT_FOUND;
static const int CFFMPEG_AVERROR_INVALIDDATA = AVERROR_INVALIDDATA;
static const int CFFMPEG_AVERROR_DECODER_NOT_FOUND = AVERROR_DECODER_NOT_FOUND;
static const int CFFMPEG_CODEC_FLAG_BITEXACT = AV_CODEC_FLAG_BITEXACT;
static const int CFFMPEG_CODEC_FLAG_GLOBAL_HEADER = AV_CODEC_FLAG_GLOBAL_HEADER;
static const int CFFMPEG_CODEC_FLAG_QSCALE = AV_CODEC_FLAG_QSCALE;
static const int CFFMPEG_CODEC_FLAG2_SKIP_MANUAL = AV_CODEC_FLAG2_SKIP_MANUAL;

/*
 * The binary does not link FFmpeg's libraries: they are opened with dlopen on first use, and
 * every function aurender calls is a field of this table, typed from the headers' own
 * declarations (so a call cannot disagree with the library's signature).
 */
#define CFFMPEG_AVUTIL_FUNCTIONS(X) \
    X(av_log_set_level) X(av_malloc) X(av_free) X(av_freep) X(av_frame_alloc) X(av_frame_free) \
    X(av_strerror) X(av_rescale_q) X(av_rescale) X(av_sample_fmt_is_planar) X(av_get_packed_sample_fmt) \
    X(av_channel_layout_default) X(av_channel_layout_copy) X(av_frame_get_buffer) X(av_frame_make_writable) \
    X(av_dict_set) X(av_dict_free) X(av_dict_get)
#define CFFMPEG_AVCODEC_FUNCTIONS(X) \
    X(avcodec_alloc_context3) X(avcodec_parameters_to_context) X(avcodec_open2) X(avcodec_free_context) \
    X(avcodec_descriptor_get) X(av_packet_alloc) X(av_packet_free) X(av_packet_unref) X(avcodec_send_packet) \
    X(avcodec_receive_frame) X(avcodec_find_encoder_by_name) X(avcodec_parameters_from_context) X(avcodec_send_frame) \
    X(avcodec_receive_packet) X(av_packet_rescale_ts) X(avcodec_flush_buffers) X(av_packet_move_ref) \
    X(av_vorbis_parse_init) X(av_vorbis_parse_frame) X(av_vorbis_parse_free)
#define CFFMPEG_AVFORMAT_FUNCTIONS(X) \
    X(avio_alloc_context) X(avio_context_free) X(avformat_alloc_context) X(avformat_open_input) \
    X(avformat_find_stream_info) X(av_find_best_stream) X(avformat_close_input) X(av_read_frame) \
    X(avformat_alloc_output_context2) X(avformat_new_stream) X(avformat_write_header) X(av_interleaved_write_frame) \
    X(av_write_trailer) X(avformat_free_context)

#define CFFMPEG_FIELD(name) __typeof__(name) *_Nonnull name;
typedef struct CFFmpegAPI {
    CFFMPEG_AVUTIL_FUNCTIONS(CFFMPEG_FIELD)
    CFFMPEG_AVCODEC_FUNCTIONS(CFFMPEG_FIELD)
    CFFMPEG_AVFORMAT_FUNCTIONS(CFFMPEG_FIELD)
} CFFmpegAPI;
#undef CFFMPEG_FIELD

/*
 * Fills `api` from the libraries opened as `avutil`, `avcodec` and `avformat` (dlopen handles);
 * returns NULL, or the name of the first function a library lacks.
 */
static inline const char *_Nullable cffmpeg_resolve(CFFmpegAPI *_Nonnull api, void *_Nonnull avutil,
                                                     void *_Nonnull avcodec, void *_Nonnull avformat) {
#define CFFMPEG_RESOLVE(name) if (!(api->name = (__typeof__(api->name))dlsym(handle, #name))) return #name;
    void *handle = avutil;
    CFFMPEG_AVUTIL_FUNCTIONS(CFFMPEG_RESOLVE)
    handle = avcodec;
    CFFMPEG_AVCODEC_FUNCTIONS(CFFMPEG_RESOLVE)
    handle = avformat;
    CFFMPEG_AVFORMAT_FUNCTIONS(CFFMPEG_RESOLVE)
#undef CFFMPEG_RESOLVE
    return NULL;
}
