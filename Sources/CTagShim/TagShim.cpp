// The C shim over TagLib 1.13's C++ API: everything C++ stays here.
#include "TagShim.h"

#include <taglib/aifffile.h>
#include <taglib/apetag.h>
#include <taglib/asffile.h>
#include <taglib/aiffproperties.h>
#include <taglib/attachedpictureframe.h>
#include <taglib/chapterframe.h>
#include <taglib/commentsframe.h>
#include <taglib/fileref.h>
#include <taglib/flacfile.h>
#include <taglib/flacpicture.h>
#include <taglib/id3v2tag.h>
#include <taglib/mp4file.h>
#include <taglib/mpegfile.h>
#include <taglib/mpegproperties.h>
#include <taglib/oggflacfile.h>
#include <taglib/opusfile.h>
#include <taglib/tableofcontentsframe.h>
#include <taglib/tfilestream.h>
#include <taglib/tpropertymap.h>
#include <taglib/vorbisfile.h>
#include <taglib/wavfile.h>
#include <taglib/wavproperties.h>
#include <taglib/textidentificationframe.h>
#include <taglib/xiphcomment.h>

#include <cctype>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <set>
#include <string>
#include <unistd.h>
#include <utility>
#include <vector>

namespace {

struct Picture {
    int type;
    std::string mime_type;
    std::string description;
    // TagLib's own bytes, shared (its byte vectors are reference-counted): a cover is not copied here.
    TagLib::ByteVector data;
    // FLAC's statement of the image: width, height, colour depth, palette size (0 where not stated).
    int width = 0, height = 0, color_depth = 0, color_count = 0;
};

std::string utf8(const TagLib::String &string) { return string.to8Bit(true); }

std::string lowerCase(std::string text) {
    for (auto &character : text) character = static_cast<char>(std::tolower(static_cast<unsigned char>(character)));
    return text;
}

TagLib::String fromUTF8(const char *string) { return TagLib::String(string, TagLib::String::UTF8); }

TagLib::ByteVector bytes(const tagshim_picture &picture) {
    return TagLib::ByteVector(reinterpret_cast<const char *>(picture.data), static_cast<unsigned int>(picture.size));
}

// The pictures of an ID3v2 tag's APIC frames.
void readID3v2Pictures(TagLib::ID3v2::Tag *tag, std::vector<Picture> &pictures) {
    if (!tag) return;
    for (auto frame : tag->frameList("APIC")) {
        auto picture = dynamic_cast<TagLib::ID3v2::AttachedPictureFrame *>(frame);
        if (!picture) continue;
        pictures.push_back({static_cast<int>(picture->type()), utf8(picture->mimeType()), utf8(picture->description()),
                            picture->picture()});
    }
}

void writeID3v2Pictures(TagLib::ID3v2::Tag *tag, const tagshim_picture *pictures, size_t count) {
    tag->removeFrames("APIC");
    for (size_t index = 0; index < count; index++) {
        auto frame = new TagLib::ID3v2::AttachedPictureFrame();
        frame->setTextEncoding(TagLib::String::UTF8);
        frame->setType(static_cast<TagLib::ID3v2::AttachedPictureFrame::Type>(pictures[index].type));
        frame->setMimeType(fromUTF8(pictures[index].mime_type));
        frame->setDescription(fromUTF8(pictures[index].description));
        frame->setPicture(bytes(pictures[index]));
        tag->addFrame(frame);
    }
}

void readFLACPictures(const TagLib::List<TagLib::FLAC::Picture *> &list, std::vector<Picture> &pictures) {
    for (auto picture : list) {
        pictures.push_back({static_cast<int>(picture->type()), utf8(picture->mimeType()), utf8(picture->description()),
                            picture->data(), picture->width(), picture->height(), picture->colorDepth(), picture->numColors()});
    }
}

TagLib::FLAC::Picture *makeFLACPicture(const tagshim_picture &picture) {
    auto made = new TagLib::FLAC::Picture();
    made->setType(static_cast<TagLib::FLAC::Picture::Type>(picture.type));
    made->setMimeType(fromUTF8(picture.mime_type));
    made->setDescription(fromUTF8(picture.description));
    made->setData(bytes(picture));
    made->setWidth(picture.width);
    made->setHeight(picture.height);
    made->setColorDepth(picture.color_depth);
    made->setNumColors(picture.color_count);
    return made;
}

const char *mimeType(TagLib::MP4::CoverArt::Format format) {
    switch (format) {
    case TagLib::MP4::CoverArt::JPEG: return "image/jpeg";
    case TagLib::MP4::CoverArt::PNG: return "image/png";
    case TagLib::MP4::CoverArt::BMP: return "image/bmp";
    case TagLib::MP4::CoverArt::GIF: return "image/gif";
    default: return "";
    }
}

TagLib::MP4::CoverArt::Format coverFormat(const char *mimeType) {
    std::string mime(mimeType);
    if (mime == "image/jpeg" || mime == "image/jpg") return TagLib::MP4::CoverArt::JPEG;
    if (mime == "image/png") return TagLib::MP4::CoverArt::PNG;
    if (mime == "image/bmp") return TagLib::MP4::CoverArt::BMP;
    if (mime == "image/gif") return TagLib::MP4::CoverArt::GIF;
    return TagLib::MP4::CoverArt::Unknown;
}

// The ID3v2 tag a file keeps its pictures in, if it is one of the formats that do.
TagLib::ID3v2::Tag *id3v2Tag(TagLib::File *file, bool create) {
    if (auto mpeg = dynamic_cast<TagLib::MPEG::File *>(file)) return mpeg->ID3v2Tag(create);
    if (auto wav = dynamic_cast<TagLib::RIFF::WAV::File *>(file)) return (create || wav->hasID3v2Tag()) ? wav->ID3v2Tag() : nullptr;
    if (auto aiff = dynamic_cast<TagLib::RIFF::AIFF::File *>(file)) return (create || aiff->hasID3v2Tag()) ? aiff->tag() : nullptr;
    return nullptr;
}

// The Xiph comment of an Ogg file (Vorbis, Opus, FLAC in Ogg).
TagLib::Ogg::XiphComment *oggComment(TagLib::File *file) {
    if (auto vorbis = dynamic_cast<TagLib::Ogg::Vorbis::File *>(file)) return vorbis->tag();
    if (auto opus = dynamic_cast<TagLib::Ogg::Opus::File *>(file)) return opus->tag();
    if (auto flac = dynamic_cast<TagLib::Ogg::FLAC::File *>(file)) return flac->tag();
    return nullptr;
}

std::vector<Picture> readPictures(TagLib::File *file) {
    std::vector<Picture> pictures;
    if (auto tag = id3v2Tag(file, false)) {
        readID3v2Pictures(tag, pictures);
    } else if (auto flac = dynamic_cast<TagLib::FLAC::File *>(file)) {
        readFLACPictures(flac->pictureList(), pictures);
    } else if (auto comment = oggComment(file)) {
        readFLACPictures(comment->pictureList(), pictures);
    } else if (auto mp4 = dynamic_cast<TagLib::MP4::File *>(file)) {
        if (mp4->tag() && mp4->tag()->contains("covr")) {
            for (auto &cover : mp4->tag()->item("covr").toCoverArtList()) {
                pictures.push_back({3, mimeType(cover.format()), "", cover.data()});
            }
        }
    } else if (auto asf = dynamic_cast<TagLib::ASF::File *>(file)) {
        if (asf->tag() && asf->tag()->contains("WM/Picture")) {
            for (auto &attribute : asf->tag()->attribute("WM/Picture")) {
                auto picture = attribute.toPicture();
                if (!picture.isValid()) continue;
                pictures.push_back({static_cast<int>(picture.type()), utf8(picture.mimeType()), utf8(picture.description()),
                                    picture.picture()});
            }
        }
    }
    return pictures;
}

// Writes `pictures` in place of the file's own; false when its format holds none.
bool writePictures(TagLib::File *file, const tagshim_picture *pictures, size_t count) {
    if (auto tag = id3v2Tag(file, true)) {
        writeID3v2Pictures(tag, pictures, count);
    } else if (auto flac = dynamic_cast<TagLib::FLAC::File *>(file)) {
        flac->removePictures();
        for (size_t index = 0; index < count; index++) flac->addPicture(makeFLACPicture(pictures[index]));
    } else if (auto comment = oggComment(file)) {
        comment->removeAllPictures();
        for (size_t index = 0; index < count; index++) comment->addPicture(makeFLACPicture(pictures[index]));
    } else if (auto mp4 = dynamic_cast<TagLib::MP4::File *>(file)) {
        TagLib::MP4::CoverArtList covers;
        for (size_t index = 0; index < count; index++) covers.append(TagLib::MP4::CoverArt(coverFormat(pictures[index].mime_type), bytes(pictures[index])));
        if (covers.isEmpty()) mp4->tag()->removeItem("covr");
        else mp4->tag()->setItem("covr", covers);
    } else {
        return count == 0;
    }
    return true;
}

// TagLib 1.13 maps only its own list of keys to MP4 atoms: every other key goes into a freeform
// `----:com.apple.iTunes:` atom, named as players name it (ReplayGain's in lower case, as foobar2000
// and TagLib 2 write them; the rest as given).
const TagLib::String freeformPrefix = "----:com.apple.iTunes:";

void writeFreeform(TagLib::MP4::Tag *tag, const TagLib::PropertyMap &keys) {
    for (auto &entry : keys) {
        TagLib::String name = entry.first.startsWith("REPLAYGAIN_") ? TagLib::String(lowerCase(entry.first.to8Bit(true))) : entry.first;
        tag->setItem(freeformPrefix + name, TagLib::MP4::Item(entry.second));
    }
}

// The freeform atoms TagLib 1.13 lists as unsupported, as properties (`REPLAYGAIN_TRACK_GAIN`).
void readFreeform(TagLib::MP4::Tag *tag, const TagLib::StringList &unsupported,
                  std::vector<std::pair<std::string, std::string>> &properties, std::vector<std::string> &left) {
    for (auto &name : unsupported) {
        if (!name.startsWith(freeformPrefix) || !tag->contains(name)) {
            left.push_back(utf8(name));
            continue;
        }
        std::string key = utf8(name.substr(freeformPrefix.size()).upper());
        for (auto &value : tag->item(name).toStringList()) properties.emplace_back(key, utf8(value));
    }
}

// The frame and atom names of pictures, which a property map lists as unsupported though they are read as pictures.
bool isPictureName(const TagLib::String &name) {
    return name == "APIC" || name == "PIC" || name == "covr" || name == "WM/Picture" || name == "METADATA_BLOCK_PICTURE";
}

// The frame names of chapters, which a property map lists as unsupported though they are read as chapters.
bool isChapterName(const TagLib::String &name) { return name == "CHAP" || name == "CTOC"; }

TagLib::File *openAs(const std::string &kind, TagLib::IOStream *stream) {
    if (kind == "mpeg") return new TagLib::MPEG::File(stream, TagLib::ID3v2::FrameFactory::instance(), false);
    if (kind == "mp4") return new TagLib::MP4::File(stream, false);
    if (kind == "flac") return new TagLib::FLAC::File(stream, TagLib::ID3v2::FrameFactory::instance(), false);
    if (kind == "ogg-vorbis") return new TagLib::Ogg::Vorbis::File(stream, false);
    if (kind == "ogg-opus") return new TagLib::Ogg::Opus::File(stream, false);
    if (kind == "ogg-flac") return new TagLib::Ogg::FLAC::File(stream, false);
    if (kind == "wav") return new TagLib::RIFF::WAV::File(stream, false);
    if (kind == "aiff") return new TagLib::RIFF::AIFF::File(stream, false);
    return nullptr;
}

// Whether `path` ends in an extension of a format TagLib reads (`.flac`, `.m4a`, `.mp3`).
bool knownExtension(const char *path) {
    std::string name(path);
    size_t slash = name.rfind('/'), dot = name.rfind('.');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return false;
    return TagLib::FileRef::defaultFileExtensions().contains(TagLib::String(lowerCase(name.substr(dot + 1))));
}

// Sound Check's field name, as `tagshim_set_field` takes it, and as MP3 and MP4 store it.
const std::string soundCheckName = "ITUNNORM";
const TagLib::String soundCheckDescription = "iTunNORM";

bool sameName(const TagLib::String &one, const std::string &other) { return lowerCase(utf8(one)) == lowerCase(other); }

// Sets or (value NULL) removes the ID3v2 field `name`: a TXXX frame, or Sound Check's COMM frame.
void setID3v2Field(TagLib::ID3v2::Tag *tag, const std::string &name, const char *value) {
    bool soundCheck = name == soundCheckName;
    std::vector<TagLib::ID3v2::Frame *> stale;
    for (auto frame : tag->frameList(soundCheck ? "COMM" : "TXXX")) {
        if (auto comment = dynamic_cast<TagLib::ID3v2::CommentsFrame *>(frame)) {
            if (sameName(comment->description(), name)) stale.push_back(frame);
        } else if (auto text = dynamic_cast<TagLib::ID3v2::UserTextIdentificationFrame *>(frame)) {
            if (sameName(text->description(), name)) stale.push_back(frame);
        }
    }
    for (auto frame : stale) tag->removeFrame(frame);
    if (!value) return;
    if (soundCheck) {
        auto frame = new TagLib::ID3v2::CommentsFrame(TagLib::String::Latin1);
        frame->setLanguage("eng");
        frame->setDescription(soundCheckDescription);
        frame->setText(fromUTF8(value));
        tag->addFrame(frame);
    } else {
        auto frame = new TagLib::ID3v2::UserTextIdentificationFrame(TagLib::String::UTF8);
        frame->setDescription(fromUTF8(name.c_str()));
        frame->setText(fromUTF8(value));
        tag->addFrame(frame);
    }
}

// Sets or removes the MP4 freeform atom of `name`, replacing one of the name in any case.
void setMP4Field(TagLib::MP4::Tag *tag, const std::string &name, const char *value) {
    std::vector<TagLib::String> stale;
    for (auto &item : tag->itemMap()) {
        if (item.first.startsWith(freeformPrefix) && sameName(item.first.substr(freeformPrefix.size()), name)) stale.push_back(item.first);
    }
    for (auto &key : stale) tag->removeItem(key);
    if (!value) return;
    TagLib::String atom = name == soundCheckName ? soundCheckDescription : TagLib::String(lowerCase(name));
    tag->setItem(freeformPrefix + atom, TagLib::MP4::Item(TagLib::StringList(fromUTF8(value))));
}

void setXiphField(TagLib::Ogg::XiphComment *comment, const std::string &name, const char *value) {
    TagLib::String key = TagLib::String(name).upper();
    if (value) comment->addField(key, fromUTF8(value), true);
    else comment->removeFields(key);
}

// Sets the loudness field `name` where `file`'s format keeps it; false when it keeps none.
bool setField(TagLib::File *file, const std::string &name, const char *value) {
    bool soundCheck = name == soundCheckName;
    if (auto mpeg = dynamic_cast<TagLib::MPEG::File *>(file)) {
        setID3v2Field(mpeg->ID3v2Tag(true), name, value);
        if (!soundCheck && mpeg->hasAPETag()) {
            if (value) mpeg->APETag()->addValue(name, fromUTF8(value), true);
            else mpeg->APETag()->removeItem(name);
        }
        return true;
    }
    if (auto mp4 = dynamic_cast<TagLib::MP4::File *>(file)) {
        if (!mp4->tag()) return false;
        setMP4Field(mp4->tag(), name, value);
        return true;
    }
    if (soundCheck) return false;
    if (auto tag = id3v2Tag(file, true)) {
        setID3v2Field(tag, name, value);
        return true;
    }
    if (auto flac = dynamic_cast<TagLib::FLAC::File *>(file)) {
        setXiphField(flac->xiphComment(true), name, value);
        return true;
    }
    if (auto comment = oggComment(file)) {
        setXiphField(comment, name, value);
        return true;
    }
    return false;
}

// One CHAP frame as read: its element ID, times in milliseconds, title (TIT2), description (TIT3),
// and whether a table of contents lists it.
struct Chapter {
    std::string element_id;
    unsigned int start_ms, end_ms;
    std::string title, note;
    bool listed;
};

std::string embeddedText(const TagLib::ID3v2::ChapterFrame *frame, const char *id) {
    const auto &frames = frame->embeddedFrameList(id);
    return frames.isEmpty() ? std::string() : utf8(frames.front()->toString());
}

std::string elementName(const TagLib::ByteVector &id) {
    std::string name(id.data(), id.size());
    return name.substr(0, name.find('\0'));
}

// The CHAP frames of an ID3v2 tag, in the tag's order, and the element IDs its tables of contents
// (CTOC) list that neither a CHAP nor a CTOC frame holds.
void readChapters(TagLib::ID3v2::Tag *tag, std::vector<Chapter> &chapters, std::vector<std::string> &dangling) {
    if (!tag) return;
    std::vector<std::string> children;
    std::set<std::string> listed, held;
    const auto &tables = tag->frameList("CTOC");
    for (auto frame : tables) {
        auto table = dynamic_cast<TagLib::ID3v2::TableOfContentsFrame *>(frame);
        if (!table) continue;
        held.insert(elementName(table->elementID()));
        for (auto &child : table->childElements()) {
            if (listed.insert(elementName(child)).second) children.push_back(elementName(child));
        }
    }
    for (auto frame : tag->frameList("CHAP")) {
        auto chapter = dynamic_cast<TagLib::ID3v2::ChapterFrame *>(frame);
        if (!chapter) continue;
        std::string id = elementName(chapter->elementID());
        held.insert(id);
        chapters.push_back({id, chapter->startTime(), chapter->endTime(), embeddedText(chapter, "TIT2"), embeddedText(chapter, "TIT3"),
                            tables.isEmpty() || listed.count(id) > 0});
    }
    for (auto &id : children) {
        if (!held.count(id)) dangling.push_back(id);
    }
}

// Replaces the tag's CHAP and CTOC frames with `count` chapters and one top-level, ordered table of contents listing them.
void writeChapters(TagLib::ID3v2::Tag *tag, const tagshim_chapter *chapters, size_t count) {
    tag->removeFrames("CHAP");
    tag->removeFrames("CTOC");
    if (count == 0) return;
    TagLib::ByteVectorList children;
    for (size_t index = 0; index < count; index++) {
        TagLib::ByteVector id(chapters[index].element_id);
        TagLib::ID3v2::FrameList embedded;
        if (chapters[index].title && *chapters[index].title) {
            auto title = new TagLib::ID3v2::TextIdentificationFrame("TIT2", TagLib::String::UTF8);
            title->setText(fromUTF8(chapters[index].title));
            embedded.append(title);
        }
        if (chapters[index].note && *chapters[index].note) {
            auto note = new TagLib::ID3v2::TextIdentificationFrame("TIT3", TagLib::String::UTF8);
            note->setText(fromUTF8(chapters[index].note));
            embedded.append(note);
        }
        // Byte offsets of 0xFFFFFFFF: the times alone place the chapter.
        tag->addFrame(new TagLib::ID3v2::ChapterFrame(id, chapters[index].start_ms, chapters[index].end_ms, 0xFFFFFFFF, 0xFFFFFFFF, embedded));
        children.append(id);
    }
    auto table = new TagLib::ID3v2::TableOfContentsFrame(TagLib::ByteVector("toc"), children);
    table->setIsTopLevel(true);
    table->setIsOrdered(true);
    tag->addFrame(table);
}

// The sample rate of a file that holds an ID3v2 tag, read from its audio; 0 when unknown.
int sampleRate(TagLib::File *file) {
    if (auto mpeg = dynamic_cast<TagLib::MPEG::File *>(file)) return TagLib::MPEG::Properties(mpeg, TagLib::AudioProperties::Fast).sampleRate();
    if (auto wav = dynamic_cast<TagLib::RIFF::WAV::File *>(file)) return TagLib::RIFF::WAV::Properties(wav, TagLib::AudioProperties::Fast).sampleRate();
    if (auto aiff = dynamic_cast<TagLib::RIFF::AIFF::File *>(file)) return TagLib::RIFF::AIFF::Properties(aiff, TagLib::AudioProperties::Fast).sampleRate();
    return 0;
}

} // namespace

