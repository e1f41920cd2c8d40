// The C API of zwave_shim.h over OpenZWave 1.6. The only C++ in the project.
// Every entry point catches every exception (OZW's OZW_ERROR macros throw OZWException) and returns a
// zw_status; the message is kept per thread for zw_last_error().

#include "zwave_shim.h"

#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <exception>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include <dlfcn.h>
#include <malloc.h>
#include <sys/stat.h>
#include <unistd.h>

#include "Defs.h"
#include "Driver.h"
#include "Manager.h"
#include "Node.h"
#include "Notification.h"
#include "OZWException.h"
#include "Options.h"
#include "Utils.h"
#include "platform/Log.h"
#include "platform/Mutex.h"
#include "tinyxml/tinyxml.h"
#include "value_classes/ValueID.h"

using OpenZWave::LogLevel;
using OpenZWave::Manager;
using OpenZWave::Notification;
using OpenZWave::Options;
using OpenZWave::OZWException;
using OpenZWave::ValueID;

namespace {

thread_local std::string t_lastError;

// The log file OZW's own logger opens while the Manager is constructed (before ours replaces it). It is
// created empty (both levels None at that moment) inside the user path and deleted right after.
const char *const kBootstrapLogName = "ozw_bootstrap_log.txt";

void setError(std::string message) { t_lastError = std::move(message); }

// Deferred cache writes (see zw_set_cache_writes_deferred). The executable defines
// OpenZWave::Driver::WriteCache (thuisWriteCache below, under the library's mangled name) and exports it, so
// libopenzwave's own calls, which go through its PLT, bind here; the library's definition is reached with
// dlsym(RTLD_NEXT).
const char *const kWriteCacheSymbol = "_ZN9OpenZWave6Driver10WriteCacheEv";
std::atomic<bool> g_cacheWritesDeferred{false};
std::atomic<uint64_t> g_cacheWritesDone{0};
std::atomic<uint64_t> g_cacheWritesSkipped{0};
thread_local int t_explicitCacheWrites = 0;
std::atomic<uint64_t> g_configRevisionReadsSkipped{0};

// Marks the calls in its scope as the application's own (zw_write_config): they always write.
struct ExplicitCacheWrite {
    ExplicitCacheWrite() { ++t_explicitCacheWrites; }
    ~ExplicitCacheWrite() { --t_explicitCacheWrites; }
    ExplicitCacheWrite(const ExplicitCacheWrite &) = delete;
    ExplicitCacheWrite &operator=(const ExplicitCacheWrite &) = delete;
};

void copyText(const std::string &text, char *buffer, size_t size) {
    if (buffer == nullptr || size == 0) return;
    size_t n = text.size() < size - 1 ? text.size() : size - 1;
    std::memcpy(buffer, text.data(), n);
    buffer[n] = '\0';
}

zw_status statusFor(OZWException::ExceptionType type) {
    switch (type) {
    case OZWException::OZWEXCEPTION_OPTIONS: return ZW_ERR_OPTIONS;
    case OZWException::OZWEXCEPTION_CONFIG: return ZW_ERR_CONFIG_PATH;
    case OZWException::OZWEXCEPTION_INVALID_HOMEID: return ZW_ERR_INVALID_HOMEID;
    case OZWException::OZWEXCEPTION_INVALID_VALUEID: return ZW_ERR_INVALID_VALUEID;
    case OZWException::OZWEXCEPTION_CANNOT_CONVERT_VALUEID: return ZW_ERR_CANNOT_CONVERT;
    case OZWException::OZWEXCEPTION_SECURITY_FAILED: return ZW_ERR_SECURITY;
    case OZWException::OZWEXCEPTION_INVALID_NODEID: return ZW_ERR_INVALID_NODEID;
    }
    return ZW_ERR_EXCEPTION;
}

// Runs `body` (returning zw_status), turning every exception into a status and a message naming `call`.
template <typename Body> zw_status guarded(const char *call, Body &&body) {
    t_lastError.clear();
    try {
        return body();
    } catch (OZWException &e) {
        setError(std::string(call) + ": " + e.what());
        return statusFor(e.GetType());
    } catch (std::exception &e) {
        setError(std::string(call) + ": " + e.what());
        return ZW_ERR_EXCEPTION;
    } catch (...) {
        setError(std::string(call) + ": unknown exception");
        return ZW_ERR_UNKNOWN_EXCEPTION;
    }
}

zw_status failed(const char *call) {
    setError(std::string(call) + " returned false");
    return ZW_ERR_FAILED;
}

zw_status boolResult(const char *call, bool ok) { return ok ? ZW_OK : failed(call); }

bool isDirectory(const char *path) {
    struct stat st;
    return path != nullptr && path[0] != '\0' && stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

std::string withSlash(const char *path) {
    std::string p(path);
    if (!p.empty() && p.back() != '/') p += '/';
    return p;
}

// OpenZWave's log output as C callbacks: filters by the save level, keeps a bounded queue of less
// severe lines that is flushed when a line at the dump trigger arrives (OZW's own semantics).
class ForwardingLog final : public OpenZWave::i_LogImpl {
  public:
    ForwardingLog(zw_log_fn fn, void *context, LogLevel save, LogLevel queue, LogLevel dump)
        : m_fn(fn), m_context(context), m_save(save), m_queue(queue), m_dump(dump) {}

    void Write(LogLevel level, uint8 const nodeId, char const *format, va_list args) override {
        if (m_fn == nullptr || format == nullptr) return;
        if (level == OpenZWave::LogLevel_Internal) return; // OZW's own queue replays; we keep our own
        std::lock_guard<std::mutex> guard(m_mutex);
        bool save = level <= m_save;
        bool queue = !save && level <= m_queue;
        if (!save && !queue && !(level <= m_dump)) return;
        char line[1024];
        va_list copy;
        va_copy(copy, args);
        vsnprintf(line, sizeof(line), format, copy);
        va_end(copy);
        size_t n = std::strlen(line);
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r')) line[--n] = '\0';
        if (save) {
            m_fn(static_cast<int>(level), nodeId, line, m_context);
        } else if (queue) {
            if (m_queued.size() >= kQueueCapacity) m_queued.pop_front();
            m_queued.push_back(Queued{level, nodeId, std::string(line)});
        }
        if (level <= m_dump && level != OpenZWave::LogLevel_Always && level > OpenZWave::LogLevel_None) dumpLocked();
    }
    void QueueDump() override {
        std::lock_guard<std::mutex> guard(m_mutex);
        dumpLocked();
    }
    void QueueClear() override {
        std::lock_guard<std::mutex> guard(m_mutex);
        m_queued.clear();
    }
    void SetLoggingState(LogLevel save, LogLevel queue, LogLevel dump) override {
        std::lock_guard<std::mutex> guard(m_mutex);
        m_save = save;
        m_queue = queue;
        m_dump = dump;
    }
    void SetLogFileName(const std::string &) override {}

  private:
    struct Queued {
        LogLevel level;
        uint8 node;
        std::string line;
    };
    static constexpr size_t kQueueCapacity = 500;

    void dumpLocked() {
        for (auto const &q : m_queued) m_fn(static_cast<int>(q.level), q.node, q.line.c_str(), m_context);
        m_queued.clear();
    }

    zw_log_fn m_fn;
    void *m_context;
    LogLevel m_save;
    LogLevel m_queue;
    LogLevel m_dump;
    std::mutex m_mutex;
    std::deque<Queued> m_queued;
};

} // namespace

// OpenZWave::Driver::WriteCache() as libopenzwave's PLT calls see it (the Itanium ABI passes `this` first).
extern "C" void thuisWriteCache(void *driver) __asm__("_ZN9OpenZWave6Driver10WriteCacheEv");

namespace {
using WriteCacheFn = void (*)(void *);
// The library's own Driver::WriteCache, or nullptr when none can be found (then nothing can be written:
// zw_cache_writes_interposed says false and zw_write_config fails).
WriteCacheFn libraryWriteCache() {
    static WriteCacheFn library = [] {
        auto found = reinterpret_cast<WriteCacheFn>(dlsym(RTLD_NEXT, kWriteCacheSymbol));
        return found == &thuisWriteCache ? nullptr : found;
    }();
    return library;
}
} // namespace

extern "C" __attribute__((visibility("default"))) void thuisWriteCache(void *driver) {
    if (g_cacheWritesDeferred.load() && t_explicitCacheWrites == 0) {
        g_cacheWritesSkipped.fetch_add(1);
        return;
    }
    WriteCacheFn library = libraryWriteCache();
    if (library == nullptr) return;  // no library definition to forward to
    g_cacheWritesDone.fetch_add(1);
    library(driver);
    // The write builds the whole network as a TinyXML document (some 15 MB for 50 nodes) and frees it again:
    // give those pages back now rather than at the next periodic trim.
    malloc_trim(0);
}

// OpenZWave::Internal::ManufacturerSpecificDB::LoadConfigFileRevision(ProductDescriptor*), as libopenzwave's PLT
// calls see it. OpenZWave 1.6 calls it for every product in manufacturer_specific.xml while loading the device
// database, and it parses that product's whole config file only to store its Revision attribute in the
// ProductDescriptor, where nothing in the library reads it again (a node's config revision is read from its own
// config file when the node is interviewed). Parsing some 800 files is most of OpenZWave's start-up time, so
// this definition does nothing and counts the calls (zw_config_revision_reads_skipped).
extern "C" void thuisLoadConfigFileRevision(void *database, void *product) __asm__(
    "_ZN9OpenZWave8Internal22ManufacturerSpecificDB22LoadConfigFileRevisionEPNS0_17ProductDescriptorE");
extern "C" __attribute__((visibility("default"))) void thuisLoadConfigFileRevision(void *, void *) {
    g_configRevisionReadsSkipped.fetch_add(1);
}

// ---- Node cache copies ----
//
// OpenZWave 1.6 keeps, in each node it read from the network cache, a copy of that node's <Node> element
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

struct zw_manager {
    Manager *manager;
    zw_notification_fn notificationFn;
    void *context;
};

namespace {

std::mutex g_lifecycle;
zw_manager *g_instance = nullptr;

void fillValueId(ValueID const &v, zw_value_id *out) {
    out->home_id = v.GetHomeId();
    out->id = v.GetId();
    out->node_id = v.GetNodeId();
    out->genre = static_cast<uint8_t>(v.GetGenre());
    out->command_class = v.GetCommandClassId();
    out->instance = v.GetInstance();
    out->index = v.GetIndex();
    out->type = static_cast<uint8_t>(v.GetType());
}

ValueID toValueId(const zw_value_id *v) { return ValueID(v->home_id, static_cast<uint64>(v->id)); }

// Reads everything about a value into `s`; throws what OZW throws.
void readSnapshot(Manager *m, ValueID const &v, zw_value_snapshot *s) {
    std::memset(s, 0, sizeof(*s));
    std::string text;
    if (m->GetValueAsString(v, &text)) copyText(text, s->string_value, sizeof(s->string_value));
    switch (v.GetType()) {
    case ValueID::ValueType_Bool: {
        bool b = false;
        s->valid = m->GetValueAsBool(v, &b);
        s->bool_value = b;
        s->int_value = b ? 1 : 0;
        s->double_value = b ? 1 : 0;
        break;
    }
    case ValueID::ValueType_Byte: {
        uint8 b = 0;
        s->valid = m->GetValueAsByte(v, &b);
        s->int_value = b;
        s->double_value = b;
        break;
    }
    case ValueID::ValueType_Short: {
        int16 i = 0;
        s->valid = m->GetValueAsShort(v, &i);
        s->int_value = i;
        s->double_value = i;
        break;
    }
    case ValueID::ValueType_Int: {
        int32 i = 0;
        s->valid = m->GetValueAsInt(v, &i);
        s->int_value = i;
        s->double_value = i;
        break;
    }
    case ValueID::ValueType_Decimal: {
        uint8 precision = 0;
        m->GetValueFloatPrecision(v, &precision);
        s->precision = precision;
        char *end = nullptr;
        double d = std::strtod(text.c_str(), &end);
        s->valid = !text.empty() && end != text.c_str();
        s->double_value = d;
        s->int_value = static_cast<int32_t>(d);
        break;
    }
    case ValueID::ValueType_List: {
        int32 selected = 0;
        s->valid = m->GetValueListSelection(v, &selected);
        s->int_value = selected;
        s->double_value = selected;
        std::string label;
        if (m->GetValueListSelection(v, &label)) copyText(label, s->string_value, sizeof(s->string_value));
        break;
    }
    case ValueID::ValueType_String:
    case ValueID::ValueType_Raw:
    case ValueID::ValueType_Schedule:
        s->valid = !text.empty() || v.GetType() == ValueID::ValueType_String;
        break;
    case ValueID::ValueType_Button:
    case ValueID::ValueType_BitSet:
        s->valid = !text.empty();
        break;
    }
    copyText(m->GetValueLabel(v), s->label, sizeof(s->label));
    copyText(m->GetValueUnits(v), s->units, sizeof(s->units));
    s->read_only = m->IsValueReadOnly(v);
}

// The watcher: copies the notification into the C struct and calls the client. Runs on OZW's thread.
void onNotification(Notification const *n, void *context) {
    auto *handle = static_cast<zw_manager *>(context);
    if (handle == nullptr || handle->notificationFn == nullptr || n == nullptr) return;
    zw_notification out;
    std::memset(&out, 0, sizeof(out));
    try {
        Notification::NotificationType type = n->GetType();
        out.type = static_cast<int>(type);
        out.home_id = n->GetHomeId();
        out.node_id = n->GetNodeId();
        out.byte = n->GetByte();
        ValueID const &v = n->GetValueID();
        fillValueId(v, &out.value_id);
        switch (type) {
        case Notification::Type_NodeEvent:
            out.event = n->GetEvent();
            break;
        case Notification::Type_ControllerCommand:
            out.event = n->GetEvent();
            out.notification_code = n->GetNotification();
            out.command = n->GetCommand();
            break;
        case Notification::Type_Notification:
            out.notification_code = n->GetNotification();
            break;
        case Notification::Type_SceneEvent:
            out.scene_id = n->GetByte();
            break;
        case Notification::Type_Group:
            out.group_index = n->GetByte();
            break;
        case Notification::Type_UserAlerts:
            out.user_alert = static_cast<int>(n->GetUserAlertType());
            break;
        case Notification::Type_ValueAdded:
        case Notification::Type_ValueChanged:
        case Notification::Type_ValueRefreshed:
            try {
                readSnapshot(handle->manager, v, &out.value);
            } catch (...) {
                out.value.valid = false;
            }
            break;
        default:
            break;
        }
    } catch (...) {
        // A notification we cannot read is still delivered with what we have.
    }
    handle->notificationFn(&out, handle->context);
}

LogLevel clampLevel(int level, LogLevel fallback) {
    if (level < OpenZWave::LogLevel_None || level > OpenZWave::LogLevel_StreamDetail) return fallback;
    return static_cast<LogLevel>(level);
}

// Manager handle check shared by all calls.
#define ZW_REQUIRE_MANAGER(m)                                                                                \
    do {                                                                                                     \
        if ((m) == nullptr || (m)->manager == nullptr) {                                                     \
            setError("no manager");                                                                          \
            return ZW_ERR_NO_MANAGER;                                                                        \
        }                                                                                                    \
    } while (0)

#define ZW_REQUIRE(cond, what)                                                                               \
    do {                                                                                                     \
        if (!(cond)) {                                                                                       \
            setError(what);                                                                                  \
            return ZW_ERR_INVALID_ARGUMENT;                                                                  \
        }                                                                                                    \
    } while (0)

} // namespace

extern "C" {

void zw_options_init(zw_options *o) {
    if (o == nullptr) return;
    o->config_path = nullptr;
    o->user_path = nullptr;
    o->log_level = ZW_LOG_WARNING;
    o->queue_log_level = ZW_LOG_NONE;
    o->dump_trigger_level = ZW_LOG_NONE;
    o->save_configuration = true;
    o->poll_interval_ms = 30000;
    o->retry_timeout_ms = 10000;
    o->driver_max_attempts = 0;
    o->associate = true;
    o->auto_update_config = false;
}

const char *zw_last_error(void) { return t_lastError.c_str(); }

bool zw_manager_exists(void) {
    try {
        return Manager::Get() != nullptr;
    } catch (...) {
        return false;
    }
}

zw_status zw_version(char *buffer, size_t size) {
    return guarded("Manager::getVersionLongAsString", [&] {
        ZW_REQUIRE(buffer != nullptr && size > 0, "buffer is NULL");
        copyText(Manager::getVersionLongAsString(), buffer, size);
        return ZW_OK;
    });
}

zw_status zw_manager_create(const zw_options *options, zw_notification_fn notificationFn, zw_log_fn logFn,
                            void *context, zw_manager **outManager) {
    return guarded("zw_manager_create", [&]() -> zw_status {
        ZW_REQUIRE(options != nullptr && outManager != nullptr, "options or out pointer is NULL");
        *outManager = nullptr;
        std::lock_guard<std::mutex> guard(g_lifecycle);
        if (g_instance != nullptr || Manager::Get() != nullptr) {
            setError("an OpenZWave Manager already exists in this process (it is a singleton)");
            return ZW_ERR_ALREADY_EXISTS;
        }
        if (!isDirectory(options->config_path)) {
            setError(std::string("config path is not a directory: ") +
                     (options->config_path ? options->config_path : "(null)"));
            return ZW_ERR_CONFIG_PATH;
        }
        if (!isDirectory(options->user_path) || access(options->user_path, W_OK) != 0) {
            setError(std::string("user path is not a writable directory: ") +
                     (options->user_path ? options->user_path : "(null)"));
            return ZW_ERR_USER_PATH;
        }
        std::string configPath = withSlash(options->config_path);
        std::string userPath = withSlash(options->user_path);
        LogLevel save = clampLevel(options->log_level, OpenZWave::LogLevel_Warning);
        LogLevel queue = clampLevel(options->queue_log_level, OpenZWave::LogLevel_None);
        LogLevel dump = clampLevel(options->dump_trigger_level, OpenZWave::LogLevel_None);

        // The command line is parsed last by Options::Lock, so these win over any options.xml.
        // OZW's own logger writes nothing (levels None) and never to the console; ours replaces it.
        std::string commandLine;
        commandLine += "--Logging true --ConsoleOutput false --AppendLogFile false";
        commandLine += std::string(" --LogFileName ") + kBootstrapLogName;
        commandLine += " --SaveLogLevel 1 --QueueLogLevel 1 --DumpTriggerLevel 1";
        commandLine += std::string(" --SaveConfiguration ") + (options->save_configuration ? "true" : "false");
        commandLine += " --PollInterval " + std::to_string(options->poll_interval_ms > 0 ? options->poll_interval_ms : 30000);
        commandLine += " --RetryTimeout " + std::to_string(options->retry_timeout_ms > 0 ? options->retry_timeout_ms : 10000);
        commandLine += " --DriverMaxAttempts " + std::to_string(options->driver_max_attempts > 0 ? options->driver_max_attempts : 0);
        commandLine += std::string(" --Associate ") + (options->associate ? "true" : "false");
        commandLine += std::string(" --AutoUpdateConfigFile ") + (options->auto_update_config ? "true" : "false");

        Options *opts = Options::Create(configPath, userPath, commandLine);
        if (opts == nullptr) {
            setError("Options::Create returned NULL");
            return ZW_ERR_OPTIONS;
        }
        if (!opts->Lock()) {
            Options::Destroy();
            setError("Options::Lock failed (options were already locked)");
            return ZW_ERR_OPTIONS;
        }

        Manager *manager = nullptr;
        try {
            manager = Manager::Create();
        } catch (...) {
            Options::Destroy();
            throw;
        }
        if (manager == nullptr) {
            Options::Destroy();
            setError("Manager::Create returned NULL");
            return ZW_ERR_FAILED;
        }

        // Route the log: replace OZW's file/console logger (it deletes the old one; ours is owned by
        // OZW's Log from now on and deleted by Log::Destroy inside Manager::Destroy).
        OpenZWave::Log::SetLoggingClass(new ForwardingLog(logFn, context, save, queue, dump), false);
        std::string bootstrapLog = userPath + kBootstrapLogName;
        unlink(bootstrapLog.c_str());
        bool anyLogging = logFn != nullptr && (save > OpenZWave::LogLevel_None || queue > OpenZWave::LogLevel_None);
        OpenZWave::Log::SetLoggingState(anyLogging);

        auto *handle = new zw_manager{manager, notificationFn, context};
        if (!manager->AddWatcher(onNotification, handle)) {
            Manager::Destroy();
            Options::Destroy();
            delete handle;
            setError("Manager::AddWatcher returned false");
            return ZW_ERR_FAILED;
        }
        g_instance = handle;
        *outManager = handle;
        return ZW_OK;
    });
}

zw_status zw_manager_destroy(zw_manager *m) {
    ZW_REQUIRE_MANAGER(m);
    return guarded("zw_manager_destroy", [&]() -> zw_status {
        std::lock_guard<std::mutex> guard(g_lifecycle);
        if (m != g_instance) {
            setError("not the live manager handle");
            return ZW_ERR_NO_MANAGER;
        }
        // Keep the watcher during Destroy: the drivers' DriverRemoved notifications still reach the client.
        Manager::Destroy();
        Options::Destroy();
        m->manager = nullptr;
        g_instance = nullptr;
        delete m;
        return ZW_OK;
    });
}

zw_status zw_add_driver(zw_manager *m, const char *port) {
    ZW_REQUIRE_MANAGER(m);
    return guarded("Manager::AddDriver", [&] {
        ZW_REQUIRE(port != nullptr && port[0] != '\0', "port path is empty");
        return boolResult("Manager::AddDriver", m->manager->AddDriver(port));
    });
}

zw_status zw_remove_driver(zw_manager *m, const char *port) {
    ZW_REQUIRE_MANAGER(m);
    return guarded("Manager::RemoveDriver", [&] {
        ZW_REQUIRE(port != nullptr && port[0] != '\0', "port path is empty");
        return boolResult("Manager::RemoveDriver", m->manager->RemoveDriver(port));
    });
}

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
        return ZW_OK;
    });
}

