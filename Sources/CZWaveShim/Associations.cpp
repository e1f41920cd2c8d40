// Associations: a node's groups (count, label, maximum), their members (with endpoints), adding and removing one.

#include "ShimInternal.h"

#include "Group.h"

using OpenZWave::InstanceAssociation;
using OpenZWave::Manager;
using namespace zwshim;

extern "C" {

zw_status zw_get_num_groups(zw_manager *m, uint32_t home, uint8_t node, uint8_t *out_count) {
    ZW_REQUIRE_MANAGER(m);
    return guarded("Manager::GetNumGroups", [&] {
        ZW_REQUIRE(out_count != nullptr, "out pointer is NULL");
        *out_count = m->manager->GetNumGroups(home, node);
        return ZW_OK;
    });
}

zw_status zw_get_group_label(zw_manager *m, uint32_t home, uint8_t node, uint8_t group, char *buffer, size_t size) {
    ZW_REQUIRE_MANAGER(m);
    return guarded("Manager::GetGroupLabel", [&] {
        ZW_REQUIRE(buffer != nullptr && size > 0, "buffer is NULL");
        copyText(m->manager->GetGroupLabel(home, node, group), buffer, size);
        return ZW_OK;
    });
}

zw_status zw_get_max_associations(zw_manager *m, uint32_t home, uint8_t node, uint8_t group, uint8_t *out_max) {
    ZW_REQUIRE_MANAGER(m);
    return guarded("Manager::GetMaxAssociations", [&] {
        ZW_REQUIRE(out_max != nullptr, "out pointer is NULL");
        *out_max = m->manager->GetMaxAssociations(home, node, group);
        return ZW_OK;
    });
}

zw_status zw_get_associations(zw_manager *m, uint32_t home, uint8_t node, uint8_t group, zw_association *out,
                              size_t capacity, size_t *out_count) {
    ZW_REQUIRE_MANAGER(m);
    return guarded("Manager::GetAssociations", [&] {
        ZW_REQUIRE(out_count != nullptr, "out pointer is NULL");
        ZW_REQUIRE(out != nullptr || capacity == 0, "members buffer is NULL");
        InstanceAssociation *members = nullptr;
        uint32_t count = m->manager->GetAssociations(home, node, group, &members);
        for (uint32_t i = 0; i < count && i < capacity; ++i) {
            out[i].node_id = members[i].m_nodeId;
            out[i].endpoint = members[i].m_instance;
        }
        delete[] members;  // allocated by OpenZWave with new[] for the caller
        *out_count = count;
        return ZW_OK;
    });
}

zw_status zw_add_association(zw_manager *m, uint32_t home, uint8_t node, uint8_t group, uint8_t target,
                             uint8_t endpoint) {
    ZW_REQUIRE_MANAGER(m);
    return guarded("Manager::AddAssociation", [&] {
        m->manager->AddAssociation(home, node, group, target, endpoint);
        return ZW_OK;
    });
}

zw_status zw_remove_association(zw_manager *m, uint32_t home, uint8_t node, uint8_t group, uint8_t target,
                                uint8_t endpoint) {
    ZW_REQUIRE_MANAGER(m);
    return guarded("Manager::RemoveAssociation", [&] {
        m->manager->RemoveAssociation(home, node, group, target, endpoint);
        return ZW_OK;
    });
}

zw_status zw_get_node_class_version(zw_manager *m, uint32_t home, uint8_t node, uint8_t command_class,
                                    uint8_t *out_version) {
    ZW_REQUIRE_MANAGER(m);
    return guarded("Manager::GetNodeClassInformation", [&] {
        ZW_REQUIRE(out_version != nullptr, "out pointer is NULL");
        uint8_t version = 0;
        *out_version = m->manager->GetNodeClassInformation(home, node, command_class, nullptr, &version) ? version : 0;
        return ZW_OK;
    });
}

}  // extern "C"