struct tagshim_file {
    std::unique_ptr<TagLib::IOStream> stream;
    // Either `reference` (a file opened by name, its format found by TagLib) or `owned` holds the file.
    TagLib::FileRef reference;
    std::unique_ptr<TagLib::File> owned;
    TagLib::File *file = nullptr;
    std::vector<std::pair<std::string, std::string>> properties;
    std::vector<std::string> unsupported;
    std::vector<Picture> pictures;
    std::vector<Chapter> chapters;
    std::vector<std::string> danglingChapters;
    int rate = 0;

    void read() {
        TagLib::PropertyMap map = file->properties();
        for (auto &entry : map) {
            for (auto &value : entry.second) properties.emplace_back(utf8(entry.first), utf8(value));
        }
        TagLib::StringList names;
        for (auto &name : map.unsupportedData()) {
            if (!isPictureName(name) && !isChapterName(name)) names.append(name);
        }
        auto mp4 = dynamic_cast<TagLib::MP4::File *>(file);
        if (mp4 && mp4->tag()) {
            readFreeform(mp4->tag(), names, properties, unsupported);
        } else {
            for (auto &name : names) unsupported.push_back(utf8(name));
        }
        pictures = readPictures(file);
        readChapters(id3v2Tag(file, false), chapters, danglingChapters);
        if (!chapters.empty()) rate = sampleRate(file);
    }

