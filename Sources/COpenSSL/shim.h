// OpenSSL's libcrypto: its big-number arithmetic (BN), for the modular exponentiations of SRP-6a; and
// OPENSSL_thread_stop, with which a thread of ours that used TLS (the MQTT network thread) frees OpenSSL's
// per-thread state before it says it has ended.
#include <openssl/bn.h>
#include <openssl/crypto.h>
