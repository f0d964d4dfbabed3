/* aurender's LV2 test plugin: out[n] = in[n - 100] * level * 0.5 once the worker has run.
 * It refuses to instantiate without options:options (sample rate and a fixed block length),
 * urid:map and worker:schedule; a run of any other length than the promised block writes 9.0. */
#include <lv2/core/lv2.h>
#include <lv2/options/options.h>
#include <lv2/urid/urid.h>
#include <lv2/worker/worker.h>
#include <lv2/buf-size/buf-size.h>
#include <lv2/atom/atom.h>
#include <lv2/parameters/parameters.h>
#include <stdlib.h>
#include <string.h>

#define LATENCY 100

typedef struct {
    const float* in;
    float* out;
    float* latency;
    const float* level;
    LV2_Worker_Schedule* schedule;
    float history[LATENCY];
    int position;
    int block;
    int worked;        /* set by work(), which a synchronous host runs inside schedule_work */
    float gain;        /* set by work_response() */
    int scheduled;
} Plugin;

static LV2_Handle instantiate(const LV2_Descriptor* d, double rate, const char* path, const LV2_Feature* const* features) {
    LV2_URID_Map* map = NULL;
    const LV2_Options_Option* options = NULL;
    LV2_Worker_Schedule* schedule = NULL;
    for (int i = 0; features[i]; ++i) {
        if (!strcmp(features[i]->URI, LV2_URID__map)) map = features[i]->data;
        if (!strcmp(features[i]->URI, LV2_OPTIONS__options)) options = features[i]->data;
        if (!strcmp(features[i]->URI, LV2_WORKER__schedule)) schedule = features[i]->data;
    }
    if (!map || !options || !schedule) return NULL;
    LV2_URID nominal = map->map(map->handle, LV2_BUF_SIZE__nominalBlockLength);
    LV2_URID minimum = map->map(map->handle, LV2_BUF_SIZE__minBlockLength);
    LV2_URID maximum = map->map(map->handle, LV2_BUF_SIZE__maxBlockLength);
    LV2_URID sampleRate = map->map(map->handle, LV2_PARAMETERS__sampleRate);
    LV2_URID intType = map->map(map->handle, LV2_ATOM__Int);
    int block = 0, low = -1, high = -2;
    float stated = 0;
    for (const LV2_Options_Option* o = options; o->key; ++o) {
        if (o->key == nominal && o->type == intType) block = *(const int*)o->value;
        if (o->key == minimum && o->type == intType) low = *(const int*)o->value;
        if (o->key == maximum && o->type == intType) high = *(const int*)o->value;
        if (o->key == sampleRate) stated = *(const float*)o->value;
    }
    if (block <= 0 || low != block || high != block || stated != (float)rate) return NULL;
    Plugin* self = calloc(1, sizeof(Plugin));
    self->schedule = schedule;
    self->block = block;
    self->gain = 1.0f;
    return self;
}

static void connect_port(LV2_Handle h, uint32_t port, void* data) {
    Plugin* self = h;
    switch (port) {
    case 0: self->in = data; break;
    case 1: self->out = data; break;
    case 2: self->latency = data; break;
    case 3: self->level = data; break;
    }
}

static void activate(LV2_Handle h) {
    Plugin* self = h;
    memset(self->history, 0, sizeof self->history);
    self->position = 0;
}

static void run(LV2_Handle h, uint32_t frames) {
    Plugin* self = h;
    if (self->latency) *self->latency = LATENCY;
    if ((int)frames != self->block) {
        for (uint32_t i = 0; i < frames; ++i) self->out[i] = 9.0f;
        return;
    }
    if (!self->scheduled) {
        const char message[] = "halve";
        self->schedule->schedule_work(self->schedule->handle, sizeof message, message);
        self->scheduled = 1;
    }
    float gain = self->worked ? 0.5f : 1.0f;
    if (self->gain != 1.0f) gain = self->gain;
    for (uint32_t i = 0; i < frames; ++i) {
        float delayed = self->history[self->position];
        self->history[self->position] = self->in[i];
        self->position = (self->position + 1) % LATENCY;
        self->out[i] = delayed * *self->level * gain;
    }
}

static LV2_Worker_Status work(LV2_Handle h, LV2_Worker_Respond_Function respond, LV2_Worker_Respond_Handle handle,
                              uint32_t size, const void* data) {
    Plugin* self = h;
    if (size != 6 || strcmp(data, "halve")) return LV2_WORKER_ERR_UNKNOWN;
    self->worked = 1;
    const float half = 0.5f;
    return respond(handle, sizeof half, &half);
}

static LV2_Worker_Status work_response(LV2_Handle h, uint32_t size, const void* body) {
    Plugin* self = h;
    if (size == sizeof(float)) self->gain = *(const float*)body;
    return LV2_WORKER_SUCCESS;
}

static const void* extension_data(const char* uri) {
    static const LV2_Worker_Interface worker = { work, work_response, NULL };
    return strcmp(uri, LV2_WORKER__interface) ? NULL : &worker;
}

static void cleanup(LV2_Handle h) { free(h); }

static const LV2_Descriptor descriptor = {
    "urn:aurender:test:latency", instantiate, connect_port, activate, run, NULL, cleanup, extension_data
};

LV2_SYMBOL_EXPORT const LV2_Descriptor* lv2_descriptor(uint32_t index) { return index == 0 ? &descriptor : NULL; }
