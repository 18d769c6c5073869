#pragma once
// ReaderGate: keeps read transactions out while the writer thread remaps the LMDB file.
//
// mdb_env_set_mapsize may only run while no transaction of the process is active, so every read() holds the
// gate (shared) for the life of its read transaction and the writer takes it exclusively, with no
// transaction of its own open, to grow the map. The gate prefers the exclusive side: once it is requested,
// new readers wait, so a steady stream of readers cannot keep the map from growing (and writes from
// proceeding) forever; the remap waits only for the readers already inside.

#include <condition_variable>
#include <mutex>

namespace store {

class ReaderGate {
 public:
  // Enters as a reader. `nested` is true when the calling thread is already inside (a read() within a
  // read() callback): it then enters even while an exclusive holder waits, since that holder waits for this
  // thread's outer read anyway and making it wait too would deadlock.
  void enter_shared(bool nested);
  void leave_shared();

  // Waits until no reader is inside, keeping new ones out, and holds the gate until unlock_exclusive().
  // Must not be called by a thread that is inside as a reader. Exclusive holders exclude each other.
  void lock_exclusive();
  void unlock_exclusive();

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  int readers_ = 0;
  bool exclusive_wanted_ = false;  // an exclusive holder waits or holds
};

}  // namespace store
