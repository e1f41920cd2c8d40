// Every work-around of libcec 6 the bridge carries, in one place, and the C API that reports it (cec_shim.h).
//
// - The adapter ping thread. For a Pulse-Eight adapter libcec starts a thread (CEC::CAdapterPingThread) that pings
//   the adapter every 15 s, the keepalive without which the adapter's firmware takes over the bus after 30 s, and
//   raises CONNECTION_LOST after three failed pings in a row. Between pings it checks its timer in a loop that
//   sleeps 5 ms at a time: some 12,000 wake-ups a minute, most of the daemon's idle CPU. The executable defines
//   CEC::CAdapterPingThread::Process (the thread's body, reached through the class's vtable, so libcec's own
//   thread start calls it) as a loop that waits for the next ping or for the connection's close, and pings the
//   same way (CUSBCECAdapterCommunication::PingAdapter). After a failed ping it tries twice more, 0.5 s apart, as
//   libcec does; when all three fail it hands over to libcec's own loop, which pings at once and raises
//   CONNECTION_LOST when those fail too.
//   The close: libcec's CUSBCECAdapterCommunication::Close stops the reader thread, then calls
//   CAdapterEepromWriteThread::Stop (through its PLT), then deletes the ping thread, whose destructor waits for
//   the thread to end. The executable's CAdapterEepromWriteThread::Stop first ends the waiting loop of the ping
//   thread of the same connection, then calls libcec's own.
//   Both threads keep their connection (m_com) in their first member; the loop reads it there and checks that it
//   points at a CUSBCECAdapterCommunication (its vtable) before it uses it, else it runs libcec's own loop.
//
// The replaced functions are defined here under libcec's mangled names and exported: libcec's vtables and PLT
// calls bind to the executable's definitions; libcec's own are reached with dlsym(RTLD_NEXT).

#include "cec_shim.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <vector>

#include <dlfcn.h>

namespace {

const char *const kPingProcessSymbol = "_ZN3CEC18CAdapterPingThread7ProcessEv";
const char *const kEepromStopSymbol = "_ZN3CEC25CAdapterEepromWriteThread4StopEv";
const char *const kIsStoppedSymbol = "_ZN10P8PLATFORM7CThread9IsStoppedEv";
const char *const kPingAdapterSymbol = "_ZN3CEC27CUSBCECAdapterCommunication11PingAdapterEv";
const char *const kCommunicationVTableSymbol = "_ZTVN3CEC27CUSBCECAdapterCommunicationE";

// Where both thread classes keep their connection: right after their P8PLATFORM::CThread base (libcec 6.0.2,
// x86_64 and arm64 alike: the base is a vtable pointer, three flags, a condition and a mutex). Checked before use.
constexpr std::size_t kConnectionOffset = 0x80;

using ProcessFn = void *(*)(void *);
using VoidFn = void (*)(void *);
using BoolFn = bool (*)(void *);

struct Library {
    ProcessFn pingProcess = nullptr;
    VoidFn eepromStop = nullptr;
    BoolFn isStopped = nullptr;
    BoolFn pingAdapter = nullptr;
    const void *communicationVPtr = nullptr;  // the vtable pointer a CUSBCECAdapterCommunication object holds
};

extern "C" void *thuisPingThreadProcess(void *thread) __asm__("_ZN3CEC18CAdapterPingThread7ProcessEv");
extern "C" void thuisEepromWriteThreadStop(void *thread) __asm__("_ZN3CEC25CAdapterEepromWriteThread4StopEv");

const Library &library() {
    static const Library resolved = [] {
        Library lib;
        auto process = reinterpret_cast<ProcessFn>(dlsym(RTLD_NEXT, kPingProcessSymbol));
        lib.pingProcess = process == &thuisPingThreadProcess ? nullptr : process;
        auto stop = reinterpret_cast<VoidFn>(dlsym(RTLD_NEXT, kEepromStopSymbol));
        lib.eepromStop = stop == &thuisEepromWriteThreadStop ? nullptr : stop;
        lib.isStopped = reinterpret_cast<BoolFn>(dlsym(RTLD_DEFAULT, kIsStoppedSymbol));
        lib.pingAdapter = reinterpret_cast<BoolFn>(dlsym(RTLD_DEFAULT, kPingAdapterSymbol));
        if (auto vtable = static_cast<const char *>(dlsym(RTLD_DEFAULT, kCommunicationVTableSymbol))) {
            lib.communicationVPtr = vtable + 2 * sizeof(void *);  // past the offset-to-top and the type info
        }
        return lib;
    }();
    return resolved;
}

// The connection a ping or EEPROM write thread belongs to, if its first member points at one.
void *connectionOf(void *thread) {
    const Library &lib = library();
    if (thread == nullptr || lib.communicationVPtr == nullptr) return nullptr;
    void *connection = *reinterpret_cast<void **>(static_cast<char *>(thread) + kConnectionOffset);
    if (connection == nullptr || *static_cast<const void *const *>(connection) != lib.communicationVPtr) return nullptr;
    return connection;
}

// The waiting loops, each with the connection it pings and whether that connection is closing.
struct Waiter {
    void *connection;
    bool closing = false;
};

std::mutex g_mutex;
std::condition_variable g_changed;
std::vector<Waiter *> g_waiters;
std::atomic<uint32_t> g_intervalMs{15000};
std::atomic<uint64_t> g_threadsReplaced{0};
std::atomic<uint64_t> g_pings{0};
std::atomic<uint64_t> g_loopsClosed{0};

// Waits `interval` or until the connection closes; true when it closes.
bool waitUnlessClosing(Waiter &waiter, std::chrono::milliseconds interval) {
    std::unique_lock<std::mutex> lock(g_mutex);
    return g_changed.wait_for(lock, interval, [&] { return waiter.closing; });
}

}  // namespace