    ~tagshim_file() {
        owned.reset();
        reference = TagLib::FileRef();
    }
};

extern "C" {

tagshim_file *tagshim_open_path(const char *path, tagshim_status *status) {
    try {
        auto opened = std::make_unique<tagshim_file>();
        opened->stream = std::make_unique<TagLib::FileStream>(path, true);
        if (!opened->stream->isOpen()) {
            *status = TAGSHIM_CANNOT_OPEN;
            return nullptr;
        }
        opened->reference = TagLib::FileRef(opened->stream.get(), false);
        opened->file = opened->reference.file();
        if (!opened->file) {
            // FileRef drops a file of a format it knows but finds damaged: the name tells the two apart.
            *status = knownExtension(path) ? TAGSHIM_INVALID : TAGSHIM_UNKNOWN_FORMAT;
            return nullptr;
        }
        if (!opened->file->isValid()) {
            *status = TAGSHIM_INVALID;
            return nullptr;
        }
        opened->read();
        *status = TAGSHIM_OPENED;
        return opened.release();
    } catch (...) {
        *status = TAGSHIM_INVALID;
        return nullptr;
    }
}

tagshim_file *tagshim_open_descriptor(int descriptor, const char *kind, tagshim_status *status) {
    try {
        int duplicate = dup(descriptor);
        if (duplicate < 0) {
            *status = TAGSHIM_CANNOT_OPEN;
            return nullptr;
        }
        auto opened = std::make_unique<tagshim_file>();
        opened->stream = std::make_unique<TagLib::FileStream>(duplicate, false);
        if (!opened->stream->isOpen() || opened->stream->readOnly()) {
            *status = TAGSHIM_CANNOT_OPEN;
            return nullptr;
        }
        // The duplicate shares the caller's offset, and TagLib's RIFF reader starts where the stream stands.
        opened->stream->seek(0);
        opened->owned.reset(openAs(kind, opened->stream.get()));
        opened->file = opened->owned.get();
        if (!opened->file) {
            *status = TAGSHIM_UNKNOWN_FORMAT;
            return nullptr;
        }
        if (!opened->file->isValid()) {
            *status = TAGSHIM_INVALID;
            return nullptr;
        }
        opened->read();
        *status = TAGSHIM_OPENED;
        return opened.release();
    } catch (...) {
        *status = TAGSHIM_INVALID;
        return nullptr;
    }
}

void tagshim_close(tagshim_file *file) { delete file; }

size_t tagshim_property_count(const tagshim_file *file) { return file->properties.size(); }
const char *tagshim_property_key(const tagshim_file *file, size_t index) { return file->properties[index].first.c_str(); }
const char *tagshim_property_value(const tagshim_file *file, size_t index) { return file->properties[index].second.c_str(); }

size_t tagshim_unsupported_count(const tagshim_file *file) { return file->unsupported.size(); }
const char *tagshim_unsupported(const tagshim_file *file, size_t index) { return file->unsupported[index].c_str(); }

size_t tagshim_picture_count(const tagshim_file *file) { return file->pictures.size(); }

void tagshim_picture_at(const tagshim_file *file, size_t index, tagshim_picture *picture) {
    const Picture &found = file->pictures[index];
    picture->type = found.type;
    picture->mime_type = found.mime_type.c_str();
    picture->description = found.description.c_str();
    picture->data = reinterpret_cast<const unsigned char *>(found.data.data());
    picture->size = found.data.size();
    picture->width = found.width;
    picture->height = found.height;
    picture->color_depth = found.color_depth;
    picture->color_count = found.color_count;
}

void *tagshim_picture_hold(const tagshim_file *file, size_t index) {
    return new (std::nothrow) TagLib::ByteVector(file->pictures[index].data);
}

void tagshim_picture_release(void *hold) { delete static_cast<TagLib::ByteVector *>(hold); }

// The map with each key's values in one, joined by "; ": a RIFF INFO field holds one string, and
// TagLib's INFO tag keeps only the first of several values (players read INFO before `id3 `).
static TagLib::PropertyMap joined(const TagLib::PropertyMap &map) {
    TagLib::PropertyMap single;
    for (const auto &entry : map) single.replace(entry.first, TagLib::StringList(entry.second.toString("; ")));
    return single;
}

// The pairs as a property map: a key given several times keeps each value, in order.
static TagLib::PropertyMap propertyMap(const char *const *keys, const char *const *values, size_t count) {
    TagLib::PropertyMap map;
    for (size_t index = 0; index < count; index++) {
        TagLib::String key = fromUTF8(keys[index]);
        TagLib::StringList list = map.contains(key) ? map[key] : TagLib::StringList();
        list.append(fromUTF8(values[index]));
        map.replace(key, list);
    }
    return map;
}

int tagshim_replace(tagshim_file *file, const char *const *keys, const char *const *values, size_t count,
                    const tagshim_picture *pictures, size_t picture_count) {
    try {
        TagLib::PropertyMap map = propertyMap(keys, values, count);
        TagLib::PropertyMap rejected = file->file->setProperties(map);
        if (auto mp4 = dynamic_cast<TagLib::MP4::File *>(file->file)) writeFreeform(mp4->tag(), rejected);
        if (auto wav = dynamic_cast<TagLib::RIFF::WAV::File *>(file->file)) wav->InfoTag()->setProperties(joined(map));
        return writePictures(file->file, pictures, picture_count) ? 0 : -1;
    } catch (...) {
        return -1;
    }
}

int tagshim_save(tagshim_file *file) {
    try {
        bool saved;
        if (auto mpeg = dynamic_cast<TagLib::MPEG::File *>(file->file)) {
            // ID3v2.4 alone: no ID3v1 or APE copy the user did not have.
            saved = mpeg->save(TagLib::MPEG::File::ID3v2, TagLib::File::StripOthers, TagLib::ID3v2::v4, TagLib::File::DoNotDuplicate);
        } else {
            saved = file->file->save();
        }
        return saved ? 0 : -1;
    } catch (...) {
        return -1;
    }
}

int tagshim_set_field(tagshim_file *file, const char *name, const char *value) {
    try {
        return setField(file->file, name, value) ? 0 : -1;
    } catch (...) {
        return -1;
    }
}

int tagshim_save_keeping(tagshim_file *file) {
    try {
        bool saved;
        if (auto mpeg = dynamic_cast<TagLib::MPEG::File *>(file->file)) {
            int tags = TagLib::MPEG::File::ID3v2 | (mpeg->hasAPETag() ? TagLib::MPEG::File::APE : 0)
                | (mpeg->hasID3v1Tag() ? TagLib::MPEG::File::ID3v1 : 0);
            auto version = mpeg->hasID3v2Tag() && mpeg->ID3v2Tag()->header()->majorVersion() == 3 ? TagLib::ID3v2::v3 : TagLib::ID3v2::v4;
            saved = mpeg->save(tags, TagLib::File::StripNone, version, TagLib::File::DoNotDuplicate);
        } else {
            saved = file->file->save();
        }
        return saved ? 0 : -1;
    } catch (...) {
        return -1;
    }
}

size_t tagshim_chapter_count(const tagshim_file *file) { return file->chapters.size(); }

void tagshim_chapter_at(const tagshim_file *file, size_t index, tagshim_chapter *chapter) {
    const Chapter &found = file->chapters[index];
    chapter->element_id = found.element_id.c_str();
    chapter->start_ms = found.start_ms;
    chapter->end_ms = found.end_ms;
    chapter->title = found.title.c_str();
    chapter->note = found.note.c_str();
    chapter->listed = found.listed ? 1 : 0;
}

size_t tagshim_dangling_chapter_count(const tagshim_file *file) { return file->danglingChapters.size(); }
const char *tagshim_dangling_chapter(const tagshim_file *file, size_t index) { return file->danglingChapters[index].c_str(); }

int tagshim_sample_rate(const tagshim_file *file) { return file->rate; }

int tagshim_set_chapters(tagshim_file *file, const tagshim_chapter *chapters, size_t count) {
    try {
        auto tag = id3v2Tag(file->file, true);
        if (!tag) return -1;
        writeChapters(tag, chapters, count);
        return 0;
    } catch (...) {
        return -1;
    }
}

}

unsigned char *tagshim_render_id3v2(const char *const *keys, const char *const *values, size_t count, size_t *length,
                                    char **rejected) {
    try {
        TagLib::ID3v2::Tag tag;
        TagLib::PropertyMap refused = tag.setProperties(propertyMap(keys, values, count));
        TagLib::ByteVector rendered = tag.render();
        std::string names;
        for (const auto &entry : refused) names += utf8(entry.first) + "\n";
        auto bytes = static_cast<unsigned char *>(malloc(rendered.size() ? rendered.size() : 1));
        *rejected = strdup(names.c_str());
        if (!bytes || !*rejected) {
            free(bytes);
            free(*rejected);
            return nullptr;
        }
        memcpy(bytes, rendered.data(), rendered.size());
        *length = rendered.size();
        return bytes;
    } catch (...) {
        return nullptr;
    }
}

void tagshim_free(void *buffer) { free(buffer); }
