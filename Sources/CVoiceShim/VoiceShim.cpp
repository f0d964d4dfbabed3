// The C shim over webrtc::AudioProcessing (libwebrtc-audio-processing 0.3): everything C++ stays here.
#include "VoiceShim.h"

#include <webrtc/modules/audio_processing/include/audio_processing.h>

#include <memory>
#include <mutex>
#include <new>
#include <shared_mutex>

// WebRTC's echo canceller keeps its FFT tables in globals that every new canceller writes again,
// bit-reversing them in place (aec_rdft_init), so a processor made on one thread scrambles the
// tables under another thread's frame for a moment: outputs then differ from run to run. Making
// a processor holds this lock alone; processing a frame holds it shared, so frames on several
// threads never wait for each other, only for a processor being made.
static std::shared_mutex tables_lock;

struct apm_processor {
    std::unique_ptr<webrtc::AudioProcessing> apm;
    webrtc::StreamConfig near_end;
    webrtc::StreamConfig far_end;
    int stream_delay_ms;
    bool cancels_echo;
    // The settings the stages stand at, so an update touches only the stages whose settings changed.
    apm_settings current;
};

// Sets up the stages whose settings differ from `before` (every stage when `before` is NULL);
// a stage turned off is disabled, one turned on starts afresh, a level or target changes in place.
static int apm_configure(webrtc::AudioProcessing *apm, const apm_settings *before, const apm_settings *settings) {
    int error = 0;
    if (!before || before->high_pass_filter != settings->high_pass_filter) {
        if ((error = apm->high_pass_filter()->Enable(settings->high_pass_filter != 0)) != 0) return error;
    }
    if (!before || before->noise_suppression_level != settings->noise_suppression_level) {
        static const webrtc::NoiseSuppression::Level levels[] = {
            webrtc::NoiseSuppression::kLow, webrtc::NoiseSuppression::kModerate,
            webrtc::NoiseSuppression::kHigh, webrtc::NoiseSuppression::kVeryHigh};
        bool on = settings->noise_suppression_level >= 0;
        if (on) {
            int level = settings->noise_suppression_level > 3 ? 3 : settings->noise_suppression_level;
            if ((error = apm->noise_suppression()->set_level(levels[level])) != 0) return error;
        }
        if (apm->noise_suppression()->is_enabled() != on && (error = apm->noise_suppression()->Enable(on)) != 0) return error;
    }
    webrtc::GainControl *agc = apm->gain_control();
    bool agc_on = settings->gain_control_target_dbfs >= 0;
    bool agc_was_on = before && before->gain_control_target_dbfs >= 0;
    if (agc_on) {
        if (!agc_was_on && (error = agc->set_mode(webrtc::GainControl::kAdaptiveDigital)) != 0) return error;
        if ((!agc_was_on || before->gain_control_target_dbfs != settings->gain_control_target_dbfs) &&
            (error = agc->set_target_level_dbfs(settings->gain_control_target_dbfs)) != 0) return error;
        if ((!agc_was_on || before->gain_control_compression_gain_db != settings->gain_control_compression_gain_db) &&
            (error = agc->set_compression_gain_db(settings->gain_control_compression_gain_db)) != 0) return error;
        if ((!agc_was_on || before->gain_control_limiter != settings->gain_control_limiter) &&
            (error = agc->enable_limiter(settings->gain_control_limiter != 0)) != 0) return error;
    }
    if (agc->is_enabled() != agc_on && (error = agc->Enable(agc_on)) != 0) return error;
    if (settings->reverse_channel_count > 0 && (!before || before->echo_suppression_level != settings->echo_suppression_level)) {
        static const webrtc::EchoCancellation::SuppressionLevel levels[] = {
            webrtc::EchoCancellation::kLowSuppression, webrtc::EchoCancellation::kModerateSuppression,
            webrtc::EchoCancellation::kHighSuppression};
        int level = settings->echo_suppression_level < 0 ? 0 : settings->echo_suppression_level > 2 ? 2 : settings->echo_suppression_level;
        webrtc::EchoCancellation *aec = apm->echo_cancellation();
        if (!before && (error = aec->enable_drift_compensation(false)) != 0) return error;
        if ((error = aec->set_suppression_level(levels[level])) != 0) return error;
        if (!before && (error = aec->Enable(true)) != 0) return error;
    }
    return 0;
}

