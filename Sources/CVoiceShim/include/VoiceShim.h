#ifndef AURENDER_VOICE_SHIM_H
#define AURENDER_VOICE_SHIM_H

// A C face for WebRTC's audio processing module (the C++ `webrtc::AudioProcessing` of
// libwebrtc-audio-processing 0.3): one opaque processor, made from plain settings, fed one
// 10 ms frame at a time. Every function returns 0 on success or WebRTC's negative error code.

#ifdef __cplusplus
extern "C" {
#endif

/// What a processor does; a negative level turns its stage off.
typedef struct apm_settings {
    /// The processing rate: 8000, 16000, 32000 or 48000 Hz.
    int sample_rate_hz;
    /// Channels of the processed (near-end, microphone) stream.
    int channel_count;
    /// Channels of the far-end (reverse) stream, 1 or 2; 0 turns echo cancellation off.
    int reverse_channel_count;
    /// Noise suppression: -1 off, 0 low, 1 moderate, 2 high, 3 very high.
    int noise_suppression_level;
    /// Adaptive digital gain control's target, in dB under full scale (0 to 31); -1 turns it off.
    int gain_control_target_dbfs;
    /// The most gain the gain control's compressor adds, in dB (0 to 90).
    int gain_control_compression_gain_db;
    /// Whether the gain control's limiter runs (1) or not (0).
    int gain_control_limiter;
    /// Whether the high-pass filter runs (1) or not (0).
    int high_pass_filter;
    /// Echo suppression: 0 low, 1 moderate, 2 high.
    int echo_suppression_level;
    /// The delay between a far-end frame and its echo in the near end that the canceller
    /// starts from, in ms; it then finds the delay itself.
    int stream_delay_ms;
} apm_settings;

typedef struct apm_processor apm_processor;

/// A processor for `settings`, or NULL with *error set to WebRTC's code.
apm_processor *apm_create(const apm_settings *settings, int *error);

/// Changes the stages' settings between two frames: levels and targets in place, a stage turned on
/// started afresh, one turned off dropped. The rate, the channels and the far end stay as made.
int apm_update(apm_processor *processor, const apm_settings *settings);

/// Frees the processor.
void apm_destroy(apm_processor *processor);

/// Frames in one 10 ms frame at the processor's rate.
int apm_frame_length(const apm_processor *processor);

/// Gives the far end's next 10 ms: `reverse_channel_count` pointers to `apm_frame_length` samples.
int apm_analyze_reverse(apm_processor *processor, const float *const *far_end);

/// Processes the near end's next 10 ms: `channel_count` pointers in, as many out (they may be the same).
int apm_process(apm_processor *processor, const float *const *near_end, float *const *output);

#ifdef __cplusplus
}
#endif

#endif
