// Controller commands (inclusion, exclusion, cancel, failed-node removal) and network heal; their progress
// arrives as ZW_NOTE_CONTROLLER_COMMAND notifications.

#include "ShimInternal.h"

using namespace zwshim;

extern "C" {

zw_status zw_add_node(zw_manager *m, uint32_t home, bool secure) {
    ZW_REQUIRE_MANAGER(m);
    return guarded("Manager::AddNode", [&] { return boolResult("Manager::AddNode", m->manager->AddNode(home, secure)); });
}

zw_status zw_remove_node(zw_manager *m, uint32_t home) {
    ZW_REQUIRE_MANAGER(m);
    return guarded("Manager::RemoveNode", [&] { return boolResult("Manager::RemoveNode", m->manager->RemoveNode(home)); });
}

zw_status zw_cancel_controller_command(zw_manager *m, uint32_t home) {
    ZW_REQUIRE_MANAGER(m);
    return guarded("Manager::CancelControllerCommand", [&] {
        return boolResult("Manager::CancelControllerCommand", m->manager->CancelControllerCommand(home));
    });
}

zw_status zw_heal_network(zw_manager *m, uint32_t home, bool doRR) {
    ZW_REQUIRE_MANAGER(m);
    return guarded("Manager::HealNetwork", [&] {
        m->manager->HealNetwork(home, doRR);
        return ZW_OK;
    });
}

zw_status zw_heal_network_node(zw_manager *m, uint32_t home, uint8_t node, bool doRR) {
    ZW_REQUIRE_MANAGER(m);
    return guarded("Manager::HealNetworkNode", [&] {
        m->manager->HealNetworkNode(home, node, doRR);
        return ZW_OK;
    });
}

zw_status zw_remove_failed_node(zw_manager *m, uint32_t home, uint8_t node) {
    ZW_REQUIRE_MANAGER(m);
    return guarded("Manager::RemoveFailedNode", [&] {
        return boolResult("Manager::RemoveFailedNode", m->manager->RemoveFailedNode(home, node));
    });
}

} // extern "C"
