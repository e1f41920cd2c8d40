// OpenZWave's log output as C callbacks (zw_log_fn), replacing its file and console logger.

#include "ShimInternal.h"

#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <deque>
#include <mutex>
#include <string>
#include <utility>

using OpenZWave::LogLevel;

namespace {

// OpenZWave's log output as C callbacks: filters by the save level, keeps a bounded queue of less
// severe lines that is flushed when a line at the dump trigger arrives (OZW's own semantics). Hides the
// network key: OpenZWave logs the messages it queues and sends with their bytes (Msg::GetAsString, at Detail
// and Info), the S0 NetworkKeySet to a node being included among them, the key in plain text.
class ForwardingLog final : public OpenZWave::i_LogImpl {
  public:
    ForwardingLog(zw_log_fn fn, void *context, LogLevel save, LogLevel queue, LogLevel dump, std::string redacted)
        : m_fn(fn), m_context(context), m_save(save), m_queue(queue), m_dump(dump), m_redacted(std::move(redacted)) {}

    void Write(LogLevel level, uint8 const nodeId, char const *format, va_list args) override {
        if (m_fn == nullptr || format == nullptr) return;
        if (level == OpenZWave::LogLevel_Internal) return; // OZW's own queue replays; we keep our own
        std::lock_guard<std::mutex> guard(m_mutex);
        bool save = level <= m_save;
        bool queue = !save && level <= m_queue;
        if (!save && !queue && !(level <= m_dump)) return;
        char buffer[1024];
        va_list copy;
        va_copy(copy, args);
        int written = vsnprintf(buffer, sizeof(buffer), format, copy);
        va_end(copy);
        std::string line(buffer);
        while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
        redact(line, written >= static_cast<int>(sizeof(buffer)));
        if (save) {
            m_fn(static_cast<int>(level), nodeId, line.c_str(), m_context);
        } else if (queue) {
            if (m_queued.size() >= kQueueCapacity) m_queued.pop_front();
            m_queued.push_back(Queued{level, nodeId, std::move(line)});
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
    // Replaces the key's bytes as OpenZWave prints them; in a line cut at the buffer's end, also the key's first
    // bytes where the cut fell inside it.
    void redact(std::string &line, bool truncated) const {
        static const std::string kMark = "<network key>";
        if (m_redacted.empty()) return;
        for (size_t at = line.find(m_redacted); at != std::string::npos; at = line.find(m_redacted, at)) {
            line.replace(at, m_redacted.size(), kMark);
            at += kMark.size();
        }
        if (!truncated) return;
        for (size_t length = m_redacted.size() - 1; length >= 4; --length) {
            if (line.size() >= length && line.compare(line.size() - length, length, m_redacted, 0, length) == 0) {
                line.replace(line.size() - length, length, kMark);
                return;
            }
        }
    }

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
    const std::string m_redacted;
    std::mutex m_mutex;
    std::deque<Queued> m_queued;
};

} // namespace

namespace zwshim {

LogLevel clampLevel(int level, LogLevel fallback) {
    if (level < OpenZWave::LogLevel_None || level > OpenZWave::LogLevel_StreamDetail) return fallback;
    return static_cast<LogLevel>(level);
}

OpenZWave::i_LogImpl *makeForwardingLog(zw_log_fn fn, void *context, LogLevel save, LogLevel queue, LogLevel dump,
                                        std::string redacted) {
    return new ForwardingLog(fn, context, save, queue, dump, std::move(redacted));
}

} // namespace zwshim
