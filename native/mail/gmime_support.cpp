#include "native/mail/gmime_support.h"

#include <mutex>

namespace native::mail::gmime {

void ensure_initialized() {
  static std::once_flag once;
  std::call_once(once, [] { g_mime_init(); });
}

std::string take(char* owned) {
  CString holder(owned);
  return owned == nullptr ? std::string() : std::string(owned);
}

std::string stream_bytes(GMimeStream* stream) {
  GMimeStreamMem* mem = GMIME_STREAM_MEM(stream);
  GByteArray* bytes = g_mime_stream_mem_get_byte_array(mem);
  if (bytes == nullptr || bytes->len == 0) return {};
  return std::string(reinterpret_cast<const char*>(bytes->data), bytes->len);
}

}  // namespace native::mail::gmime
