// LD_PRELOAD shim for the disk-failure test: while the file named by $FAILING_FSYNC_FLAG exists, fsync and
// fdatasync fail with EIO without flushing, as a failing disk answers; otherwise they pass through.

#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

namespace {

bool failing() {
  const char* flag = getenv("FAILING_FSYNC_FLAG");
  return flag != nullptr && access(flag, F_OK) == 0;
}

template <class Fn>
Fn real(const char* name) {
  return reinterpret_cast<Fn>(dlsym(RTLD_NEXT, name));
}

}  // namespace

extern "C" int fdatasync(int fd) {
  if (failing()) {
    errno = EIO;
    return -1;
  }
  static auto next = real<int (*)(int)>("fdatasync");
  return next(fd);
}

extern "C" int fsync(int fd) {
  if (failing()) {
    errno = EIO;
    return -1;
  }
  static auto next = real<int (*)(int)>("fsync");
  return next(fd);
}
