// Values: ValueID ↔ zw_value_id, reading a value (zw_value_snapshot), setting and refreshing it, and the
// configuration parameters.

#include "ShimInternal.h"

#include <cstdlib>
#include <cstring>
#include <vector>

using OpenZWave::Manager;
using OpenZWave::ValueID;
using namespace zwshim;

namespace zwshim {

void fillValueId(ValueID const &v, zw_value_id *out) {
    out->home_id = v.GetHomeId();
    out->id = v.GetId();
    out->node_id = v.GetNodeId();
    out->genre = static_cast<uint8_t>(v.GetGenre());
    out->command_class = v.GetCommandClassId();
    out->instance = v.GetInstance();
    out->index = v.GetIndex();
    out->type = static_cast<uint8_t>(v.GetType());
}

ValueID toValueId(const zw_value_id *v) { return ValueID(v->home_id, static_cast<uint64>(v->id)); }

// Reads everything about a value into `s`; throws what OZW throws.
void readSnapshot(Manager *m, ValueID const &v, zw_value_snapshot *s) {
    std::memset(s, 0, sizeof(*s));
    std::string text;
    if (m->GetValueAsString(v, &text)) copyText(text, s->string_value, sizeof(s->string_value));
    switch (v.GetType()) {
    case ValueID::ValueType_Bool: {
        bool b = false;
        s->valid = m->GetValueAsBool(v, &b);
        s->bool_value = b;
        s->int_value = b ? 1 : 0;
        s->double_value = b ? 1 : 0;
        break;
    }
    case ValueID::ValueType_Byte: {
        uint8 b = 0;
        s->valid = m->GetValueAsByte(v, &b);
        s->int_value = b;
        s->double_value = b;
        break;
    }
    case ValueID::ValueType_Short: {
        int16 i = 0;
        s->valid = m->GetValueAsShort(v, &i);
        s->int_value = i;
        s->double_value = i;
        break;
    }
    case ValueID::ValueType_Int: {
        int32 i = 0;
        s->valid = m->GetValueAsInt(v, &i);
        s->int_value = i;
        s->double_value = i;
        break;
    }
    case ValueID::ValueType_Decimal: {
        uint8 precision = 0;
        m->GetValueFloatPrecision(v, &precision);
        s->precision = precision;
        char *end = nullptr;
        double d = std::strtod(text.c_str(), &end);
        s->valid = !text.empty() && end != text.c_str();
        s->double_value = d;
        s->int_value = static_cast<int32_t>(d);
        break;
    }
    case ValueID::ValueType_List: {
        int32 selected = 0;
        s->valid = m->GetValueListSelection(v, &selected);
        s->int_value = selected;
        s->double_value = selected;
        std::string label;
        if (m->GetValueListSelection(v, &label)) copyText(label, s->string_value, sizeof(s->string_value));
        break;
    }
    case ValueID::ValueType_String:
    case ValueID::ValueType_Raw:
    case ValueID::ValueType_Schedule:
        s->valid = !text.empty() || v.GetType() == ValueID::ValueType_String;
        break;
    case ValueID::ValueType_Button:
    case ValueID::ValueType_BitSet:
        s->valid = !text.empty();
        break;
    }
    copyText(m->GetValueLabel(v), s->label, sizeof(s->label));
    copyText(m->GetValueUnits(v), s->units, sizeof(s->units));
    s->read_only = m->IsValueReadOnly(v);
}

} // namespace zwshim

