/// The subscriptions `MQTTClient` makes on every connect (one per filter, the latest options), and the SUBSCRIBEs
/// of the current connection the broker has not acknowledged yet.
struct SubscriptionList {
    struct Subscription {
        var filter: String
        var qos: MQTTQoS
        var retainAsPublished: Bool
        var noLocal: Bool
    }

    private(set) var all: [Subscription] = []
    /// The message ids of the SUBSCRIBEs sent on this connection and not acknowledged yet.
    var pendingMids: Set<Int32> = []

    /// Adds `subscription`, or replaces the options of its filter.
    mutating func set(_ subscription: Subscription) {
        if let index = all.firstIndex(where: { $0.filter == subscription.filter }) {
            all[index] = subscription
        } else {
            all.append(subscription)
        }
    }

    /// The subscription of `filter` with `qos` (its other options kept; none for a new filter).
    mutating func set(_ filter: String, qos: MQTTQoS) -> Subscription {
        if let index = all.firstIndex(where: { $0.filter == filter }) {
            all[index].qos = qos
            return all[index]
        }
        let subscription = Subscription(filter: filter, qos: qos, retainAsPublished: false, noLocal: false)
        all.append(subscription)
        return subscription
    }
}
