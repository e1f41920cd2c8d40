internal import CZWaveShim

extension ZWaveError {
    /// The one place a shim status becomes a typed error (with the shim's per-thread message).
    static func check(_ status: zw_status, call: String, node: NodeID? = nil) throws(ZWaveError) {
        guard status != ZW_OK else { return }
        let message = String(cString: zw_last_error())
        throw ZWaveError(Code(status), call: call, node: node, message: message)
    }
}

extension ZWaveError.Code {
    init(_ status: zw_status) {
        switch status {
        case ZW_ERR_ALREADY_EXISTS: self = .managerExists
        case ZW_ERR_NO_MANAGER: self = .noManager
        case ZW_ERR_INVALID_ARGUMENT: self = .invalidArgument
        case ZW_ERR_CONFIG_PATH: self = .configPath
        case ZW_ERR_USER_PATH: self = .userPath
        case ZW_ERR_OPTIONS: self = .options
        case ZW_ERR_FAILED: self = .failed
        case ZW_ERR_INVALID_HOMEID: self = .invalidHomeID
        case ZW_ERR_INVALID_VALUEID: self = .invalidValueID
        case ZW_ERR_CANNOT_CONVERT: self = .cannotConvert
        case ZW_ERR_INVALID_NODEID: self = .invalidNodeID
        case ZW_ERR_SECURITY: self = .security
        case ZW_ERR_EXCEPTION, ZW_ERR_UNKNOWN_EXCEPTION: self = .exception
        case ZW_ERR_TYPE_MISMATCH: self = .typeMismatch
        default: self = .unknownStatus(Int32(bitPattern: status.rawValue))
        }
    }
}
