internal import CMosquitto
internal import FoundationEssentials
internal import Glibc

extension MQTTError {
    /// The one place a libmosquitto return code becomes a typed error: nil for `MOSQ_ERR_SUCCESS`.
    /// `savedErrno` is read right after the call (for `MOSQ_ERR_ERRNO`); `detail` is appended (the
    /// library's last error log line, e.g. OpenSSL's reason).
    static func fromReturnCode(
        _ code: Int32, function: String, savedErrno: Int32 = 0, detail: String? = nil
    ) -> MQTTError? {
        guard code != Mosquitto.success else { return nil }
        var message: String
        if code == Int32(MOSQ_ERR_ERRNO.rawValue), savedErrno != 0 {
            message = String(cString: strerror(savedErrno))
        } else {
            message = String(cString: mosquitto_strerror(code))
        }
        if let detail, !detail.isEmpty { message += " (\(detail))" }
        return .library(function: function, code: code, message: message)
    }

    /// Throws the typed error for a non-success return code of `function`.
    static func check(_ code: Int32, _ function: String) throws(MQTTError) {
        let savedErrno = errno
        if let error = fromReturnCode(code, function: function, savedErrno: savedErrno) { throw error }
    }

    /// The error for a CONNACK refusal code.
    static func refused(_ code: Int32) -> MQTTError {
        // MQTT 5 reason codes (the client speaks MQTT 5).
        .connectionRefused(code: code, message: String(cString: mosquitto_reason_string(code)))
    }
}
