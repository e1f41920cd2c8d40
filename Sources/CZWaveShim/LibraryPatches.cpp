// The bridge's patches of OpenZWave, in one place. Each was written against OpenZWave 1.6.1914 (Debian bookworm's
// libopenzwave1.6, ZW_PATCHES_WRITTEN_FOR) and is applied only while zw_set_library_patches(true) is in force,
// which the driver sets only when the running library reports that exact version (Manager::getVersionAsString).
// Otherwise every replaced function below forwards to the library's own at once, and OpenZWave runs as shipped.
//
// - User commands first: the executable's own Driver::SendMsg puts the messages of a value Set made through the
//   shim (UserCommand) on a queue the driver thread serves before OpenZWave's background queries
//   (zw_user_commands_promoted, zw_send_msg_interposed).
// - Deferred network-cache writes: the executable's own Driver::WriteCache skips the writes OpenZWave starts itself
//   during a start (zw_set_cache_writes_deferred, zw_cache_writes_interposed, zw_cache_write_counts).
// - Node cache copies: frees the copy of each node's cache element OpenZWave keeps but no longer reads
//   (zw_release_node_cache_copies, zw_node_cache_copies_released).
//
// zw_write_config lives here because its write goes through the deferral's gate (ExplicitCacheWrite); the rest of
// what it does is not a patch. The work-arounds that use OpenZWave's public API only: Workarounds.cpp.
//
// The two replaced library functions are defined here under the library's mangled names and exported, so
// libopenzwave's own calls, which go through its PLT, bind to them.

#include "ShimInternal.h"

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include <dlfcn.h>
#include <malloc.h>
#include <unistd.h>

#include "Driver.h"
#include "Node.h"
#include "Utils.h"
#include "platform/Mutex.h"
#include "tinyxml/tinyxml.h"

using namespace zwshim;


// ---- The gate ----

namespace {
std::atomic<bool> g_patchesApplied{false};
} // namespace

extern "C" {
const char *zw_patches_written_for(void) { return ZW_PATCHES_WRITTEN_FOR; }
void zw_set_library_patches(bool applied) { g_patchesApplied.store(applied); }
bool zw_library_patches(void) { return g_patchesApplied.load(); }
zw_status zw_library_version(char *buffer, size_t size) {
    return guarded("Manager::getVersionAsString", [&] {
        copyText(OpenZWave::Manager::getVersionAsString(), buffer, size);
        return ZW_OK;
    });
}
} // extern "C"

// ---- Replaced library functions ----

namespace {
// The library's own definition of `symbol` (the one after this executable's), or nullptr when dlsym finds none or
// only the executable's `replacement`.
template <typename Fn> Fn libraryDefinition(const char *symbol, Fn replacement) {
    auto found = reinterpret_cast<Fn>(dlsym(RTLD_NEXT, symbol));
    return found == replacement ? nullptr : found;
}

// Whether libopenzwave's calls of `symbol` reach the executable's `replacement` (it is the definition the dynamic
// linker binds).
template <typename Fn> bool boundToExecutable(const char *symbol, Fn replacement) {
    return dlsym(RTLD_DEFAULT, symbol) == reinterpret_cast<void *>(replacement);
}
} // namespace

// ---- Deferred cache writes ----

namespace {

// Deferred cache writes (see zw_set_cache_writes_deferred). The executable defines
// OpenZWave::Driver::WriteCache (thuisWriteCache below, under the library's mangled name) and exports it, so
// libopenzwave's own calls, which go through its PLT, bind here; the library's definition is reached with
// dlsym(RTLD_NEXT).
const char *const kWriteCacheSymbol = "_ZN9OpenZWave6Driver10WriteCacheEv";
std::atomic<bool> g_cacheWritesDeferred{false};
std::atomic<uint64_t> g_cacheWritesDone{0};
std::atomic<uint64_t> g_cacheWritesSkipped{0};
thread_local int t_explicitCacheWrites = 0;

// Marks the calls in its scope as the application's own (zw_write_config): they always write.
struct ExplicitCacheWrite {
    ExplicitCacheWrite() { ++t_explicitCacheWrites; }
    ~ExplicitCacheWrite() { --t_explicitCacheWrites; }
    ExplicitCacheWrite(const ExplicitCacheWrite &) = delete;
    ExplicitCacheWrite &operator=(const ExplicitCacheWrite &) = delete;
};

} // namespace

// OpenZWave::Driver::WriteCache() as libopenzwave's PLT calls see it (the Itanium ABI passes `this` first).
extern "C" void thuisWriteCache(void *driver) __asm__("_ZN9OpenZWave6Driver10WriteCacheEv");

namespace {
using WriteCacheFn = void (*)(void *);
// The library's own Driver::WriteCache, or nullptr when none can be found (then nothing can be written:
// zw_cache_writes_interposed says false and zw_write_config fails).
WriteCacheFn libraryWriteCache() {
    static WriteCacheFn library = libraryDefinition<WriteCacheFn>(kWriteCacheSymbol, &thuisWriteCache);
    return library;
}
} // namespace

