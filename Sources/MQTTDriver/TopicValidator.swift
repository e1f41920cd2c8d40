internal import CMosquitto

/// MQTT topic rules, checked before anything reaches libmosquitto.
enum TopicValidator {
    /// A topic to publish to: non-empty, no wildcards, no NUL, at most 65535 UTF-8 bytes.
    static func validatePublish(_ topic: String) throws(MQTTError) {
        try validateCommon(topic)
        if topic.contains("+") || topic.contains("#") {
            throw .invalidTopic(topic: topic, reason: "wildcards + and # are not allowed in a publish topic")
        }
    }

    /// A subscription filter: the common rules plus `mosquitto_sub_topic_check` (wildcard placement).
    static func validateFilter(_ filter: String) throws(MQTTError) {
        try validateCommon(filter)
        if mosquitto_sub_topic_check(filter) != Mosquitto.success {
            throw .invalidTopic(topic: filter, reason: "+ and # must each occupy a whole level, # only the last")
        }
    }

    private static func validateCommon(_ topic: String) throws(MQTTError) {
        if topic.isEmpty { throw .invalidTopic(topic: topic, reason: "empty") }
        if topic.utf8.count > 65535 {
            throw .invalidTopic(topic: String(topic.prefix(64)) + "…", reason: "longer than 65535 bytes")
        }
        if topic.utf8.contains(0) { throw .invalidTopic(topic: topic, reason: "contains a NUL character") }
    }
}
