// Status codes and error messages: the per-thread message behind zw_last_error().

#include "ShimInternal.h"

#include <cstring>
#include <utility>

using OpenZWave::OZWException;

namespace {
thread_local std::string t_lastError;
} // namespace

namespace zwshim {

void clearError() { t_lastError.clear(); }

void setError(std::string message) { t_lastError = std::move(message); }

zw_status statusFor(OZWException::ExceptionType type) {
    switch (type) {
    case OZWException::OZWEXCEPTION_OPTIONS: return ZW_ERR_OPTIONS;
    case OZWException::OZWEXCEPTION_CONFIG: return ZW_ERR_CONFIG_PATH;
    case OZWException::OZWEXCEPTION_INVALID_HOMEID: return ZW_ERR_INVALID_HOMEID;
    case OZWException::OZWEXCEPTION_INVALID_VALUEID: return ZW_ERR_INVALID_VALUEID;
    case OZWException::OZWEXCEPTION_CANNOT_CONVERT_VALUEID: return ZW_ERR_CANNOT_CONVERT;
    case OZWException::OZWEXCEPTION_SECURITY_FAILED: return ZW_ERR_SECURITY;
    case OZWException::OZWEXCEPTION_INVALID_NODEID: return ZW_ERR_INVALID_NODEID;
    }
    return ZW_ERR_EXCEPTION;
}

zw_status failed(const char *call) {
    setError(std::string(call) + " returned false");
    return ZW_ERR_FAILED;
}

zw_status boolResult(const char *call, bool ok) { return ok ? ZW_OK : failed(call); }

void copyText(const std::string &text, char *buffer, size_t size) {
    if (buffer == nullptr || size == 0) return;
    size_t n = text.size() < size - 1 ? text.size() : size - 1;
    std::memcpy(buffer, text.data(), n);
    buffer[n] = '\0';
}

} // namespace zwshim

extern "C" const char *zw_last_error(void) { return t_lastError.c_str(); }