// OpenZWave 1.6.1914 rewrites the whole network cache (Driver::WriteCache) each time a node's queries complete: N
// full writes of the file for N nodes during one start, on the driver thread that also serves the stick. Patched
// (while deferred): the writes OpenZWave starts itself are skipped and counted, and the bridge writes the cache once
// when the start is over (zw_write_config, which always writes).
extern "C" __attribute__((visibility("default"))) void thuisWriteCache(void *driver) {
    if (g_patchesApplied.load() && g_cacheWritesDeferred.load() && t_explicitCacheWrites == 0) {
        g_cacheWritesSkipped.fetch_add(1);
        return;
    }
    WriteCacheFn library = libraryWriteCache();
    if (library == nullptr) return;  // no library definition to forward to
    g_cacheWritesDone.fetch_add(1);
    library(driver);
}

// ---- Node cache copies ----
//
// OpenZWave 1.6.1914 keeps, in each node it read from the network cache, a copy of that node's <Node> element
// (Node::m_nodeCache) for the node's lifetime, although Node::WriteXML reads it only while the node is at
// QueryStage_CacheLoad, and a node never returns to that stage once past it (CacheLoad is entered only from the
// cache, at start-up; every later step back leads to a stage above it or skips it). With 50 nodes those copies
// are about 9 MB of TinyXML nodes. These members are private; an explicit template instantiation may name
// private members (the usual access checks do not apply there), which gives member pointers to them from the
// installed headers, i.e. the layout of the library they came with.
namespace {
template <typename Tag, typename Tag::type Member> struct ExposeMember {
    friend typename Tag::type exposed(Tag) { return Member; }
};
struct NodeCacheCopyMember {
    using type = TiXmlNode *OpenZWave::Node::*;
    friend type exposed(NodeCacheCopyMember);
};
template struct ExposeMember<NodeCacheCopyMember, &OpenZWave::Node::m_nodeCache>;
struct DriverNodesMember {
    using type = OpenZWave::Node *(OpenZWave::Driver::*)[256];
    friend type exposed(DriverNodesMember);
};
template struct ExposeMember<DriverNodesMember, &OpenZWave::Driver::m_nodes>;
struct DriverInitMember {
    using type = bool OpenZWave::Driver::*;
    friend type exposed(DriverInitMember);
};
template struct ExposeMember<DriverInitMember, &OpenZWave::Driver::m_init>;
struct DriverNodeMutexMember {
    using type = OpenZWave::Internal::Platform::Mutex *OpenZWave::Driver::*;
    friend type exposed(DriverNodeMutexMember);
};
template struct ExposeMember<DriverNodeMutexMember, &OpenZWave::Driver::m_nodeMutex>;
struct ManagerGetDriverMember {
    using type = OpenZWave::Driver *(OpenZWave::Manager::*)(uint32 const);
    friend type exposed(ManagerGetDriverMember);
};
template struct ExposeMember<ManagerGetDriverMember, &OpenZWave::Manager::GetDriver>;

std::atomic<uint64_t> g_nodeCacheCopiesReleased{0};
} // namespace

extern "C" {

zw_status zw_write_config(zw_manager *m, uint32_t home) {
    ZW_REQUIRE_MANAGER(m);
    return guarded("Manager::WriteConfig", [&] {
        if (libraryWriteCache() == nullptr) {
            setError("OpenZWave::Driver::WriteCache not found in libopenzwave: the cache cannot be written");
            return ZW_ERR_FAILED;
        }
        ExplicitCacheWrite explicitWrite;
        OPENZWAVE_DEPRECATED_WARNINGS_OFF
        m->manager->WriteConfig(home);
        OPENZWAVE_DEPRECATED_WARNINGS_ON
        // The write built the whole network as a TinyXML document (some 15 MB for 50 nodes) and freed it: give
        // those pages back to the kernel now.
        malloc_trim(0);
        return ZW_OK;
    });
}

zw_status zw_release_node_cache_copies(zw_manager *m, uint32_t home, uint32_t *out_released) {
    ZW_REQUIRE_MANAGER(m);
    return guarded("zw_release_node_cache_copies", [&]() -> zw_status {
        if (out_released != nullptr) *out_released = 0;
        if (!g_patchesApplied.load()) return ZW_OK;  // OpenZWave as shipped keeps its copies
        OpenZWave::Driver *driver = (m->manager->*exposed(ManagerGetDriverMember{}))(home);
        if (driver == nullptr) {
            setError("no driver with this home id");
            return ZW_ERR_INVALID_HOMEID;
        }
        OpenZWave::Internal::LockGuard guard(driver->*exposed(DriverNodeMutexMember{}));  // as WriteCache holds it
        // Until the stick's init data has been handled (m_init), nodes read from the cache still carry the stage
        // stored in it, and are about to be set back to CacheLoad, when their copy is needed again. The driver
        // thread sets m_init after that loop, whose every step takes the node lock held here.
        if (!(driver->*exposed(DriverInitMember{}))) return ZW_OK;
        OpenZWave::Node *(&nodes)[256] = driver->*exposed(DriverNodesMember{});
        // The nodes holding a copy they no longer need. Each is checked before any is freed: the headers' layout
        // must be the library's (the inline accessors, compiled here, have to agree with the library's own code),
        // or nothing at all is freed. Once the copies are gone (or after a cold start) a call finds none.
        std::vector<OpenZWave::Node *> candidates;
        for (int id = 1; id < 256; ++id) {
            OpenZWave::Node *node = nodes[id];
            if (node == nullptr || node->*exposed(NodeCacheCopyMember{}) == nullptr) continue;
            OpenZWave::Node::QueryStage stage = node->GetCurrentQueryStage();
            if (node->GetNodeId() != id || stage < OpenZWave::Node::QueryStage_None ||
                stage > OpenZWave::Node::QueryStage_Complete ||
                m->manager->GetNodeQueryStage(home, static_cast<uint8>(id)) != node->GetQueryStageName(stage)) {
                setError("OpenZWave's Node layout differs from the installed headers: nothing released");
                return ZW_ERR_FAILED;
            }
            if (stage > OpenZWave::Node::QueryStage_CacheLoad) candidates.push_back(node);  // else WriteXML needs it
        }
        uint32_t released = 0;
        for (OpenZWave::Node *node : candidates) {
            TiXmlNode *&copy = node->*exposed(NodeCacheCopyMember{});
            delete copy;
            copy = nullptr;
            ++released;
        }
        g_nodeCacheCopiesReleased.fetch_add(released);
        if (out_released != nullptr) *out_released = released;
        return ZW_OK;
    });
}

uint64_t zw_node_cache_copies_released(void) { return g_nodeCacheCopiesReleased.load(); }

void zw_set_cache_writes_deferred(bool deferred) { g_cacheWritesDeferred.store(deferred); }

bool zw_cache_writes_deferred(void) { return g_cacheWritesDeferred.load(); }

bool zw_cache_writes_interposed(void) {
    return boundToExecutable(kWriteCacheSymbol, &thuisWriteCache) && libraryWriteCache() != nullptr;
}

void zw_cache_write_counts(uint64_t *written, uint64_t *skipped) {
    if (written != nullptr) *written = g_cacheWritesDone.load();
    if (skipped != nullptr) *skipped = g_cacheWritesSkipped.load();
}

} // extern "C"