extern "C" __attribute__((visibility("default"))) void *thuisPingThreadProcess(void *thread) {
    const Library &lib = library();
    void *connection = connectionOf(thread);
    if (lib.pingProcess == nullptr) return nullptr;  // no libcec definition: nothing sensible to run
    if (connection == nullptr || lib.isStopped == nullptr || lib.pingAdapter == nullptr || lib.eepromStop == nullptr) {
        return lib.pingProcess(thread);
    }
    g_threadsReplaced.fetch_add(1);
    Waiter waiter{connection};
    {
        std::lock_guard<std::mutex> lock(g_mutex);
        g_waiters.push_back(&waiter);
    }
    bool answered = true;
    while (answered && !lib.isStopped(thread)) {
        if (waitUnlessClosing(waiter, std::chrono::milliseconds(g_intervalMs.load()))) break;
        if (lib.isStopped(thread)) break;
        answered = false;
        for (int attempt = 0; attempt < 3 && !answered; ++attempt) {
            if (attempt > 0 && waitUnlessClosing(waiter, std::chrono::milliseconds(500))) break;
            g_pings.fetch_add(1);
            answered = lib.pingAdapter(connection);
        }
    }
    bool closing = false;
    {
        std::lock_guard<std::mutex> lock(g_mutex);
        closing = waiter.closing;
        for (auto it = g_waiters.begin(); it != g_waiters.end(); ++it) {
            if (*it == &waiter) {
                g_waiters.erase(it);
                break;
            }
        }
    }
    if (closing) g_loopsClosed.fetch_add(1);
    // Three pings unanswered (not because the connection is closing): libcec's own loop pings again and raises
    // CONNECTION_LOST if those fail as well.
    return !answered && !closing ? lib.pingProcess(thread) : nullptr;
}

extern "C" __attribute__((visibility("default"))) void thuisEepromWriteThreadStop(void *thread) {
    if (void *connection = connectionOf(thread)) {
        std::lock_guard<std::mutex> lock(g_mutex);
        for (Waiter *waiter : g_waiters) {
            if (waiter->connection == connection) waiter->closing = true;
        }
        g_changed.notify_all();
    }
    if (VoidFn stop = library().eepromStop) stop(thread);
}

extern "C" {

bool cec_ping_thread_interposed(void) {
    const Library &lib = library();
    return dlsym(RTLD_DEFAULT, kPingProcessSymbol) == reinterpret_cast<void *>(&thuisPingThreadProcess) &&
           dlsym(RTLD_DEFAULT, kEepromStopSymbol) == reinterpret_cast<void *>(&thuisEepromWriteThreadStop) &&
           lib.pingProcess != nullptr && lib.eepromStop != nullptr && lib.isStopped != nullptr &&
           lib.pingAdapter != nullptr && lib.communicationVPtr != nullptr;
}

uint64_t cec_ping_threads_replaced(void) { return g_threadsReplaced.load(); }

uint64_t cec_keepalive_pings(void) { return g_pings.load(); }

uint64_t cec_ping_loops_closed(void) { return g_loopsClosed.load(); }

void cec_set_keepalive_interval_ms(uint32_t milliseconds) { g_intervalMs.store(milliseconds > 0 ? milliseconds : 1); }

}  // extern "C"