extern "C" apm_processor *apm_create(const apm_settings *settings, int *error) {
    std::unique_lock<std::shared_mutex> making(tables_lock);
    webrtc::Config config;
    // The experimental gain control steers an analog microphone volume, which a file has not.
    config.Set<webrtc::ExperimentalAgc>(new webrtc::ExperimentalAgc(false));
    // A longer echo filter and a delay the canceller finds itself: the far end of a file may
    // reach the near end after any delay of the room.
    config.Set<webrtc::ExtendedFilter>(new webrtc::ExtendedFilter(true));
    config.Set<webrtc::DelayAgnostic>(new webrtc::DelayAgnostic(true));
    std::unique_ptr<apm_processor> processor(new (std::nothrow) apm_processor());
    if (!processor) { *error = webrtc::AudioProcessing::kNullPointerError; return nullptr; }
    processor->apm.reset(webrtc::AudioProcessing::Create(config));
    if (!processor->apm) { *error = webrtc::AudioProcessing::kNullPointerError; return nullptr; }
    processor->near_end = webrtc::StreamConfig(settings->sample_rate_hz, settings->channel_count);
    processor->far_end = webrtc::StreamConfig(settings->sample_rate_hz,
                                              settings->reverse_channel_count > 0 ? settings->reverse_channel_count : 1);
    processor->stream_delay_ms = settings->stream_delay_ms;
    processor->cancels_echo = settings->reverse_channel_count > 0;
    webrtc::ProcessingConfig streams = {{processor->near_end, processor->near_end, processor->far_end, processor->far_end}};
    if ((*error = processor->apm->Initialize(streams)) != 0) return nullptr;
    if ((*error = apm_configure(processor->apm.get(), nullptr, settings)) != 0) return nullptr;
    processor->current = *settings;
    return processor.release();
}

extern "C" int apm_update(apm_processor *processor, const apm_settings *settings) {
    std::shared_lock<std::shared_mutex> processing(tables_lock);
    apm_settings wanted = *settings;
    // The rate, the channels and the far end are the processor's own.
    wanted.sample_rate_hz = processor->current.sample_rate_hz;
    wanted.channel_count = processor->current.channel_count;
    wanted.reverse_channel_count = processor->current.reverse_channel_count;
    wanted.stream_delay_ms = processor->current.stream_delay_ms;
    int error = apm_configure(processor->apm.get(), &processor->current, &wanted);
    if (error == 0) processor->current = wanted;
    return error;
}

extern "C" void apm_destroy(apm_processor *processor) { delete processor; }

extern "C" int apm_frame_length(const apm_processor *processor) { return static_cast<int>(processor->near_end.num_frames()); }

extern "C" int apm_analyze_reverse(apm_processor *processor, const float *const *far_end) {
    std::shared_lock<std::shared_mutex> processing(tables_lock);
    return processor->apm->AnalyzeReverseStream(far_end, processor->far_end.num_frames(), processor->far_end.sample_rate_hz(),
                                                processor->far_end.num_channels() > 1 ? webrtc::AudioProcessing::kStereo
                                                                                       : webrtc::AudioProcessing::kMono);
}

extern "C" int apm_process(apm_processor *processor, const float *const *near_end, float *const *output) {
    std::shared_lock<std::shared_mutex> processing(tables_lock);
    if (processor->cancels_echo) {
        int error = processor->apm->set_stream_delay_ms(processor->stream_delay_ms);
        if (error != 0 && error != webrtc::AudioProcessing::kBadStreamParameterWarning) return error;
    }
    return processor->apm->ProcessStream(near_end, processor->near_end, processor->near_end, output);
}