// ---- User commands first ----
//
// OpenZWave 1.6.1914 serves its message queues in a fixed order: Command, NoOp, Controller, WakeUp, Send, Query, Poll
// (Driver::DriverThreadProc waits on their events in that order and takes the first one set). A value Set goes on
// the Send queue, and so do the Gets of every node's Dynamic query stage (Switch Multilevel, Meter, Sensor
// Multilevel, Notification...), which OpenZWave queues all at once at start-up and when a node is refreshed, and
// the Gets of Manager::RefreshValue: a Set queued behind them waits for every one of their transactions. The
// executable defines Driver::SendMsg (thuisSendMsg below, under the library's mangled name): a message sent while
// the calling thread is inside a value Set made through the shim (UserCommand) goes to the WakeUp queue instead,
// the highest queue the driver thread serves outside a controller command (inclusion, exclusion), like Send; it
// holds otherwise only the messages of battery devices that just woke up. Everything else keeps its queue. So a
// user's Set waits at most for the transaction in flight. The queue's name in OpenZWave's log is "WakeUp".

namespace {
const char *const kSendMsgSymbol = "_ZN9OpenZWave6Driver7SendMsgEPNS_8Internal3MsgENS0_8MsgQueueE";
thread_local int t_userCommands = 0;
std::atomic<uint64_t> g_userCommandsPromoted{0};
} // namespace

extern "C" void thuisSendMsg(void *driver, void *message, OpenZWave::Driver::MsgQueue queue) __asm__(
    "_ZN9OpenZWave6Driver7SendMsgEPNS_8Internal3MsgENS0_8MsgQueueE");

namespace {
using SendMsgFn = void (*)(void *, void *, OpenZWave::Driver::MsgQueue);
SendMsgFn librarySendMsg() {
    static SendMsgFn library = libraryDefinition<SendMsgFn>(kSendMsgSymbol, &thuisSendMsg);
    return library;
}
} // namespace

extern "C" __attribute__((visibility("default"))) void thuisSendMsg(void *driver, void *message,
                                                                     OpenZWave::Driver::MsgQueue queue) {
    SendMsgFn library = librarySendMsg();
    if (library == nullptr) return;  // unreachable while libopenzwave is linked: it defines SendMsg
    if (g_patchesApplied.load() && t_userCommands > 0 && queue == OpenZWave::Driver::MsgQueue_Send) {
        queue = OpenZWave::Driver::MsgQueue_WakeUp;
        g_userCommandsPromoted.fetch_add(1);
    }
    library(driver, message, queue);
}

namespace zwshim {
UserCommand::UserCommand() { ++t_userCommands; }
UserCommand::~UserCommand() { --t_userCommands; }
} // namespace zwshim

extern "C" {

bool zw_send_msg_interposed(void) { return boundToExecutable(kSendMsgSymbol, &thuisSendMsg) && librarySendMsg() != nullptr; }

uint64_t zw_user_commands_promoted(void) { return g_userCommandsPromoted.load(); }

} // extern "C"
