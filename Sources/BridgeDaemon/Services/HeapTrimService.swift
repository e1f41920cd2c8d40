import CMalloc
public import ServiceLifecycle

/// Keeps the daemon's heap small, with glibc's own controls:
/// - `limitArenas()` (at start, before any thread) caps malloc at 2 arenas: libopenzwave, libcec,
///   libmosquitto and the Swift runtime each allocate from their own threads, and one arena per thread
///   would keep memory each of them freed.
/// - the service returns freed heap pages to the system (`malloc_trim`) once the start-up work (reading
///   OpenZWave's device database, interviews) is over, and then every `interval`.
public struct HeapTrimService: Service {
    var first: Duration = .seconds(10)
    var interval: Duration = .seconds(60)

    public static func limitArenas() {
        _ = mallopt(M_ARENA_MAX, 2)
    }

    public func run() async throws {
        let (first, interval) = (self.first, self.interval)
        // Sleeping here must not hold up a graceful shutdown: it is cancelled when one begins.
        await cancelWhenGracefulShutdown {
            var wait = first
            while (try? await Task.sleep(for: wait)) != nil {
                _ = malloc_trim(0)
                wait = interval
            }
        }
    }
}
