// The bridge's work-arounds of OpenZWave 1.6 that use its public API only, whatever the version (the patches, which
// replace library functions and are gated on the version they were written for, are in LibraryPatches.cpp):
//
// - The bootstrap log: OpenZWave's own logger opens a log file while the Manager is constructed, before the shim's
//   logger replaces it; it writes nothing to it and the file is removed right after (bootstrapLogOptions,
//   removeBootstrapLog, used by zw_manager_create in Manager.cpp).
// - A starting driver is removed only once its start has ended (waitUntilStarted, Manager.cpp): Manager::RemoveDriver
//   and the driver's own thread unhook the same starting driver without a lock.
// - zw_write_config (LibraryPatches.cpp, beside the cache-write deferral it passes) gives the pages the write freed
//   back to the kernel (malloc_trim).

#include "ShimInternal.h"

#include <string>

#include <unistd.h>

// ---- The bootstrap log ----

namespace {
// The log file OZW's own logger opens while the Manager is constructed (before ours replaces it). It is
// created empty (both levels None at that moment) inside the user path and deleted right after.
const char *const kBootstrapLogName = "ozw_bootstrap_log.txt";
} // namespace

namespace zwshim {

std::string bootstrapLogOptions() {
    std::string options = "--Logging true --ConsoleOutput false --AppendLogFile false";
    options += std::string(" --LogFileName ") + kBootstrapLogName;
    options += " --SaveLogLevel 1 --QueueLogLevel 1 --DumpTriggerLevel 1";
    return options;
}

void removeBootstrapLog(const std::string &userPath) {
    std::string bootstrapLog = userPath + kBootstrapLogName;
    unlink(bootstrapLog.c_str());
}

} // namespace zwshim
