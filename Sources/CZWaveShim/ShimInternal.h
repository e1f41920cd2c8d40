// What the shim's .cpp files share; not part of the C API (include/zwave_shim.h). Every entry point catches
// every exception (OZW's OZW_ERROR macros throw OZWException) through `guarded` and returns a zw_status; the
// message is kept per thread for zw_last_error().

#ifndef ZWAVE_SHIM_INTERNAL_H
#define ZWAVE_SHIM_INTERNAL_H

#include "zwave_shim.h"

#include <condition_variable>
#include <exception>
#include <mutex>
#include <set>
#include <string>

#include "Defs.h"
#include "Manager.h"
#include "Notification.h"
#include "OZWException.h"
#include "platform/Log.h"
#include "value_classes/ValueID.h"

// The handle zw_manager_create returns (Manager.cpp): the Manager, and the client's notification callback with
// its context (the watcher's context is the handle).
struct zw_manager {
    OpenZWave::Manager *manager;
    zw_notification_fn notificationFn;
    void *context;
    // The ports whose driver was added and has not yet reported DriverReady or DriverFailed (Manager.cpp,
    // "Removing a starting driver").
    std::mutex startingMutex{};
    std::condition_variable startingSettled{};
    std::set<std::string> startingPorts{};
};

namespace zwshim {

// ---- Status and errors (Status.cpp) ----

void clearError();
void setError(std::string message);
zw_status statusFor(OpenZWave::OZWException::ExceptionType type);
// Sets the error "<call> returned false" and returns ZW_ERR_FAILED.
zw_status failed(const char *call);
zw_status boolResult(const char *call, bool ok);
// Copies `text` into `buffer` (truncated, always terminated).
void copyText(const std::string &text, char *buffer, size_t size);

// Runs `body` (returning zw_status), turning every exception into a status and a message naming `call`.
template <typename Body> zw_status guarded(const char *call, Body &&body) {
    clearError();
    try {
        return body();
    } catch (OpenZWave::OZWException &e) {
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

// ---- Values (Values.cpp) ----

void fillValueId(OpenZWave::ValueID const &v, zw_value_id *out);
OpenZWave::ValueID toValueId(const zw_value_id *v);
// Reads everything about a value into `s`; throws what OZW throws.
void readSnapshot(OpenZWave::Manager *m, OpenZWave::ValueID const &v, zw_value_snapshot *s);

// ---- Notifications (Notifications.cpp) ----

// The watcher: copies the notification into the C struct and calls the client. Runs on OZW's thread.
void onNotification(OpenZWave::Notification const *n, void *context);

// ---- Drivers (Manager.cpp) ----

// Called by the watcher before the client sees the notification: a DriverReady or DriverFailed ends the start of
// its driver's port.
void noteDriverSettled(zw_manager *handle, OpenZWave::Notification const *n);

// ---- Log (ForwardingLog.cpp) ----

OpenZWave::LogLevel clampLevel(int level, OpenZWave::LogLevel fallback);
// OpenZWave's log output as C callbacks (owned by OZW's Log once installed with Log::SetLoggingClass). Every
// occurrence of `redacted` (when not empty) in a line is replaced by "<network key>" before the line leaves.
OpenZWave::i_LogImpl *makeForwardingLog(zw_log_fn fn, void *context, OpenZWave::LogLevel save,
                                        OpenZWave::LogLevel queue, OpenZWave::LogLevel dump,
                                        std::string redacted);

// ---- Work-arounds (Workarounds.cpp) ----

// The logging part of OpenZWave's command line: its own logger writes nothing, to a file removed right after
// (removeBootstrapLog), never to the console.
std::string bootstrapLogOptions();
void removeBootstrapLog(const std::string &userPath);

// In its scope, the messages OpenZWave sends for the calling thread's request are a user's command: they go before
// OpenZWave's background queries (Driver::SendMsg, in LibraryPatches.cpp).
struct UserCommand {
    UserCommand();
    ~UserCommand();
    UserCommand(const UserCommand &) = delete;
    UserCommand &operator=(const UserCommand &) = delete;
};

} // namespace zwshim

// Manager handle check shared by all calls.
#define ZW_REQUIRE_MANAGER(m)                                                                                \
    do {                                                                                                     \
        if ((m) == nullptr || (m)->manager == nullptr) {                                                     \
            zwshim::setError("no manager");                                                                  \
            return ZW_ERR_NO_MANAGER;                                                                        \
        }                                                                                                    \
    } while (0)

#define ZW_REQUIRE(cond, what)                                                                               \
    do {                                                                                                     \
        if (!(cond)) {                                                                                       \
            zwshim::setError(what);                                                                          \
            return ZW_ERR_INVALID_ARGUMENT;                                                                  \
        }                                                                                                    \
    } while (0)

#endif // ZWAVE_SHIM_INTERNAL_H
