/// What a node does with one received command: direct replies (sent back in the same transaction, after
/// the SEND_DATA callback) and unsolicited reports (sent on the lifeline afterwards).
struct NodeReaction {
    var replies: [NodeReport] = []
    var unsolicited: [NodeReport] = []
}
