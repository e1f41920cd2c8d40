internal import CCEC

/// The C resources of one driver: the libcec connection handle and the callback table it points at.
/// Its deinit closes and destroys a still-open connection before freeing the table.
final class LibCECResources: @unchecked Sendable {
    // @unchecked Sendable: only the owning `CECDriver` actor touches `connection` (on its queue); deinit runs
    // once nothing else references the object.

    var connection: libcec_connection_t?
    /// Allocated here, freed in deinit after the connection (the only user) is destroyed.
    let callbacks: UnsafeMutablePointer<ICECCallbacks>
    /// Held so that the sink (passed unretained as libcec's callbackParam) outlives the connection.
    let sink: CECCallbackSink

    init(sink: CECCallbackSink) {
        self.sink = sink
        callbacks = UnsafeMutablePointer<ICECCallbacks>.allocate(capacity: 1)
        callbacks.initialize(to: LibCECCallbacks.make())
    }

    deinit {
        if let connection {
            libcec_close(connection)
            libcec_destroy(connection)
        }
        callbacks.deinitialize(count: 1)
        callbacks.deallocate()
    }
}
