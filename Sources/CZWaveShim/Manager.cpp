// The Manager's lifecycle: Options, the process-wide Manager and its watcher, drivers, and what the shim reports
// about them.

#include "ShimInternal.h"

#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>

#include <sys/stat.h>
#include <unistd.h>

#include "Options.h"

using OpenZWave::LogLevel;
using OpenZWave::Manager;
using OpenZWave::Options;
using namespace zwshim;

namespace {

// Serialises zw_manager_create and zw_manager_destroy; g_instance is the live handle (OpenZWave allows one).
std::mutex g_lifecycle;
zw_manager *g_instance = nullptr;

bool isDirectory(const char *path) {
    struct stat st;
    return path != nullptr && path[0] != '\0' && stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

// OpenZWave's command-line parser splits at spaces and treats a '-' as the start of an option: a key is passed
// only as hex digits, 'x' and commas (the format Driver::GetNetworkKey parses: 16 comma-separated bytes).
bool isNetworkKeyOption(const std::string &key) {
    if (key.empty()) return false;
    for (char c : key) {
        if (!std::isxdigit(static_cast<unsigned char>(c)) && c != 'x' && c != 'X' && c != ',') return false;
    }
    return true;
}

// The key's bytes as OpenZWave's Msg::GetAsString prints them ("0x0f, 0x1e, ..."): what the log hides.
std::string networkKeyAsLogged(const std::string &key) {
    std::string printed;
    size_t start = 0;
    while (start <= key.size()) {
        size_t comma = key.find(',', start);
        std::string item = key.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        char byte[8];
        snprintf(byte, sizeof(byte), "0x%.2lx", std::strtoul(item.c_str(), nullptr, 16) & 0xFFul);
        if (!printed.empty()) printed += ", ";
        printed += byte;
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    return printed;
}

// Removing a starting driver. OpenZWave 1.6's Manager::RemoveDriver (and Manager::Destroy) deletes a driver that
// is still starting and then erases it from the list of starting drivers; the driver's own thread, answered by the
// stick meanwhile, erases it from the same list without a lock (Manager::SetDriverReady), so one node is unhooked
// twice: a use-after-free that crashes the bridge when it stops, or restarts the driver, during a start. So a driver
// is removed only once its start has ended (DriverReady or DriverFailed), waiting at most this long: a silent stick
// never ends it, and with nothing arriving from the stick there is no answer to race with.
constexpr std::chrono::seconds startingWait{3};

// Waits (up to startingWait) until `port` (every port when empty) has ended its start; then forgets it.
void waitUntilStarted(zw_manager *m, const std::string &port) {
    std::unique_lock<std::mutex> lock(m->startingMutex);
    auto settled = [&] { return port.empty() ? m->startingPorts.empty() : m->startingPorts.count(port) == 0; };
    if (!settled()) {
        OpenZWave::Log::Write(OpenZWave::LogLevel_Info,
                              "shim,    %s is still starting: waiting up to %lld s for it to finish before removing it",
                              port.empty() ? "a driver" : port.c_str(), static_cast<long long>(startingWait.count()));
        if (!m->startingSettled.wait_for(lock, startingWait, settled)) {
            OpenZWave::Log::Write(OpenZWave::LogLevel_Warning,
                                  "shim,    %s was still starting after %lld s (a silent stick?): removing it",
                                  port.empty() ? "a driver" : port.c_str(),
                                  static_cast<long long>(startingWait.count()));
        }
    }
    if (port.empty()) {
        m->startingPorts.clear();
    } else {
        m->startingPorts.erase(port);
    }
}

std::string withSlash(const char *path) {
    std::string p(path);
    if (!p.empty() && p.back() != '/') p += '/';
    return p;
}

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
    o->network_key = nullptr;
}

bool zw_manager_exists(void) {
    try {
        return Manager::Get() != nullptr;
    } catch (...) {
        return false;
    }
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
        std::string commandLine = bootstrapLogOptions();
        commandLine += std::string(" --SaveConfiguration ") + (options->save_configuration ? "true" : "false");
        commandLine += " --PollInterval " + std::to_string(options->poll_interval_ms > 0 ? options->poll_interval_ms : 30000);
        commandLine += " --RetryTimeout " + std::to_string(options->retry_timeout_ms > 0 ? options->retry_timeout_ms : 10000);
        commandLine += " --DriverMaxAttempts " + std::to_string(options->driver_max_attempts > 0 ? options->driver_max_attempts : 0);
        commandLine += std::string(" --Associate ") + (options->associate ? "true" : "false");
        commandLine += std::string(" --AutoUpdateConfigFile ") + (options->auto_update_config ? "true" : "false");
        std::string redacted;
        if (options->network_key != nullptr && options->network_key[0] != '\0') {
            // OpenZWave logs its options when they are locked, but no Log exists yet then (Manager::Create makes
            // it); the messages that carry the key are hidden by the forwarding log.
            std::string key(options->network_key);
            ZW_REQUIRE(isNetworkKeyOption(key), "network key is not 16 comma-separated 0x.. bytes");
            commandLine += " --NetworkKey " + key;
            redacted = networkKeyAsLogged(key);
        }

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
        OpenZWave::Log::SetLoggingClass(makeForwardingLog(logFn, context, save, queue, dump, redacted), false);
        removeBootstrapLog(userPath);
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
        waitUntilStarted(m, "");
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
        {
            // Before AddDriver: the driver's thread may report DriverReady before AddDriver returns.
            std::lock_guard<std::mutex> lock(m->startingMutex);
            m->startingPorts.insert(port);
        }
        bool added = m->manager->AddDriver(port);
        if (!added) {
            std::lock_guard<std::mutex> lock(m->startingMutex);
            m->startingPorts.erase(port);
        }
        return boolResult("Manager::AddDriver", added);
    });
}

zw_status zw_remove_driver(zw_manager *m, const char *port) {
    ZW_REQUIRE_MANAGER(m);
    return guarded("Manager::RemoveDriver", [&] {
        ZW_REQUIRE(port != nullptr && port[0] != '\0', "port path is empty");
        waitUntilStarted(m, port);
        return boolResult("Manager::RemoveDriver", m->manager->RemoveDriver(port));
    });
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

} // extern "C"

namespace zwshim {

void noteDriverSettled(zw_manager *handle, OpenZWave::Notification const *n) {
    using OpenZWave::Notification;
    Notification::NotificationType type = n->GetType();
    if (type != Notification::Type_DriverReady && type != Notification::Type_DriverFailed) return;
    std::string port;
    try {
        port = type == Notification::Type_DriverFailed ? n->GetComPort()
               : handle->manager != nullptr        ? handle->manager->GetControllerPath(n->GetHomeId())
                                                   : std::string();
    } catch (...) {
        port.clear();
    }
    {
        std::lock_guard<std::mutex> lock(handle->startingMutex);
        // A notification that does not name its port (OpenZWave's DriverFailed for a stick without a home id) ends
        // every start: the bridge runs one driver.
        if (port.empty()) {
            handle->startingPorts.clear();
        } else {
            handle->startingPorts.erase(port);
        }
    }
    handle->startingSettled.notify_all();
}

} // namespace zwshim
