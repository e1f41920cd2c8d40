// OpenZWave's log output as C callbacks (zw_log_fn), replacing its file and console logger.

#include "ShimInternal.h"

#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <deque>
#include <mutex>

using OpenZWave::LogLevel;

namespace {

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

namespace zwshim {

LogLevel clampLevel(int level, LogLevel fallback) {
    if (level < OpenZWave::LogLevel_None || level > OpenZWave::LogLevel_StreamDetail) return fallback;
    return static_cast<LogLevel>(level);
}

OpenZWave::i_LogImpl *makeForwardingLog(zw_log_fn fn, void *context, LogLevel save, LogLevel queue, LogLevel dump) {
    return new ForwardingLog(fn, context, save, queue, dump);
}

} // namespace zwshim