zw_status zw_release_node_cache_copies(zw_manager *m, uint32_t home, uint32_t *out_released) {
    ZW_REQUIRE_MANAGER(m);
    return guarded("zw_release_node_cache_copies", [&]() -> zw_status {
        if (out_released != nullptr) *out_released = 0;
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
    void *bound = dlsym(RTLD_DEFAULT, kWriteCacheSymbol);
    return bound != nullptr && bound == reinterpret_cast<void *>(&thuisWriteCache) && libraryWriteCache() != nullptr;
}

uint64_t zw_config_revision_reads_skipped(void) { return g_configRevisionReadsSkipped.load(); }

void zw_cache_write_counts(uint64_t *written, uint64_t *skipped) {
    if (written != nullptr) *written = g_cacheWritesDone.load();
    if (skipped != nullptr) *skipped = g_cacheWritesSkipped.load();
}

zw_status zw_send_queue_count(zw_manager *m, uint32_t home, int32_t *out) {
    ZW_REQUIRE_MANAGER(m);
    return guarded("Manager::GetSendQueueCount", [&] {
        ZW_REQUIRE(out != nullptr, "out pointer is NULL");
        int32 count = m->manager->GetSendQueueCount(home);
        if (count < 0) return failed("Manager::GetSendQueueCount");
        *out = count;
        return ZW_OK;
    });
}

zw_status zw_controller_node_id(zw_manager *m, uint32_t home, uint8_t *out) {
    ZW_REQUIRE_MANAGER(m);
    return guarded("Manager::GetControllerNodeId", [&] {
        ZW_REQUIRE(out != nullptr, "out pointer is NULL");
        *out = m->manager->GetControllerNodeId(home);
        return ZW_OK;
    });
}

// ---- Values ----

zw_status zw_value_read(zw_manager *m, const zw_value_id *v, zw_value_snapshot *out) {
    ZW_REQUIRE_MANAGER(m);
    return guarded("zw_value_read", [&] {
        ZW_REQUIRE(v != nullptr && out != nullptr, "NULL argument");
        readSnapshot(m->manager, toValueId(v), out);
        return out->valid ? ZW_OK : failed("Manager::GetValueAs*");
    });
}

zw_status zw_value_get_bool(zw_manager *m, const zw_value_id *v, bool *out) {
    ZW_REQUIRE_MANAGER(m);
    return guarded("Manager::GetValueAsBool", [&] {
        ZW_REQUIRE(v != nullptr && out != nullptr, "NULL argument");
        bool b = false;
        if (!m->manager->GetValueAsBool(toValueId(v), &b)) return failed("Manager::GetValueAsBool");
        *out = b;
        return ZW_OK;
    });
}

zw_status zw_value_get_int(zw_manager *m, const zw_value_id *v, int32_t *out) {
    ZW_REQUIRE_MANAGER(m);
    return guarded("zw_value_get_int", [&] {
        ZW_REQUIRE(v != nullptr && out != nullptr, "NULL argument");
        zw_value_snapshot s;
        ValueID id = toValueId(v);
        switch (id.GetType()) {
        case ValueID::ValueType_Byte:
        case ValueID::ValueType_Short:
        case ValueID::ValueType_Int:
        case ValueID::ValueType_List:
            readSnapshot(m->manager, id, &s);
            if (!s.valid) return failed("Manager::GetValueAs*");
            *out = s.int_value;
            return ZW_OK;
        default:
            setError("zw_value_get_int: value is not byte/short/int/list");
            return ZW_ERR_TYPE_MISMATCH;
        }
    });
}

zw_status zw_value_get_double(zw_manager *m, const zw_value_id *v, double *out) {
    ZW_REQUIRE_MANAGER(m);
    return guarded("zw_value_get_double", [&] {
        ZW_REQUIRE(v != nullptr && out != nullptr, "NULL argument");
        zw_value_snapshot s;
        ValueID id = toValueId(v);
        switch (id.GetType()) {
        case ValueID::ValueType_Decimal:
        case ValueID::ValueType_Byte:
        case ValueID::ValueType_Short:
        case ValueID::ValueType_Int:
            readSnapshot(m->manager, id, &s);
            if (!s.valid) return failed("Manager::GetValueAs*");
            *out = s.double_value;
            return ZW_OK;
        default:
            setError("zw_value_get_double: value is not decimal or an integer");
            return ZW_ERR_TYPE_MISMATCH;
        }
    });
}

zw_status zw_value_get_string(zw_manager *m, const zw_value_id *v, char *buffer, size_t size) {
    ZW_REQUIRE_MANAGER(m);
    return guarded("Manager::GetValueAsString", [&] {
        ZW_REQUIRE(v != nullptr && buffer != nullptr && size > 0, "NULL argument");
        std::string text;
        if (!m->manager->GetValueAsString(toValueId(v), &text)) return failed("Manager::GetValueAsString");
        copyText(text, buffer, size);
        return ZW_OK;
    });
}

zw_status zw_value_get_label(zw_manager *m, const zw_value_id *v, char *buffer, size_t size) {
    ZW_REQUIRE_MANAGER(m);
    return guarded("Manager::GetValueLabel", [&] {
        ZW_REQUIRE(v != nullptr && buffer != nullptr && size > 0, "NULL argument");
        copyText(m->manager->GetValueLabel(toValueId(v)), buffer, size);
        return ZW_OK;
    });
}

zw_status zw_value_get_units(zw_manager *m, const zw_value_id *v, char *buffer, size_t size) {
    ZW_REQUIRE_MANAGER(m);
    return guarded("Manager::GetValueUnits", [&] {
        ZW_REQUIRE(v != nullptr && buffer != nullptr && size > 0, "NULL argument");
        copyText(m->manager->GetValueUnits(toValueId(v)), buffer, size);
        return ZW_OK;
    });
}

zw_status zw_value_get_precision(zw_manager *m, const zw_value_id *v, uint8_t *out) {
    ZW_REQUIRE_MANAGER(m);
    return guarded("Manager::GetValueFloatPrecision", [&] {
        ZW_REQUIRE(v != nullptr && out != nullptr, "NULL argument");
        uint8 p = 0;
        if (!m->manager->GetValueFloatPrecision(toValueId(v), &p)) return failed("Manager::GetValueFloatPrecision");
        *out = p;
        return ZW_OK;
    });
}

#define ZW_SET_VALUE(call, expr)                                                                             \
    ZW_REQUIRE_MANAGER(m);                                                                                   \
    return guarded(call, [&] {                                                                               \
        ZW_REQUIRE(v != nullptr, "value id is NULL");                                                        \
        return boolResult(call, (expr));                                                                     \
    })

zw_status zw_value_set_bool(zw_manager *m, const zw_value_id *v, bool value) {
    ZW_SET_VALUE("Manager::SetValue(bool)", m->manager->SetValue(toValueId(v), value));
}

zw_status zw_value_set_byte(zw_manager *m, const zw_value_id *v, uint8_t value) {
    ZW_SET_VALUE("Manager::SetValue(uint8)", m->manager->SetValue(toValueId(v), static_cast<uint8>(value)));
}

zw_status zw_value_set_short(zw_manager *m, const zw_value_id *v, int16_t value) {
    ZW_SET_VALUE("Manager::SetValue(int16)", m->manager->SetValue(toValueId(v), static_cast<int16>(value)));
}

zw_status zw_value_set_int(zw_manager *m, const zw_value_id *v, int32_t value) {
    ZW_SET_VALUE("Manager::SetValue(int32)", m->manager->SetValue(toValueId(v), static_cast<int32>(value)));
}

zw_status zw_value_set_decimal(zw_manager *m, const zw_value_id *v, double value) {
    ZW_SET_VALUE("Manager::SetValue(float)", m->manager->SetValue(toValueId(v), static_cast<float>(value)));
}

zw_status zw_value_set_string(zw_manager *m, const zw_value_id *v, const char *value) {
    ZW_REQUIRE(value != nullptr, "string is NULL");
    ZW_SET_VALUE("Manager::SetValue(string)", m->manager->SetValue(toValueId(v), std::string(value)));
}

zw_status zw_value_set_list_label(zw_manager *m, const zw_value_id *v, const char *label) {
    ZW_REQUIRE(label != nullptr, "label is NULL");
    ZW_SET_VALUE("Manager::SetValueListSelection", m->manager->SetValueListSelection(toValueId(v), std::string(label)));
}

zw_status zw_value_set_list_value(zw_manager *m, const zw_value_id *v, int32_t value) {
    ZW_REQUIRE_MANAGER(m);
    return guarded("Manager::SetValueListSelection", [&] {
        ZW_REQUIRE(v != nullptr, "value id is NULL");
        ValueID id = toValueId(v);
        std::vector<std::string> items;
        std::vector<int32> values;
        if (!m->manager->GetValueListItems(id, &items) || !m->manager->GetValueListValues(id, &values))
            return failed("Manager::GetValueListItems/Values");
        for (size_t i = 0; i < values.size() && i < items.size(); ++i) {
            if (values[i] == value)
                return boolResult("Manager::SetValueListSelection", m->manager->SetValueListSelection(id, items[i]));
        }
        setError("Manager::SetValueListSelection: no list item has value " + std::to_string(value));
        return ZW_ERR_INVALID_ARGUMENT;
    });
}

zw_status zw_value_refresh(zw_manager *m, const zw_value_id *v) {
    ZW_SET_VALUE("Manager::RefreshValue", m->manager->RefreshValue(toValueId(v)));
}

zw_status zw_set_config_param(zw_manager *m, uint32_t home, uint8_t node, uint8_t param, int32_t value,
                              uint8_t size) {
    ZW_REQUIRE_MANAGER(m);
    return guarded("Manager::SetConfigParam", [&] {
        ZW_REQUIRE(size == 1 || size == 2 || size == 4, "size must be 1, 2 or 4");
        return boolResult("Manager::SetConfigParam", m->manager->SetConfigParam(home, node, param, value, size));
    });
}

zw_status zw_request_config_param(zw_manager *m, uint32_t home, uint8_t node, uint8_t param) {
    ZW_REQUIRE_MANAGER(m);
    return guarded("Manager::RequestConfigParam", [&] {
        m->manager->RequestConfigParam(home, node, param);
        return ZW_OK;
    });
}

// ---- Nodes ----

zw_status zw_node_get_text(zw_manager *m, uint32_t home, uint8_t node, zw_node_text which, char *buffer,
                           size_t size) {
    ZW_REQUIRE_MANAGER(m);
    return guarded("Manager::GetNode*", [&] {
        ZW_REQUIRE(buffer != nullptr && size > 0, "buffer is NULL");
        Manager *mg = m->manager;
        std::string text;
        switch (which) {
        case ZW_NODE_MANUFACTURER_NAME: text = mg->GetNodeManufacturerName(home, node); break;
        case ZW_NODE_PRODUCT_NAME: text = mg->GetNodeProductName(home, node); break;
        case ZW_NODE_MANUFACTURER_ID: text = mg->GetNodeManufacturerId(home, node); break;
        case ZW_NODE_PRODUCT_TYPE: text = mg->GetNodeProductType(home, node); break;
        case ZW_NODE_PRODUCT_ID: text = mg->GetNodeProductId(home, node); break;
        case ZW_NODE_TYPE: text = mg->GetNodeType(home, node); break;
        case ZW_NODE_QUERY_STAGE: text = mg->GetNodeQueryStage(home, node); break;
        case ZW_NODE_NAME: text = mg->GetNodeName(home, node); break;
        case ZW_NODE_LOCATION: text = mg->GetNodeLocation(home, node); break;
        default:
            setError("unknown zw_node_text");
            return ZW_ERR_INVALID_ARGUMENT;
        }
        copyText(text, buffer, size);
        return ZW_OK;
    });
}

zw_status zw_node_get_flags(zw_manager *m, uint32_t home, uint8_t node, zw_node_flags *out) {
    ZW_REQUIRE_MANAGER(m);
    return guarded("Manager::IsNode*", [&] {
        ZW_REQUIRE(out != nullptr, "out pointer is NULL");
        Manager *mg = m->manager;
        out->is_failed = mg->IsNodeFailed(home, node);
        out->is_listening = mg->IsNodeListeningDevice(home, node);
        out->is_awake = mg->IsNodeAwake(home, node);
        out->is_frequent_listening = mg->IsNodeFrequentListeningDevice(home, node);
        out->is_zwave_plus = mg->IsNodeZWavePlus(home, node);
        out->info_received = mg->IsNodeInfoReceived(home, node);
        return ZW_OK;
    });
}

// ---- Controller commands ----

zw_status zw_add_node(zw_manager *m, uint32_t home, bool secure) {
    ZW_REQUIRE_MANAGER(m);
    return guarded("Manager::AddNode", [&] { return boolResult("Manager::AddNode", m->manager->AddNode(home, secure)); });
}

zw_status zw_remove_node(zw_manager *m, uint32_t home) {
    ZW_REQUIRE_MANAGER(m);
    return guarded("Manager::RemoveNode", [&] { return boolResult("Manager::RemoveNode", m->manager->RemoveNode(home)); });
}

zw_status zw_cancel_controller_command(zw_manager *m, uint32_t home) {
    ZW_REQUIRE_MANAGER(m);
    return guarded("Manager::CancelControllerCommand", [&] {
        return boolResult("Manager::CancelControllerCommand", m->manager->CancelControllerCommand(home));
    });
}

zw_status zw_heal_network(zw_manager *m, uint32_t home, bool doRR) {
    ZW_REQUIRE_MANAGER(m);
    return guarded("Manager::HealNetwork", [&] {
        m->manager->HealNetwork(home, doRR);
        return ZW_OK;
    });
}

zw_status zw_heal_network_node(zw_manager *m, uint32_t home, uint8_t node, bool doRR) {
    ZW_REQUIRE_MANAGER(m);
    return guarded("Manager::HealNetworkNode", [&] {
        m->manager->HealNetworkNode(home, node, doRR);
        return ZW_OK;
    });
}

zw_status zw_remove_failed_node(zw_manager *m, uint32_t home, uint8_t node) {
    ZW_REQUIRE_MANAGER(m);
    return guarded("Manager::RemoveFailedNode", [&] {
        return boolResult("Manager::RemoveFailedNode", m->manager->RemoveFailedNode(home, node));
    });
}

zw_status zw_refresh_node_info(zw_manager *m, uint32_t home, uint8_t node) {
    ZW_REQUIRE_MANAGER(m);
    return guarded("Manager::RefreshNodeInfo", [&] {
        return boolResult("Manager::RefreshNodeInfo", m->manager->RefreshNodeInfo(home, node));
    });
}

zw_status zw_send_raw(zw_manager *m, uint32_t home, uint8_t node, const uint8_t *command, uint8_t length) {
    ZW_REQUIRE_MANAGER(m);
    if (command == nullptr || length == 0) return ZW_ERR_INVALID_ARGUMENT;
    return guarded("Manager::SendRawData", [&] {
        m->manager->SendRawData(home, node, "thuis-bridge raw", 0x00, false, command, length);
        return ZW_OK;
    });
}

} // extern "C"
