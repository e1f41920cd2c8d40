// OpenZWave notifications → zw_notification: the watcher copies each one out on OpenZWave's thread.

#include "ShimInternal.h"

#include <cstring>

using OpenZWave::Notification;
using OpenZWave::ValueID;

namespace zwshim {

void onNotification(Notification const *n, void *context) {
    auto *handle = static_cast<zw_manager *>(context);
    if (handle == nullptr || n == nullptr) return;
    noteDriverSettled(handle, n);
    if (handle->notificationFn == nullptr) return;
    zw_notification out;
    std::memset(&out, 0, sizeof(out));
    try {
        Notification::NotificationType type = n->GetType();
        out.type = static_cast<int>(type);
        out.home_id = n->GetHomeId();
        out.node_id = n->GetNodeId();
        out.byte = n->GetByte();
        ValueID const &v = n->GetValueID();
        fillValueId(v, &out.value_id);
        switch (type) {
        case Notification::Type_NodeEvent:
            out.event = n->GetEvent();
            break;
        case Notification::Type_ControllerCommand:
            out.event = n->GetEvent();
            out.notification_code = n->GetNotification();
            out.command = n->GetCommand();
            break;
        case Notification::Type_Notification:
            out.notification_code = n->GetNotification();
            break;
        case Notification::Type_SceneEvent:
            out.scene_id = n->GetByte();
            break;
        case Notification::Type_Group:
            out.group_index = n->GetByte();
            break;
        case Notification::Type_UserAlerts:
            out.user_alert = static_cast<int>(n->GetUserAlertType());
            break;
        case Notification::Type_ValueAdded:
        case Notification::Type_ValueChanged:
        case Notification::Type_ValueRefreshed:
            try {
                readSnapshot(handle->manager, v, &out.value);
            } catch (...) {
                out.value.valid = false;
            }
            break;
        default:
            break;
        }
    } catch (...) {
        // A notification we cannot read is still delivered with what we have.
    }
    handle->notificationFn(&out, handle->context);
}

} // namespace zwshim
