#pragma once
// What mime_message.cpp and mime_parse.cpp share about GMime 3: its one-time initialisation and owners for
// the C objects it hands out. Internal to native/mail.

#include <gmime/gmime.h>

#include <memory>
#include <string>

namespace native::mail::gmime {

// Calls g_mime_init() exactly once per process (it is not safe to call twice or concurrently); every
// function that touches GMime calls this first. g_mime_shutdown() is never called: other threads may still
// be building or parsing while the process exits. After initialisation GMime may be used from several
// threads as long as no GObject is shared between them: its FAQ ("How do I use GMime with threads?")
// declares the charset, iconv and utils functions thread-safe and GObjects not, and every build or parse
// here makes its own objects.
void ensure_initialized();

// Owners: every GObject GMime returns with a reference we hold, every g_malloc'd string, and the two option
// structures. GMime reports failure by returning null and never longjmps, so these cover every path.
struct GObjectUnref {
  void operator()(gpointer object) const { g_object_unref(object); }
};
template <class T>
using Ref = std::unique_ptr<T, GObjectUnref>;

struct GFree {
  void operator()(gpointer p) const { g_free(p); }
};
using CString = std::unique_ptr<char, GFree>;

struct FormatOptionsFree {
  void operator()(GMimeFormatOptions* o) const { g_mime_format_options_free(o); }
};
using FormatOptions = std::unique_ptr<GMimeFormatOptions, FormatOptionsFree>;

struct ParserOptionsFree {
  void operator()(GMimeParserOptions* o) const { g_mime_parser_options_free(o); }
};
using ParserOptions = std::unique_ptr<GMimeParserOptions, ParserOptionsFree>;

struct DateTimeUnref {
  void operator()(GDateTime* d) const { g_date_time_unref(d); }
};
using DateTime = std::unique_ptr<GDateTime, DateTimeUnref>;

// A g_malloc'd string as std::string (empty for null), freed.
std::string take(char* owned);

// The whole content of a memory stream (g_mime_stream_mem_new*).
std::string stream_bytes(GMimeStream* stream);

}  // namespace native::mail::gmime