extern "C" {

zw_status zw_value_read(zw_manager *m, const zw_value_id *v, zw_value_snapshot *out) {
    ZW_REQUIRE_MANAGER(m);
    return guarded("zw_value_read", [&] {
        ZW_REQUIRE(v != nullptr && out != nullptr, "NULL argument");
        readSnapshot(m->manager, toValueId(v), out);
        return out->valid ? ZW_OK : failed("Manager::GetValueAs*");
    });
}

// A value call; a Set is a user's command (UserCommand: its messages go before OpenZWave's background queries).
#define ZW_VALUE_CALL(call, expr)                                                                            \
    ZW_REQUIRE_MANAGER(m);                                                                                   \
    return guarded(call, [&] {                                                                               \
        ZW_REQUIRE(v != nullptr, "value id is NULL");                                                        \
        return boolResult(call, (expr));                                                                     \
    })
#define ZW_SET_VALUE(call, expr) ZW_VALUE_CALL(call, (UserCommand(), (expr)))

zw_status zw_value_set_bool(zw_manager *m, const zw_value_id *v, bool value) {
    ZW_SET_VALUE("Manager::SetValue(bool)", m->manager->SetValue(toValueId(v), value));
}

zw_status zw_value_set_byte(zw_manager *m, const zw_value_id *v, uint8_t value) {
    ZW_SET_VALUE("Manager::SetValue(uint8)", m->manager->SetValue(toValueId(v), static_cast<uint8>(value)));
}

zw_status zw_value_set_short(zw_manager *m, const zw_value_id *v, int16_t value) {
    ZW_SET_VALUE("Manager::SetValue(int16)", m->manager->SetValue(toValueId(v), static_cast<int16>(value)));
}

zw_status zw_value_set_int(zw_manager *m, const zw_value_id *v, int32_t value) {
    ZW_SET_VALUE("Manager::SetValue(int32)", m->manager->SetValue(toValueId(v), static_cast<int32>(value)));
}

zw_status zw_value_set_decimal(zw_manager *m, const zw_value_id *v, double value) {
    ZW_SET_VALUE("Manager::SetValue(float)", m->manager->SetValue(toValueId(v), static_cast<float>(value)));
}

zw_status zw_value_set_string(zw_manager *m, const zw_value_id *v, const char *value) {
    ZW_REQUIRE(value != nullptr, "string is NULL");
    ZW_SET_VALUE("Manager::SetValue(string)", m->manager->SetValue(toValueId(v), std::string(value)));
}

zw_status zw_value_set_list_label(zw_manager *m, const zw_value_id *v, const char *label) {
    ZW_REQUIRE(label != nullptr, "label is NULL");
    ZW_SET_VALUE("Manager::SetValueListSelection", m->manager->SetValueListSelection(toValueId(v), std::string(label)));
}

zw_status zw_value_set_list_value(zw_manager *m, const zw_value_id *v, int32_t value) {
    ZW_REQUIRE_MANAGER(m);
    return guarded("Manager::SetValueListSelection", [&] {
        ZW_REQUIRE(v != nullptr, "value id is NULL");
        ValueID id = toValueId(v);
        UserCommand userCommand;
        std::vector<std::string> items;
        std::vector<int32> values;
        if (!m->manager->GetValueListItems(id, &items) || !m->manager->GetValueListValues(id, &values))
            return failed("Manager::GetValueListItems/Values");
        for (size_t i = 0; i < values.size() && i < items.size(); ++i) {
            if (values[i] == value)
                return boolResult("Manager::SetValueListSelection", m->manager->SetValueListSelection(id, items[i]));
        }
        setError("Manager::SetValueListSelection: no list item has value " + std::to_string(value));
        return ZW_ERR_INVALID_ARGUMENT;
    });
}

zw_status zw_value_list_values(zw_manager *m, const zw_value_id *v, int32_t *out_values, size_t capacity,
                               size_t *out_count) {
    ZW_REQUIRE_MANAGER(m);
    return guarded("Manager::GetValueListValues", [&] {
        ZW_REQUIRE(v != nullptr && out_count != nullptr && (out_values != nullptr || capacity == 0), "NULL argument");
        std::vector<int32> values;
        if (!m->manager->GetValueListValues(toValueId(v), &values)) return failed("Manager::GetValueListValues");
        *out_count = values.size();
        for (size_t i = 0; i < values.size() && i < capacity; ++i) out_values[i] = values[i];
        return ZW_OK;
    });
}

zw_status zw_value_range(zw_manager *m, const zw_value_id *v, int32_t *out_min, int32_t *out_max) {
    ZW_REQUIRE_MANAGER(m);
    return guarded("Manager::GetValueMin/Max", [&] {
        ZW_REQUIRE(v != nullptr && out_min != nullptr && out_max != nullptr, "NULL argument");
        *out_min = m->manager->GetValueMin(toValueId(v));
        *out_max = m->manager->GetValueMax(toValueId(v));
        return ZW_OK;
    });
}

zw_status zw_value_refresh(zw_manager *m, const zw_value_id *v) {
    ZW_VALUE_CALL("Manager::RefreshValue", m->manager->RefreshValue(toValueId(v)));
}

zw_status zw_set_config_param(zw_manager *m, uint32_t home, uint8_t node, uint8_t param, int32_t value,
                              uint8_t size) {
    ZW_REQUIRE_MANAGER(m);
    return guarded("Manager::SetConfigParam", [&] {
        ZW_REQUIRE(size == 1 || size == 2 || size == 4, "size must be 1, 2 or 4");
        return boolResult("Manager::SetConfigParam", m->manager->SetConfigParam(home, node, param, value, size));
    });
}

zw_status zw_request_config_param(zw_manager *m, uint32_t home, uint8_t node, uint8_t param) {
    ZW_REQUIRE_MANAGER(m);
    return guarded("Manager::RequestConfigParam", [&] {
        m->manager->RequestConfigParam(home, node, param);
        return ZW_OK;
    });
}

} // extern "C"
