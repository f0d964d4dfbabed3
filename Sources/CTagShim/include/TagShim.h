#ifndef AURENDER_TAG_SHIM_H
#define AURENDER_TAG_SHIM_H

// A C face for TagLib 1.13's C++ API, as far as aurender uses it: a file's whole property map
// (every key, every value, in TagLib's upper-case names), the properties TagLib could not map,
// and its pictures; writing a property map and pictures back, and saving. TagLib's own C binding
// has neither multiple values nor pictures.
//
// A file is read once when opened; the strings and bytes it gives stay valid until it is closed.

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// What opening a file found.
typedef enum tagshim_status {
    /// Opened: its tags (if any) are read.
    TAGSHIM_OPENED = 0,
    /// The file cannot be opened (missing, unreadable).
    TAGSHIM_CANNOT_OPEN = 1,
    /// TagLib knows no tag format for this file.
    TAGSHIM_UNKNOWN_FORMAT = 2,
    /// TagLib knows the format but finds the file damaged.
    TAGSHIM_INVALID = 3,
} tagshim_status;

typedef struct tagshim_file tagshim_file;

/// One picture: the ID3v2/FLAC picture type (0 to 20), MIME type, description and bytes.
/// A format that keeps no type or description (MP4 `covr`) reads as type 3, front cover, and "".
/// FLAC's `PICTURE` (and Ogg's `METADATA_BLOCK_PICTURE`) also state the image's width, height,
/// colour depth and palette size, which read as 0 from the other formats.
typedef struct tagshim_picture {
    int type;
    const char *mime_type;
    const char *description;
    const unsigned char *data;
    size_t size;
    int width;
    int height;
    int color_depth;
    int color_count;
} tagshim_picture;

/// Opens `path` read-only (the file is never written), choosing the format by the extension,
/// then by the content. NULL with *status set when it cannot.
tagshim_file *tagshim_open_path(const char *path, tagshim_status *status);

/// Opens the file on `descriptor` (duplicated: the caller's stays open) to read and write, as
/// `kind`: "mpeg", "mp4", "flac", "ogg-vorbis", "ogg-opus", "ogg-flac", "wav" or "aiff".
tagshim_file *tagshim_open_descriptor(int descriptor, const char *kind, tagshim_status *status);

/// Closes the file, freeing what it gave.
void tagshim_close(tagshim_file *file);

/// The property map's key–value pairs, a key's values in order and keys in TagLib's order.
size_t tagshim_property_count(const tagshim_file *file);
const char *tagshim_property_key(const tagshim_file *file, size_t index);
const char *tagshim_property_value(const tagshim_file *file, size_t index);

/// What TagLib read but could not map to a property (an ID3v2 frame ID, an MP4 atom name).
size_t tagshim_unsupported_count(const tagshim_file *file);
const char *tagshim_unsupported(const tagshim_file *file, size_t index);

/// The pictures, in the order the file holds them.
size_t tagshim_picture_count(const tagshim_file *file);
void tagshim_picture_at(const tagshim_file *file, size_t index, tagshim_picture *picture);

/// A hold on the bytes of picture `index` that outlives the file: the buffer TagLib read them
/// into is shared, not copied, so a large cover is held once. Its `data` and `size` are those
/// `tagshim_picture_at` gives; `tagshim_picture_release` lets it go. NULL when out of memory.
void *tagshim_picture_hold(const tagshim_file *file, size_t index);
void tagshim_picture_release(void *hold);

/// Replaces every property of the file with `count` pairs (a key given several times keeps each
/// value, in order) and every picture with `picture_count` pictures, in memory; `tagshim_save`
/// writes them. Returns 0, or -1 when the format holds no tags at all.
int tagshim_replace(tagshim_file *file, const char *const *keys, const char *const *values, size_t count,
                    const tagshim_picture *pictures, size_t picture_count);

/// Writes what `tagshim_replace` set into the file; 0 on success, -1 when TagLib could not.
int tagshim_save(tagshim_file *file);

/// Sets one loudness field of the file, in memory, in the place its tag format keeps it: a Vorbis
/// comment (FLAC, Ogg), an ID3v2 `TXXX` frame of that description (MP3, WAV, AIFF; mirrored into
/// an MP3's APEv2 tag when the file has one), an MP4 freeform `----:com.apple.iTunes:` atom
/// (ReplayGain's names in lower case, as foobar2000 writes them). The name `ITUNNORM` is Sound
/// Check's: an ID3v2 `COMM` frame described `iTunNORM` in MP3, the freeform atom `iTunNORM` in
/// MP4. Fields of the name in another case are replaced. A NULL `value` removes the field.
/// Returns 0, or -1 when the file's format keeps no such field.
int tagshim_set_field(tagshim_file *file, const char *name, const char *value);

/// Writes what `tagshim_set_field` set into the file, keeping every tag it had (an MP3's ID3v1
/// and APEv2 tags, its ID3v2 version); 0 on success, -1 when TagLib could not.
int tagshim_save_keeping(tagshim_file *file);

/// One ID3v2 chapter (a `CHAP` frame): its element ID, start and end in milliseconds, its title
/// (the `TIT2` frame it embeds) and description (`TIT3`), "" when it has none, and whether a table
/// of contents (`CTOC`) lists it (1 also when the tag has no table of contents); `listed` is
/// ignored when writing.
typedef struct tagshim_chapter {
    const char *element_id;
    unsigned int start_ms;
    unsigned int end_ms;
    const char *title;
    const char *note;
    int listed;
} tagshim_chapter;

/// The chapters of the file's ID3v2 tag (MP3, and WAV or AIFF with an `id3 ` chunk), in the tag's order.
size_t tagshim_chapter_count(const tagshim_file *file);
void tagshim_chapter_at(const tagshim_file *file, size_t index, tagshim_chapter *chapter);

/// The element IDs a table of contents lists that neither a chapter nor a table of contents holds.
size_t tagshim_dangling_chapter_count(const tagshim_file *file);
const char *tagshim_dangling_chapter(const tagshim_file *file, size_t index);

/// The sample rate of a file that has chapters, read from its audio; 0 when it has none or the rate is unknown.
int tagshim_sample_rate(const tagshim_file *file);

/// Replaces the ID3v2 tag's chapters and tables of contents with `count` chapters and one
/// top-level, ordered table of contents (element ID "toc") listing them, in memory;
/// `tagshim_save_keeping` writes them. Returns 0, or -1 when the format holds no ID3v2 tag.
int tagshim_set_chapters(tagshim_file *file, const tagshim_chapter *chapters, size_t count);

/// Renders an ID3v2.4 tag holding `count` pairs, mapped as `tagshim_replace` maps them into an
/// MP3, for a stream that gets its tag before its audio (a pipe); its pictures' `APIC` frames are
/// the caller's to add, which can write their bytes from where they are. Returns the tag's bytes
/// (its length in `length`) and, in `rejected`, the keys it holds no frame for, one a line; both
/// are freed with `tagshim_free`. NULL when TagLib fails.
unsigned char *tagshim_render_id3v2(const char *const *keys, const char *const *values, size_t count, size_t *length,
                                    char **rejected);

/// Frees a buffer the shim returned.
void tagshim_free(void *buffer);

#ifdef __cplusplus
}
#endif

#endif
