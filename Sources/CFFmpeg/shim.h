#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/error.h>

/* Macros Swift cannot import, as constants. */
static const int CFFMPEG_AVERROR_EOF = AVERROR_EOF;
static const int CFFMPEG_AVERROR_EAGAIN = AVERROR(EAGAIN);
static const int64_t CFFMPEG_NOPTS_VALUE = AV_NOPTS_VALUE;
static const int CFFMPEG_AVERROR_STREAM_NOT_FOUND = AVERROR_STREAM_NOT_FOUND;
static const int CFFMPEG_AVERROR_DECODER_NOT_FOUND = AVERROR_DECODER_NOT_FOUND;
static const int CFFMPEG_CODEC_FLAG_BITEXACT = AV_CODEC_FLAG_BITEXACT;
